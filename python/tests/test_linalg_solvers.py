"""numpy.linalg's factorisations on Switchyard arrays, against NumPy. Tolerances follow the
algorithms' backward error bound, c·n·eps·‖A‖ (c = 10), times the condition number where a
result is a solution (the matrices are built well conditioned). Work pinned to a device without
a dense solver is a ValueError; placed by the scheduler it runs where LAPACK is."""

import numpy as np
import pytest

import switchyard as sy
from conftest import has, scheduler_knows_every_device

DTYPES = [np.float64, np.float32]


def eps(dtype):
    return np.finfo(dtype).eps


def bound(a, dtype, cond=1.0):
    """10·n·eps·‖A‖·cond, n the largest matrix extent."""
    n = max(a.shape[-2:], default=1)
    return 10 * n * eps(dtype) * max(float(np.linalg.norm(a)), 1.0) * cond


def well_conditioned(rng, shape, dtype):
    """Random matrices plus n·I: condition number below about 3."""
    n = shape[-1]
    return (rng.normal(size=shape) + n * np.eye(n)).astype(dtype)


def symmetric_positive(rng, shape, dtype):
    a = rng.normal(size=shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


@pytest.fixture(params=["auto", "cpu:0"])
def placed(request):
    """Where the solvers run: placed by the scheduler, or pinned to the host."""
    if request.param == "auto":
        yield
    else:
        with sy.device(request.param):
            yield


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (7, 4), (3, 6), (2, 3, 4, 4)])
def test_svd_reconstructs_and_matches_numpys_values(placed, rng, dtype, shape):
    a = rng.normal(size=shape).astype(dtype)
    tol = bound(a, dtype)
    for full in (True, False):
        u, s, vh = sy.linalg.svd(sy.asarray(a), full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (nu.shape, ns.shape, nvh.shape)
        assert s.dtype == sy.asarray(a).dtype
        np.testing.assert_allclose(np.asarray(s), ns, atol=tol)
        k = ns.shape[-1]
        u, s, vh = np.asarray(u), np.asarray(s), np.asarray(vh)
        np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, atol=tol)
        np.testing.assert_allclose(np.swapaxes(u, -1, -2) @ u, np.broadcast_to(
            np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2), atol=tol)
    np.testing.assert_allclose(np.asarray(sy.linalg.svdvals(sy.asarray(a))),
                               np.linalg.svd(a, compute_uv=False), atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 5)])
def test_qr_is_orthonormal_times_upper_triangular(placed, rng, dtype, shape):
    a = rng.normal(size=shape).astype(dtype)
    tol = bound(a, dtype)
    for mode in ("reduced", "complete"):
        q, r = sy.linalg.qr(sy.asarray(a), mode=mode)
        nq, nr = np.linalg.qr(a, mode=mode)
        assert (q.shape, r.shape) == (nq.shape, nr.shape)
        q, r = np.asarray(q), np.asarray(r)
        np.testing.assert_allclose(q @ r, a, atol=tol)
        np.testing.assert_array_equal(np.tril(r, -1), 0)
        np.testing.assert_allclose(np.abs(np.diagonal(r, axis1=-2, axis2=-1)),
                                   np.abs(np.diagonal(nr, axis1=-2, axis2=-1)), atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_matches_numpy_and_refuses_indefinite_matrices(placed, rng, dtype):
    a = symmetric_positive(rng, (3, 4, 4), dtype)
    tol = bound(a, dtype)
    np.testing.assert_allclose(np.asarray(sy.linalg.cholesky(sy.asarray(a))),
                               np.linalg.cholesky(a), atol=tol)
    np.testing.assert_allclose(np.asarray(sy.linalg.cholesky(sy.asarray(a), upper=True)),
                               np.linalg.cholesky(a, upper=True), atol=tol)
    with pytest.raises(sy.linalg.LinAlgError, match="not positive definite"):
        sy.linalg.cholesky(sy.asarray(-np.eye(3)))
    assert issubclass(sy.LinAlgError, ValueError) and issubclass(sy.LinAlgError, sy.Error)


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_and_inv_match_numpy(placed, rng, dtype):
    a = well_conditioned(rng, (2, 5, 5), dtype)
    tol = bound(a, dtype, cond=np.linalg.cond(a).max())
    vector = rng.normal(size=5).astype(dtype)
    columns = rng.normal(size=(5, 3)).astype(dtype)
    stacked = rng.normal(size=(4, 2, 5, 3)).astype(dtype)  # batch axes broadcast
    for b in (vector, columns, stacked):
        got = sy.linalg.solve(sy.asarray(a), sy.asarray(b))
        want = np.linalg.solve(a, b)
        assert got.shape == want.shape
        np.testing.assert_allclose(np.asarray(got), want, atol=tol * max(1, np.abs(b).max()))
    np.testing.assert_allclose(np.asarray(sy.linalg.inv(sy.asarray(a))), np.linalg.inv(a),
                               atol=tol)
    singular = np.ones((3, 3), dtype)
    with pytest.raises(sy.LinAlgError, match="singular"):
        sy.linalg.solve(sy.asarray(singular), sy.asarray(np.ones(3, dtype)))
    with pytest.raises(sy.LinAlgError):
        sy.linalg.inv(sy.asarray(singular))


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_matches_numpy(placed, rng, dtype):
    a = symmetric_positive(rng, (2, 6, 6), dtype)
    tol = bound(a, dtype)
    w, v = sy.linalg.eigh(sy.asarray(a))
    np.testing.assert_allclose(np.asarray(w), np.linalg.eigvalsh(a), atol=tol)
    w, v = np.asarray(w), np.asarray(v)
    np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=tol)
    np.testing.assert_allclose(np.asarray(sy.linalg.eigvalsh(sy.asarray(a))),
                               np.linalg.eigvalsh(a), atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_det_and_slogdet_match_numpy(placed, rng, dtype):
    a = rng.normal(size=(3, 4, 4)).astype(dtype)
    sign, logabsdet = sy.linalg.slogdet(sy.asarray(a))
    want = np.linalg.slogdet(a)
    np.testing.assert_array_equal(np.asarray(sign), want.sign)
    np.testing.assert_allclose(np.asarray(logabsdet), want.logabsdet,
                               atol=bound(a, dtype))
    np.testing.assert_allclose(np.asarray(sy.linalg.det(sy.asarray(a))), np.linalg.det(a),
                               rtol=bound(a, dtype))
    singular = np.array([[1.0, 2.0], [2.0, 4.0]], dtype)
    assert float(np.asarray(sy.linalg.det(sy.asarray(singular)))) == 0
    s = sy.linalg.slogdet(sy.asarray(singular))
    assert float(np.asarray(s.sign)) == 0 and float(np.asarray(s.logabsdet)) == -np.inf
    # Integers are factorised in float64, as NumPy does.
    ints = np.array([[2, 1], [1, 3]])
    assert sy.linalg.det(sy.asarray(ints)).dtype == sy.float64
    np.testing.assert_allclose(np.asarray(sy.linalg.det(sy.asarray(ints))), 5.0,
                               rtol=10 * eps(np.float64))


def test_composed_functions_match_numpy(placed, rng):
    a = rng.normal(size=(2, 5, 3))
    tol = bound(a, np.float64, cond=np.linalg.cond(a).max())
    np.testing.assert_allclose(np.asarray(sy.linalg.pinv(sy.asarray(a))), np.linalg.pinv(a),
                               atol=tol)
    low_rank = a @ np.swapaxes(a, -1, -2)  # 5×5 of rank 3
    np.testing.assert_array_equal(np.asarray(sy.linalg.matrix_rank(sy.asarray(low_rank))),
                                  np.linalg.matrix_rank(low_rank))
    for ord in ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]:
        np.testing.assert_allclose(
            np.asarray(sy.linalg.matrix_norm(sy.asarray(a), ord=ord)),
            np.linalg.matrix_norm(a, ord=ord), rtol=bound(a, np.float64))
    assert sy.linalg.matrix_norm(sy.asarray(a), keepdims=True).shape == (2, 1, 1)
    square = well_conditioned(rng, (4, 4), np.float64)
    for n in [0, 1, 2, 5, -3]:
        want = np.linalg.matrix_power(square, n)
        np.testing.assert_allclose(np.asarray(sy.linalg.matrix_power(sy.asarray(square), n)),
                                   want, rtol=1e-12, atol=bound(want, np.float64))
    x, y = rng.normal(size=(4, 3)), rng.normal(size=(3,))
    np.testing.assert_allclose(np.asarray(sy.linalg.cross(sy.asarray(x), sy.asarray(y))),
                               np.cross(x, y), atol=bound(x, np.float64))


def test_empty_matrices_and_stacks(placed):
    for shape in [(0, 3, 3), (2, 0, 0), (4, 0)]:
        a = np.zeros(shape)
        got, want = sy.linalg.svd(sy.asarray(a)), np.linalg.svd(a)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), w)
    np.testing.assert_array_equal(np.asarray(sy.linalg.det(sy.asarray(np.zeros((2, 0, 0))))),
                                  np.linalg.det(np.zeros((2, 0, 0))))


def test_bad_input_is_typed():
    with pytest.raises(sy.LinAlgError, match="at least two dimensions"):
        sy.linalg.svd(sy.asarray([1.0, 2.0]))
    with pytest.raises(sy.LinAlgError, match="square"):
        sy.linalg.inv(sy.asarray(np.ones((2, 3))))
    with pytest.raises(ValueError, match="does not match"):
        sy.linalg.solve(sy.asarray(np.eye(3)), sy.asarray(np.ones(4)))
    with pytest.raises(ValueError, match="mode"):
        sy.linalg.qr(sy.asarray(np.eye(2)), mode="economic")
    with pytest.raises(ValueError, match="ord"):
        sy.linalg.matrix_norm(sy.asarray(np.eye(2)), ord=3)


def test_a_device_without_a_solver_is_not_a_candidate():
    without = [d.id for d in sy.devices() if not has(d.id, "dense_solvers")]
    solvers = [d.id for d in sy.devices() if has(d.id, "dense_solvers")]
    a = sy.asarray(np.eye(3) * 2)
    for device in without:  # pinned there: a clear error, not a device failure
        with sy.device(device), pytest.raises(ValueError, match="no dense solver"):
            sy.linalg.det(a)
    assert scheduler_knows_every_device(), "a device was not calibrated in 120 s"
    report = str(sy.explain(lambda: sy.linalg.svdvals(a).eval()))
    assert "svd float64" in report
    for device in without:
        assert f"{device}" in report and "(no routine: not a candidate)" in report
    assert any(f"ran on: {device}" in report for device in solvers), report

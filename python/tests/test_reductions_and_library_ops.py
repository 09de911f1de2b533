"""Reductions (axis tuples, keepdims, correction), matmul, scans, sorts, selection, joins and
FFTs against NumPy, on every device."""

import numpy as np
import pytest

import switchyard as sy
from conftest import assert_matches, matmul_bound, random_array, require, sum_bound


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "float64"])
def test_reductions_over_axis_tuples_with_keepdims(on_device, rng, dtype):
    a = random_array(rng, (3, 4, 5), dtype)
    x = sy.asarray(a)
    for axis in (None, 0, -1, (0, 2), (1, 2)):
        for keepdims in (False, True):
            for name in ("sum", "max", "min", "any", "all"):
                if name in ("max", "min") and dtype == "bool":
                    continue
                got = getattr(sy, name)(x, axis=axis, keepdims=keepdims)
                expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
                if name == "sum" and a.dtype.kind == "f":
                    # Against the exact sum, within the bound of any device's summation.
                    exact = np.sum(a.astype(np.float64), axis=axis, keepdims=keepdims)
                    assert_matches(got, exact.astype(a.dtype), rtol=0,
                                   atol=np.max(sum_bound(a, axis, keepdims)))
                else:
                    assert_matches(got, expected)


def test_mean_var_std_with_correction(on_device, rng):
    a = rng.standard_normal((6, 7))
    x = sy.asarray(a)
    for axis in (None, 0, (0, 1)):
        assert_matches(sy.mean(x, axis=axis), np.mean(a, axis=axis))
        assert_matches(sy.var(x, axis=axis, correction=1), np.var(a, axis=axis, ddof=1))
        assert_matches(sy.std(x, axis=axis), np.std(a, axis=axis))


def test_empty_and_zero_dimensional_inputs(on_device):
    assert_matches(sy.sum(sy.zeros((0, 3), dtype=sy.float32)), np.float32(0))
    assert_matches(sy.sum(sy.zeros((0, 3)), axis=0), np.zeros(3))
    assert_matches(sy.asarray(2.5) * 2, np.asarray(5.0))
    with pytest.raises(ValueError):
        sy.max(sy.zeros((0,))).item()


def test_matmul_of_every_operand_kind(on_device, rng):
    for sa, sb in [((5,), (5,)), ((5,), (5, 3)), ((4, 5), (5,)), ((2, 4, 5), (5, 3)),
                   ((2, 1, 4, 5), (3, 5, 2))]:
        a, b = rng.standard_normal(sa), rng.standard_normal(sb)
        assert_matches(sy.asarray(a) @ sy.asarray(b), a @ b, rtol=0,
                       atol=np.max(matmul_bound(a, b)))
    ai = rng.integers(-5, 5, (3, 4)).astype(np.int32)
    bi = rng.integers(-5, 5, (4, 2)).astype(np.int32)
    assert_matches(sy.matmul(ai, bi), ai @ bi)


def test_scans_sorts_and_selection(on_device, rng):
    a = rng.standard_normal((4, 9))
    a[1, 3] = np.nan
    x = sy.asarray(a)
    assert_matches(sy.cumulative_sum(x, axis=1), np.cumsum(a, axis=1))
    assert_matches(sy.cumulative_sum(x, axis=0, include_initial=True),
                   np.concatenate([np.zeros((1, 9)), np.cumsum(a, axis=0)]))
    assert_matches(sy.sort(x, axis=-1), np.sort(a, axis=-1))
    assert_matches(sy.argsort(x, axis=0), np.argsort(a, axis=0, stable=True))
    ties = np.array([3, 1, 3, 2, 1, 3], dtype=np.int64)
    assert_matches(sy.argsort(ties, descending=True), np.argsort(-ties, stable=True))
    assert_matches(sy.sort(ties, descending=True), np.sort(ties)[::-1])
    assert_matches(x[x > 0], a[a > 0])
    assert_matches(sy.take(x, sy.asarray([2, 0, -1]), axis=1), np.take(a, [2, 0, -1], axis=1))
    assert_matches(x[:, sy.asarray([1, 1, 0])], a[:, [1, 1, 0]])
    for got, expected in zip(sy.nonzero(x > 0.5), np.nonzero(a > 0.5)):
        assert_matches(got, expected)


def test_set_functions(on_device):
    a = np.array([3, 1, 2, 3, 1, 7, 3], dtype=np.int64)
    values, counts = sy.unique_counts(sy.asarray(a))
    expected = np.unique_counts(a)
    assert_matches(values, expected.values)
    assert_matches(counts, expected.counts)
    values, inverse = sy.unique_inverse(sy.asarray(a))
    assert_matches(inverse, np.unique_inverse(a).inverse_indices)
    values, indices, inverse, counts = sy.unique_all(sy.asarray(a))
    assert_matches(indices, np.unique_all(a).indices)


def test_joins_and_manipulation(on_device, rng):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((4, 3))
    x, y = sy.asarray(a), sy.asarray(b)
    assert_matches(sy.concat([x, y]), np.concatenate([a, b]))
    assert_matches(sy.concat([x, y], axis=None), np.concatenate([a, b], axis=None))
    assert_matches(sy.stack([x, x], axis=1), np.stack([a, a], axis=1))
    assert_matches(sy.flip(y, axis=0), np.flip(b, axis=0))
    assert_matches(sy.roll(y, 2, axis=0), np.roll(b, 2, axis=0))
    c = rng.standard_normal((2, 3, 4))
    assert_matches(sy.moveaxis(sy.asarray(c), 0, -1), np.moveaxis(c, 0, -1))
    assert_matches(sy.repeat(x, 2, axis=1), np.repeat(a, 2, axis=1))
    assert_matches(sy.tile(x, (2, 1)), np.tile(a, (2, 1)))
    assert_matches(sy.clip(x, -0.5, 0.5), np.clip(a, -0.5, 0.5))
    assert_matches(sy.where(x > 0, x, 0.0), np.where(a > 0, a, 0.0))
    assert_matches(sy.eye(3, 4, k=1), np.eye(3, 4, k=1))
    assert_matches(sy.tril(y), np.tril(b))


def test_fft_matches_numpy(on_device, rng):
    require(on_device, "fft")
    a = rng.standard_normal(1000)
    assert_matches(sy.fft.rfft(a), np.fft.rfft(a), rtol=1e-9, atol=1e-9)
    assert_matches(sy.fft.irfft(sy.fft.rfft(a)), np.fft.irfft(np.fft.rfft(a)), atol=1e-12)
    c = rng.standard_normal((6, 10)) + 1j * rng.standard_normal((6, 10))
    assert_matches(sy.fft.fft2(c), np.fft.fft2(c), rtol=1e-9, atol=1e-9)
    assert_matches(sy.fft.fft(a, norm="ortho"), np.fft.fft(a, norm="ortho"), rtol=1e-9, atol=1e-9)
    assert_matches(sy.fft.fftfreq(9, d=0.5), np.fft.fftfreq(9, d=0.5))
    assert_matches(sy.fft.fftshift(sy.asarray(a[:9])), np.fft.fftshift(a[:9]))


def test_linalg_extension(rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 5))
    assert_matches(sy.linalg.matmul(a, b), a @ b, rtol=0, atol=np.max(matmul_bound(a, b)))
    assert_matches(sy.linalg.vector_norm(sy.asarray(a), axis=1), np.linalg.norm(a, axis=1))
    m = rng.standard_normal((4, 4))
    assert_matches(sy.linalg.trace(sy.asarray(m)), np.trace(m))
    assert_matches(sy.tensordot(sy.asarray(a), sy.asarray(b), axes=1), np.tensordot(a, b, axes=1),
                   rtol=0, atol=np.max(matmul_bound(a, b)))
    assert_matches(sy.vecdot(sy.asarray(a), sy.asarray(a)), np.sum(a * a, axis=-1), rtol=0,
                   atol=np.max(matmul_bound(a[:, None, :], a[:, :, None])))

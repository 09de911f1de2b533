"""Fixtures shared by the suite: every device this machine has (plus the scheduler's own
choice), and seeded NumPy inputs across dtypes and layouts."""

import time

import numpy as np
import pytest

import switchyard as sy

# "auto" lets the scheduler place the work; the others pin it to one device.
DEVICE_IDS = ["auto"] + [d.id for d in sy.devices()]


# What each device has (switchyard info's fields: fp64, library_ops, fft, dense_solvers).
_CAPABILITIES = {d["id"]: d for d in sy._switchyard._devices()}


def has(device_id, capability):
    """Whether work pinned to `device_id` can use `capability` ("auto" can: the scheduler places
    such work on a device that has it)."""
    return device_id == "auto" or _CAPABILITIES[device_id.split("/")[0]][capability]


def require(device_id, capability):
    """Skips a test pinned to a device that lacks `capability` (the conformance suite checks that
    a device refuses what it lacks)."""
    if not has(device_id, capability):
        pytest.skip(f"{device_id} has no {capability}")


def scheduler_knows_every_device(timeout_s=120):
    """Whether the scheduler has a model of every device, waiting up to timeout_s: without a
    saved profile of them, devices other than the host are calibrated in the background and are
    no candidates until then (tests/test_support.hpp has the same wait). With a cold kernel cache
    a 2-core machine took 10 s for opencl:0 and 3 s for vulkan:0 alone, and over 30 s with the
    suite running beside it (ctest -j2)."""
    wanted = {d.id for d in sy.devices()}
    deadline = time.monotonic() + timeout_s
    while True:
        report = sy.explain(lambda: (sy.arange(4) + 1).eval())
        if wanted <= {c.name.split("/")[0] for k in report.kernels for c in k.candidates}:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


@pytest.fixture(params=DEVICE_IDS)
def on_device(request):
    """Runs the test's work on one device (or placed by the scheduler for "auto")."""
    if request.param == "auto":
        yield request.param
    else:
        with sy.device(request.param):
            yield request.param


@pytest.fixture
def rng():
    return np.random.default_rng(20261123)


def random_array(rng, shape, dtype):
    """Seeded values of a NumPy dtype, with the edge values each dtype has."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.kind == "i":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    return (rng.standard_normal(size=shape) * 3).astype(dtype)


def layouts(rng, dtype):
    """The same kind of data in the layouts that break naive code: 0-d, empty, odd length,
    2-D, a strided view, a negative-step view and a transposed view."""
    big = random_array(rng, (6, 10), dtype)
    return {
        "0-d": random_array(rng, (), dtype),
        "empty": random_array(rng, (0, 3), dtype),
        "odd": random_array(rng, (7,), dtype),
        "2-D": random_array(rng, (3, 5), dtype),
        "strided": big[::2, 1::3],
        "negative step": big[::-1, ::-2],
        "transposed": big.T,
    }


def to_sy(n):
    """A Switchyard view of a NumPy array (the slicing is done on the Switchyard side for
    views, so the strides are Switchyard's own)."""
    return sy.asarray(np.ascontiguousarray(n))


def rounding_bound(magnitude, result, roundings, dtype):
    """The error bound every floating tolerance derives from (the Python twin of
    tests/conformance/reference.hpp's rounding_error_bound): a result computed in `dtype` with
    at most `roundings` roundings on any value's path, from values whose magnitudes add up to
    `magnitude`, is within gamma_k * magnitude of the exact one (Higham, Accuracy and Stability,
    3.1), plus its own rounding; never less than one ulp of the result."""
    u = np.finfo(dtype).eps / 2
    gamma = roundings * u / (1 - roundings * u)
    result = np.abs(np.asarray(result, dtype=np.float64))
    ulp = np.spacing(result.astype(dtype)).astype(np.float64)
    return np.maximum(gamma * np.asarray(magnitude, dtype=np.float64) + u * result, ulp)


def sum_bound(terms, axis=None, keepdims=False):
    """A sum of `terms` along `axis` in their dtype: every device sums at least as accurately as
    pairwise summation, ceil(log2 n) roundings, whatever its ISA or order."""
    terms = np.asarray(terms)
    count = terms.size // max(np.sum(terms, axis=axis, keepdims=True).size, 1)
    exact = np.sum(terms.astype(np.float64), axis=axis, keepdims=keepdims)
    magnitude = np.sum(np.abs(terms.astype(np.float64)), axis=axis, keepdims=keepdims)
    return rounding_bound(magnitude, exact, np.ceil(np.log2(max(count, 1))), terms.dtype)


def matmul_bound(a, b):
    """a @ b in their dtype: dot products of length k in any order (BLAS orders them by ISA),
    k roundings each."""
    a, b = np.asarray(a), np.asarray(b)
    k = a.shape[-1]
    return rounding_bound(np.abs(a) @ np.abs(b), a @ b, max(k, 1), np.result_type(a, b))


def assert_matches(got, expected, rtol=None, atol=0.0):
    got_np = np.asarray(got)
    expected = np.asarray(expected)
    assert got_np.dtype == expected.dtype, f"dtype {got_np.dtype}, NumPy gives {expected.dtype}"
    assert got_np.shape == expected.shape, f"shape {got_np.shape}, NumPy gives {expected.shape}"
    if expected.dtype.kind in "fc":
        if rtol is None:
            rtol = 2e-6 if expected.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got_np, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got_np, expected)


# ---- complex values: finite ones, and those whose parts are the special values

SPECIAL = [0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan]


def complex_values(rng, shape, dtype):
    parts = np.finfo(dtype).dtype
    return (rng.standard_normal(shape) * 3).astype(parts) + 1j * (
        rng.standard_normal(shape) * 3).astype(parts)


def specials(dtype, values=SPECIAL):
    """The complex values whose parts are the special values (49 of them), built part by part
    (a Python expression like inf * 1j would already make a NaN real part)."""
    re, im = np.meshgrid(values, values)
    z = np.empty(re.size, dtype)
    z.real, z.imag = re.ravel(), im.ravel()
    return z


def assert_same_specials(got, expected):
    """Where NumPy gives a NaN, infinity or zero part, the same (zeros by sign too)."""
    for part in (np.real, np.imag):
        g, e = part(got), part(expected)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(e))
        finite = ~np.isnan(e)
        np.testing.assert_array_equal(g[finite & np.isinf(e)], e[finite & np.isinf(e)])
        zero = e == 0
        np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(e[zero]))

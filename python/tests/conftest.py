"""Fixtures shared by the suite: every device this machine has (plus the scheduler's own
choice), and seeded NumPy inputs across dtypes and layouts."""

import numpy as np
import pytest

import switchyard as sy

# "auto" lets the scheduler place the work; the others pin it to one device.
DEVICE_IDS = ["auto"] + [d.id for d in sy.devices()]


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

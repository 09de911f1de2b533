"""switchyard.apps.field against a NumPy float64 reference of the wave."""

import numpy as np
import pytest

import switchyard as sy
from switchyard.apps import field

PARAMS = dict(wavenumber=25.0, angular_frequency=3.0, twist=2.0, damping=0.7,
              center=(0.3, -0.2))
BOUNDS = (-1.5, 1.0, -1.0, 2.0)


def numpy_frame(width, height, t, bounds=BOUNDS, wavenumber=25.0, angular_frequency=3.0,
                twist=2.0, damping=0.7, center=(0.3, -0.2)):
    x0, x1, y0, y1 = bounds
    x = x0 + (np.arange(width) + 0.5) * (x1 - x0) / width - center[0]
    y = y0 + (np.arange(height) + 0.5) * (y1 - y0) / height - center[1]
    r = np.hypot(x[None, :], y[:, None])
    phi = np.arctan2(y[:, None], x[None, :])
    return np.sin(wavenumber * r - angular_frequency * t + twist * phi) * np.exp(-damping * r)


def numpy_stats(f):
    return {"mean": f.mean(), "energy": (f * f).mean(),
            "coherence": abs(f.sum()) / np.abs(f).sum()}


@pytest.mark.parametrize("dtype, atol", [("float32", 5e-5), ("float64", 1e-11)])
def test_frame_and_statistics_match_numpy(on_device, dtype, atol):
    for width, height in [(1, 1), (37, 23), (64, 64)]:
        f = field.frame(width, height, 0.37, dtype=dtype, bounds=BOUNDS, **PARAMS)
        want = numpy_frame(width, height, 0.37)
        got = np.asarray(f)
        assert got.shape == (height, width) and got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got, want, rtol=0, atol=atol)
        s = field.statistics(width, height, 0.37, dtype=dtype, bounds=BOUNDS, **PARAMS)
        for key, value in numpy_stats(want).items():
            assert s[key] == pytest.approx(value, abs=20 * atol + 1e-12), key


def test_animate_matches_each_frame(on_device):
    s = field.animate(50, 30, frames=4, dt=0.1, t0=0.25)
    np.testing.assert_allclose(s["t"], 0.25 + 0.1 * np.arange(4))
    for k, t in enumerate(s["t"]):
        want = numpy_stats(numpy_frame(50, 30, t, bounds=(-1, 1, -1, 1), wavenumber=20.0,
                                       angular_frequency=6.0, twist=3.0, damping=1.5))
        for key in ("mean", "energy", "coherence"):
            assert s[key][k] == pytest.approx(want[key], abs=1e-3), (key, k)


def test_frame_goes_to_torch_without_a_copy():
    torch = pytest.importorskip("torch")
    # computed on the CPU, so torch's CPU tensor can share its memory
    with sy.device("cpu:0"):
        f = field.frame(40, 30, 0.1)
    t = torch.from_dlpack(f)
    assert tuple(t.shape) == (30, 40)
    np.testing.assert_array_equal(t.numpy(), np.asarray(f))
    assert t.data_ptr() == np.asarray(f).__array_interface__["data"][0]


def test_bad_input_raises_typed_errors():
    with pytest.raises(sy.ValueError, match="width"):
        field.frame(0, 10)
    with pytest.raises(sy.ValueError, match="wavenumber"):
        field.statistics(10, 10, wavenumber=float("nan"))
    with pytest.raises(sy.ValueError, match="frames"):
        field.animate(10, 10, frames=-1, dt=0.1)
    with pytest.raises((sy.DTypeError, TypeError)):
        field.frame(10, 10, dtype="int32")

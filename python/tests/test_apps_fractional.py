"""switchyard.apps.fractional against NumPy: the direct and FFT derivatives against a NumPy loop
of dots and NumPy's FFT convolution, relaxation against the Mittag-Leffler series."""

import math

import numpy as np
import pytest

import switchyard as sy
from conftest import require
from switchyard.apps import fractional


def numpy_weights(n, alpha, scheme):
    k = np.arange(n, dtype=np.float64)
    if scheme == "gl":
        w = np.ones(n)
        w[1:] = np.cumprod(1 - (alpha + 1) / k[1:])
        return w
    power = 1 - alpha if alpha <= 1 else 2 - alpha
    b = (k + 1) ** power - k**power
    b[0] = 1.0
    return b


def numpy_derivative(f, alpha, h, scheme):
    """The scheme written out with a Python loop of dots (the idiomatic direct version)."""
    n = len(f)
    w = numpy_weights(n, alpha, scheme)
    if scheme == "gl":
        x, c = f, h**-alpha
    else:
        x = np.zeros(n)
        if alpha <= 1:
            x[1:] = np.diff(f)
            c = h**-alpha / math.gamma(2 - alpha)
        else:
            d2 = f[2:] - 2 * f[1:-1] + f[:-2]
            x[1], x[2:] = d2[0], d2
            c = h**-alpha / math.gamma(3 - alpha)
    return np.array([c * np.dot(w[: i + 1], x[i::-1]) for i in range(n)])


@pytest.mark.parametrize("scheme", ["gl", "caputo"])
@pytest.mark.parametrize("method", ["direct", "fft"])
@pytest.mark.parametrize("alpha", [0.3, 1.0, 1.7])
def test_derivative_matches_numpy(on_device, scheme, method, alpha):
    if method == "fft":
        require(on_device, "fft")
    f = np.sin(np.linspace(0, 3, 777)) + 0.1 * np.random.default_rng(5).standard_normal(777)
    got = np.asarray(fractional.derivative(f, alpha, 0.01, scheme=scheme, method=method))
    expected = numpy_derivative(f, alpha, 0.01, scheme)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


def test_derivative_of_t_squared_approaches_closed_form(on_device):
    h = 1e-3
    t = np.arange(1001) * h
    got = np.asarray(fractional.derivative(sy.asarray(t**2), 0.5, h, "caputo", "direct"))
    exact = 2 / math.gamma(2.5) * t**1.5
    assert np.abs(got - exact)[500:].max() < 1e-3


@pytest.mark.parametrize("method", ["direct", "fft"])
def test_float32_stays_float32(on_device, method):
    if method == "fft":
        require(on_device, "fft")
    f = np.linspace(0, 1, 100, dtype=np.float32)
    assert fractional.derivative(f, 0.5, 0.01, method=method).dtype == sy.float32


def test_relaxation_follows_mittag_leffler(on_device):
    require(on_device, "fft")  # its history is an FFT convolution
    h, steps, lam = 0.002, 1000, 1.0
    y = np.asarray(fractional.relaxation(0.7, lam, 1.0, h, steps))
    t = np.arange(steps + 1) * h
    exact = fractional.mittag_leffler(0.7, -lam * t**0.7)
    # E_0.7 by its series, independently, where the series is well-conditioned (|z| <= 2)
    series = sum((-(t**0.7)) ** k / math.gamma(0.7 * k + 1) for k in range(120))
    np.testing.assert_allclose(exact, series, atol=1e-10)
    assert np.abs(y - exact)[steps // 4:].max() < 2e-3


def test_strided_views_are_read_as_their_elements(on_device):
    base = np.cos(np.linspace(0, 2, 2001))
    view = sy.asarray(base)[::-3]
    got = np.asarray(fractional.derivative(view, 0.8, 0.01, "gl", "direct"))
    np.testing.assert_allclose(got, numpy_derivative(base[::-3], 0.8, 0.01, "gl"), rtol=1e-9,
                               atol=1e-9)


def test_mittag_leffler_takes_arrays_and_matches_closed_forms():
    x = np.array([0.0, 0.5, 2.0, 7.0])
    np.testing.assert_allclose(fractional.mittag_leffler(1.0, -x), np.exp(-x), rtol=1e-13)
    np.testing.assert_allclose(fractional.mittag_leffler(2.0, -x**2), np.cos(x), atol=1e-12)


def test_relaxation_of_order_above_one_oscillates_like_mittag_leffler(on_device):
    require(on_device, "fft")  # its history is an FFT convolution
    h, steps = 0.002, 2000
    y = np.asarray(fractional.relaxation(1.8, 1.0, 1.0, h, steps))
    t = np.arange(steps + 1) * h
    exact = fractional.mittag_leffler(1.8, -(t**1.8))
    assert exact.min() < 0  # the solution crosses zero: a damped oscillation
    assert np.abs(y - exact)[steps // 4:].max() < 0.01


def test_bad_input_raises_typed_errors():
    with pytest.raises(sy.ValueError, match="alpha"):
        fractional.derivative(np.ones(5), 2.5, 0.1)
    with pytest.raises(sy.ValueError, match="h"):
        fractional.derivative(np.ones(5), 0.5, -0.1)
    with pytest.raises(sy.ShapeError, match="f"):
        fractional.derivative(np.ones((2, 2)), 0.5, 0.1)
    with pytest.raises(ValueError, match="scheme"):
        fractional.derivative(np.ones(5), 0.5, 0.1, scheme="riemann")

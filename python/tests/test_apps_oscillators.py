"""switchyard.apps.oscillators against NumPy float64 references of the direct N² sum."""

import numpy as np
import pytest

import switchyard as sy
from switchyard.apps import oscillators as osc


def numpy_rate(K, omega, theta):
    n = theta.size
    return omega + (K * np.sin(theta[None, :] - theta[:, None])).sum(axis=1) / n


def numpy_simulate(K, omega, theta, dt, steps, method):
    for _ in range(steps):
        k1 = numpy_rate(K, omega, theta)
        if method == "euler":
            theta = theta + dt * k1
            continue
        k2 = numpy_rate(K, omega, theta + dt / 2 * k1)
        k3 = numpy_rate(K, omega, theta + dt / 2 * k2)
        k4 = numpy_rate(K, omega, theta + dt * k3)
        theta = theta + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return theta


def numpy_order(theta):
    return abs(np.exp(1j * theta).mean())


@pytest.fixture
def network(rng):
    n = 40
    return rng.uniform(0, 2, (n, n)), rng.standard_normal(n), rng.uniform(0, 2 * np.pi, n)


@pytest.mark.parametrize("method", ["euler", "rk4"])
@pytest.mark.parametrize("coupling", ["matvec", "direct"])
def test_simulate_matches_numpy(on_device, network, method, coupling):
    K, omega, theta0 = network
    phases, r = osc.simulate(K, omega, theta0, dt=0.01, steps=50, method=method,
                             coupling=coupling)
    want = numpy_simulate(K, omega, theta0, 0.01, 50, method)
    assert isinstance(phases, sy.Array)
    np.testing.assert_allclose(np.asarray(phases), want, rtol=0, atol=1e-9)
    assert r.shape == (51,)
    np.testing.assert_allclose(r[[0, -1]], [numpy_order(theta0), numpy_order(want)], atol=1e-9)


def test_float32_and_switchyard_inputs(on_device, network):
    K, omega, theta0 = (sy.asarray(a.astype(np.float32)) for a in network)
    phases, r = osc.simulate(K, omega, theta0, dt=0.01, steps=50, method="rk4")
    want = numpy_simulate(*(a.astype(np.float32).astype(np.float64) for a in network),
                          0.01, 50, "rk4")
    assert np.asarray(phases).dtype == np.float32
    np.testing.assert_allclose(np.asarray(phases), want, atol=2e-4)


def test_derivative_and_order_parameter(on_device, network):
    K, omega, theta = network
    want = numpy_rate(K, omega, theta)
    for coupling in ("matvec", "direct"):
        np.testing.assert_allclose(np.asarray(osc.derivative(K, omega, theta, coupling=coupling)),
                                   want, atol=1e-12)
    assert osc.order_parameter(theta) == pytest.approx(numpy_order(theta), abs=1e-12)


def test_random_network_and_record_every():
    K, omega = osc.random_network(32, seed=3, coupling_strength=1.5)
    k = np.asarray(K)
    assert k.shape == (32, 32) and k.min() >= 0 and k.max() < 3
    assert np.asarray(omega).shape == (32,)
    theta0 = osc.random_phases(32, seed=4)
    _, r, steps = osc.simulate(K, omega, theta0, steps=20, record_every=6, return_steps=True)
    assert steps.tolist() == [0, 6, 12, 18]
    assert r.shape == (4,)


def test_synchronises_under_strong_coupling(on_device):
    n = 64
    K = np.full((n, n), 4.0)
    omega = np.full(n, 0.5)
    theta0 = np.random.default_rng(1).uniform(0, np.pi, n)
    _, r = osc.simulate(K, omega, theta0, dt=0.02, steps=500, record_every=100)
    assert r[0] < 0.9 and r[-1] > 0.999


def test_bad_input_raises_typed_errors(network):
    K, omega, theta0 = network
    with pytest.raises(sy.ValueError, match="dt"):
        osc.simulate(K, omega, theta0, dt=0.0)
    with pytest.raises(sy.ValueError, match="steps"):
        osc.simulate(K, omega, theta0, steps=-1)
    with pytest.raises(sy.ShapeError, match="coupling"):
        osc.simulate(K[:, :-1], omega, theta0)
    with pytest.raises(sy.ShapeError, match="theta"):
        osc.simulate(K, omega, theta0[:-1])
    with pytest.raises(sy.ValueError, match="frequencies"):
        osc.simulate(K, omega * np.nan, theta0)
    with pytest.raises(sy.ValueError, match="method"):
        osc.simulate(K, omega, theta0, method="leapfrog")
    with pytest.raises(sy.ValueError, match="NaN at step 11 "):
        big = np.ones(8)
        big[2] = np.finfo(np.float64).max / 10.5
        osc.simulate(np.zeros((8, 8)), big, np.zeros(8), dt=1.0, steps=40)

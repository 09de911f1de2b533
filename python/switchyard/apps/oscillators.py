"""Kuramoto oscillator networks: dθ_i/dt = ω_i + (1/N) Σ_j K_ij sin(θ_j − θ_i), integrated on
the device the runtime picks, with the phases resident there; only r(t) comes back.

    K, omega = random_network(64, seed=1, coupling_strength=2.0)
    phases, r = simulate(K, omega, random_phases(64, seed=2), dt=0.01, steps=1000)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as _np

from .. import Array
from .. import _switchyard

_osc = _switchyard.apps.oscillators

__all__ = ["Network", "random_network", "random_phases", "derivative", "order_parameter",
           "simulate"]


class Network(NamedTuple):
    coupling: Array     # K, (N, N)
    frequencies: Array  # ω, (N,)


def random_network(n: int, seed: int = 0, coupling_strength: float = 1.0,
                   dtype="float64") -> Network:
    """K_ij uniform in [0, 2·coupling_strength), ω_i standard normal; seeded."""
    return Network(*_osc.random_network(n, seed, coupling_strength, dtype))


def random_phases(n: int, seed: int = 0, dtype="float64") -> Array:
    """θ_i uniform in [0, 2π); seeded."""
    return _osc.random_phases(n, seed, dtype)


def derivative(K, omega, theta, *, coupling: str = "matvec") -> Array:
    """dθ/dt at theta; coupling "matvec" (one matmul of K with [sin θ, cos θ]) or "direct"
    (the N² sines in one fused reduction)."""
    return _osc.derivative(K, omega, theta, coupling)


def order_parameter(theta) -> float:
    """r = |mean(exp(iθ))|."""
    return _osc.order_parameter(theta)


def simulate(K, omega, theta0, *, dt: float = 0.01, steps: int = 1000, method: str = "euler",
             coupling: str = "matvec", record_every: int = 1,
             return_steps: bool = False):
    """Integrates from theta0 with "euler" or "rk4". Returns (phases, r): the final phases as a
    switchyard Array (left on its device) and r at steps 0, record_every, 2·record_every, ...
    as a NumPy array; with return_steps=True also those steps. A run whose phases overflow
    raises switchyard.ValueError naming the step where NaN first appeared."""
    phases, order, order_steps = _osc.simulate(K, omega, theta0, dt, steps, method, coupling,
                                               record_every)
    r = _np.asarray(order, dtype=_np.float64)
    if return_steps:
        return phases, r, _np.asarray(order_steps, dtype=_np.int64)
    return phases, r

"""The dense Kuramoto network (switchyard.apps.oscillators) across the ranks of an MPI job, as
C++'s oscillators_dist.hpp and with its bits: each rank holds a run of rows of K and ω and
integrates its own phases; every stage of a step gathers the N phases (one allgather, the only
communication) and each rank computes its rows of the coupling from them. The result is the
same on every rank, and bit-identical for any number of ranks when each computes on the same
kind of device (a CPU and a GPU round differently). The one-process app computes its step
another way (K with a row of ones, captured replays): the two agree within rounding.

    from switchyard.apps import oscillators as osc
    from switchyard.dist import oscillators
    net = oscillators.distribute(osc.random_network(4096, seed=1, coupling_strength=2.0))
    phases, r = oscillators.simulate(net, osc.random_phases(4096, seed=2), dt=0.01, steps=1000)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from mpi4py import MPI

import switchyard as sy

from ..apps.oscillators import order_parameter
from ._dist_array import DistArray
from ._layout import DEFAULT_BLOCK_ROWS, Layout
from ._redistribute import gather

__all__ = ["DistNetwork", "distribute", "simulate"]


class DistNetwork(NamedTuple):
    coupling: DistArray     # this rank's rows of K, (rows, N)
    frequencies: DistArray  # this rank's ω, (rows, 1), in K's dtype


def distribute(network, *, comm=None, block_rows: int = DEFAULT_BLOCK_ROWS) -> DistNetwork:
    """This rank's rows of a network every rank holds whole (made from one seed, read from one
    file), in row blocks of block_rows: views, no communication."""
    comm = MPI.COMM_WORLD if comm is None else comm
    K, omega = (sy.asarray(x) for x in network)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise sy.ShapeError(f"distribute: K must be square (N, N), given shape {K.shape}")
    n = K.shape[0]
    if omega.shape != (n,):
        raise sy.ShapeError(f"distribute: ω must have shape ({n},), given {omega.shape}")
    if block_rows < 1:
        raise sy.ValueError(f"distribute: block_rows must be >= 1, given {block_rows}")
    rows = Layout.row_blocks(n, comm.Get_size(), block_rows)
    omega = sy.reshape(sy.astype(omega, K.dtype), (n, 1))
    return DistNetwork(DistArray.distribute(K, rows, comm), DistArray.distribute(omega, rows, comm))


def _evaluated(a: sy.Array) -> sy.Array:
    sy.eval(a)
    return a


class _Stepper:
    """One step of this rank's phases, (rows, 1), from its own and all N, (N, 1)."""

    def __init__(self, network: DistNetwork, dt: float, method: str, coupling: str):
        self._k, self._omega = network.coupling.local, network.frequencies.local
        self._layout_of = network.frequencies.with_local
        self._dt, self._method, self._coupling = dt, method, coupling
        self._inv_n = 1.0 / network.coupling.shape[0]

    def all_phases(self, mine: sy.Array) -> sy.Array:
        return gather(self._layout_of(mine))

    def step(self, mine: sy.Array, all_: sy.Array) -> sy.Array:
        dt = self._dt
        k1 = self._rate(mine, all_)
        if self._method == "euler":
            return _evaluated(mine + dt * k1)
        k2 = self._stage(mine, k1, dt / 2)
        k3 = self._stage(mine, k2, dt / 2)
        k4 = self._stage(mine, k3, dt)
        return _evaluated(mine + (dt / 6) * (k1 + 2 * k2 + 2 * k3 + k4))

    def _stage(self, mine, k, h):
        moved = _evaluated(mine + h * k)
        return _evaluated(self._rate(moved, self.all_phases(moved)))

    def _rate(self, mine, all_):
        """dθ/dt for this rank's rows, lazy."""
        if self._coupling == "direct":
            pull = sy.sum(self._k * sy.sin(sy.matrix_transpose(all_) - mine), axis=1,
                          keepdims=True)
        else:
            m = sy.matmul(self._k, sy.concat([sy.sin(all_), sy.cos(all_)], axis=1))  # (rows, 2)
            pull = sy.cos(mine) * m[:, 0:1] - sy.sin(mine) * m[:, 1:2]
        return self._omega + pull * self._inv_n


def _check(dt, steps, method, coupling, record_every):
    if not (dt > 0 and math.isfinite(dt)):
        raise sy.ValueError(f"simulate: dt must be positive and finite, given {dt}")
    if steps < 0:
        raise sy.ValueError(f"simulate: steps must be >= 0, given {steps}")
    if record_every <= 0:
        raise sy.ValueError(f"simulate: record_every must be positive, given {record_every}")
    if method not in ("euler", "rk4"):
        raise sy.ValueError(f"simulate: method must be 'euler' or 'rk4', given {method!r}")
    if coupling not in ("matvec", "direct"):
        raise sy.ValueError(f"simulate: coupling must be 'matvec' or 'direct', given {coupling!r}")


def simulate(network: DistNetwork, theta0, *, dt: float = 0.01, steps: int = 1000,
             method: str = "euler", coupling: str = "matvec", record_every: int = 1,
             return_steps: bool = False):
    """Collective: integrates from theta0 (N phases, the same on every rank), as
    switchyard.apps.oscillators.simulate. Returns (phases, r), the same on every rank: all N
    phases after the last step and r at steps 0, record_every, ... (with return_steps=True also
    those steps). A run whose phases overflow raises switchyard.ValueError on every rank at
    once, naming the step where NaN first appeared."""
    _check(dt, steps, method, coupling, record_every)
    omega = network.frequencies
    n = omega.shape[0]
    theta0 = sy.asarray(theta0)
    if theta0.shape != (n,):
        raise sy.ShapeError(f"simulate: theta0 must have shape ({n},), given {theta0.shape}")
    stepper = _Stepper(network, dt, method, coupling)
    start = sy.reshape(sy.astype(theta0, omega.dtype), (n, 1))
    mine = DistArray.distribute(start, omega.layout, omega.comm).local
    all_ = stepper.all_phases(mine)
    order, order_steps = [], []

    def record(step):
        # Every rank holds all N phases, so each finds the same r, and a NaN, at the same step.
        r = order_parameter(sy.reshape(all_, (n,)))
        if not math.isfinite(r):
            raise sy.ValueError(
                f"simulate: the phases became NaN by step {step} (t = {step * dt}): the step or "
                "the coupling overflowed; use a smaller dt, or smaller K and ω")
        order.append(r)
        order_steps.append(step)

    for step in range(steps):
        if step % record_every == 0:
            record(step)
        mine = stepper.step(mine, all_)
        all_ = stepper.all_phases(mine)
    if steps % record_every == 0:
        record(steps)
    phases, r = sy.reshape(all_, (n,)), np.asarray(order, dtype=np.float64)
    if return_steps:
        return phases, r, np.asarray(order_steps, dtype=np.int64)
    return phases, r

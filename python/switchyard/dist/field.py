"""The field (switchyard.apps.field) across the ranks of an MPI job, as C++'s field_dist.hpp and
with the same bits: the grid's rows in row blocks, each rank evaluating the fused expression on
its own rows with no communication, and the statistics through switchyard.dist's sums: Σf and
Σ|f| of the rank's rows, and Σf² of its squares taken in float64 (exact for a float32 field).

A rank's rows are the one-process frame's bit for bit. With Summation.REPRODUCIBLE the
statistics are bit-identical for any number of ranks (they depend on block_rows, never on the
ranks); the one-process statistics add in another order (one fused reduction over the grid), so
the two agree within the sums' error bound, about 2(n + 1)·ε·Σ|term| for n = W·H terms and ε of
the grid's dtype, not bit for bit. Summation.FAST adds one local sum per rank with
MPI_Allreduce. Bit-identical runs need every process to run the CPU's kernels the same way:
SWITCHYARD_NATIVE=off.

    from switchyard.dist import field
    s = field.statistics(1024, 768, t=0.5, block_rows=64)     # the same dict on every rank
    f = field.frame(1024, 768, t=0.5)                          # a DistArray of this rank's rows
"""

from __future__ import annotations

import math

import numpy as np

import switchyard as sy

from .. import _switchyard
from ..apps.field import _BOUNDS, _params
from ._dist_array import DistArray
from ._dist_array import map as _map
from ._layout import DEFAULT_BLOCK_ROWS, Layout
from ._reductions import Summation
from ._reductions import sum as _sum

__all__ = ["frame", "statistics", "animate"]

_field = _switchyard.apps.field


def _wave(width, height, dtype, bounds, wavenumber, angular_frequency, twist, damping, center):
    return (width, height, list(bounds), dtype,
            _params(wavenumber, angular_frequency, twist, damping, center))


def _layout(height: int, comm, block_rows: int) -> Layout:
    if block_rows < 1:
        raise sy.ValueError(f"field distribute: block_rows must be >= 1, given {block_rows}")
    return Layout.row_blocks(height, comm.Get_size(), block_rows)


def _rows(wave, t: float, comm, block_rows: int) -> DistArray:
    from mpi4py import MPI

    comm = MPI.COMM_WORLD if comm is None else comm
    width, height, bounds, dtype, params = wave
    # No rows: the one-process checks of the grid, the wave and t alone, before the layout's.
    _field.frame_rows(width, height, bounds, dtype, params, t, 0, 0)
    layout = _layout(height, comm, block_rows)
    rank = comm.Get_rank()
    local = _field.frame_rows(width, height, bounds, dtype, params, t, layout.first_row(rank),
                              layout.rows_of(rank))
    return DistArray(local, layout, comm)


def _stats(f: DistArray, mode) -> tuple[float, float, float]:
    total = _sum(f, mode)
    magnitude = _sum(_map(sy.abs, f), mode)
    power = _sum(_map(lambda x: sy.astype(x, sy.float64) * sy.astype(x, sy.float64), f), mode)
    pixels = f.shape[0] * f.shape[1]
    return total / pixels, power / pixels, abs(total) / magnitude if magnitude > 0 else 0.0


def frame(width: int, height: int, t: float = 0.0, *, comm=None,
          block_rows: int = DEFAULT_BLOCK_ROWS, dtype="float32", bounds=_BOUNDS,
          wavenumber: float = 20.0, angular_frequency: float = 6.0, twist: float = 3.0,
          damping: float = 1.5, center=(0.3, -0.2)) -> DistArray:
    """This rank's rows of the field at time t, evaluated: no communication."""
    wave = _wave(width, height, dtype, bounds, wavenumber, angular_frequency, twist, damping,
                 center)
    return _rows(wave, t, comm, block_rows)


def statistics(width: int, height: int, t: float = 0.0, *, comm=None,
               block_rows: int = DEFAULT_BLOCK_ROWS, mode=Summation.REPRODUCIBLE,
               dtype="float32", bounds=_BOUNDS, wavenumber: float = 20.0,
               angular_frequency: float = 6.0, twist: float = 3.0, damping: float = 1.5,
               center=(0.3, -0.2)) -> dict:
    """Collective: {"mean", "energy", "coherence"} of the frame at t, the same on every rank."""
    wave = _wave(width, height, dtype, bounds, wavenumber, angular_frequency, twist, damping,
                 center)
    mean, energy, coherence = _stats(_rows(wave, t, comm, block_rows), mode)
    return {"mean": mean, "energy": energy, "coherence": coherence}


def animate(width: int, height: int, frames: int, dt: float, t0: float = 0.0, *, comm=None,
            block_rows: int = DEFAULT_BLOCK_ROWS, mode=Summation.REPRODUCIBLE, dtype="float32",
            bounds=_BOUNDS, wavenumber: float = 20.0, angular_frequency: float = 6.0,
            twist: float = 3.0, damping: float = 1.5, center=(0.3, -0.2)) -> dict:
    """Collective: the statistics of frames at t0 + i·dt, one frame after another; a dict of
    NumPy arrays "mean", "energy", "coherence" (one value per frame) and "t", as
    switchyard.apps.field.animate's."""
    if frames < 0:
        raise sy.ValueError(f"animate: frames must be >= 0, given {frames}")
    for name, value in (("dt", dt), ("t0", t0)):
        if not math.isfinite(value):
            raise sy.ValueError(f"animate: {name} must be finite, given {value}")
    wave = _wave(width, height, dtype, bounds, wavenumber, angular_frequency, twist, damping,
                 center)
    times = [i * dt + t0 for i in range(frames)]
    table = np.asarray([_stats(_rows(wave, t, comm, block_rows), mode) for t in times],
                       dtype=np.float64).reshape(-1, 3)
    return {"t": t0 + dt * np.arange(frames, dtype=np.float64), "mean": table[:, 0],
            "energy": table[:, 1], "coherence": table[:, 2]}

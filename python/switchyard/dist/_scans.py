"""Inclusive scans along the rows (axis 0) of a distributed array, as in C++ (dist/scans.hpp) and
with the same bits: NumPy's cumsum and cumprod with axis=0, each column of a matrix on its own.
The result has the array's layout and dtype; float32, float64 and int64 arrays.

Summation.REPRODUCIBLE: the rank that holds a block of rows scans it on the host, on its own, row
after row in float64; every block's last row (its column totals) is exchanged, and the offset of a
block is the fold of the totals of the blocks before it, in block order. A row is its block's
offset combined with its row of the block's scan, rounded once to the dtype: bit-identical for any
number of ranks, on every rank, whichever devices computed the array. It differs from NumPy's
strictly sequential scan in the last bits (float64 rows join at block ends, and float32 data is
scanned in float64); both err by at most about i·ε·Σ|x| at row i. A ragged layout is a
LayoutError here, as for the reproducible sums.

Summation.FAST, for any layout: Switchyard's own scan of the local rows, and MPI_Exscan of each
rank's last row.
int64 is exact in any order, so both modes take the fast path for it; a replicated array is
scanned without communication."""

from __future__ import annotations

import math

import numpy as np
from mpi4py import MPI

import switchyard as sy

from ._block_partials import block_stacks, every_block_partial, local_rows
from ._dist_array import DistArray
from ._reductions import Summation

# Per scan: the host step, MPI's, the identity, Switchyard's local scan. -0.0 rather than 0.0:
# -0.0 + x is x for every x, so a first row of -0.0 stays -0.0, as in NumPy.
_SCANS = {
    "sum": (np.add, MPI.SUM, -0.0, sy.cumulative_sum),
    "prod": (np.multiply, MPI.PROD, 1.0, sy.cumulative_prod),
}


def _fast(a: DistArray, scan: str) -> DistArray:
    _, mpi_op, identity, local_scan = _SCANS[scan]
    local = local_scan(a.local, axis=0)
    if a.layout.is_replicated:
        return a.with_local(local)
    row_shape = (1, *a.local.shape[1:])
    last = (np.ascontiguousarray(np.asarray(local[-1:])) if a.local.shape[0] else
            np.full(row_shape, identity, dtype=str(a.dtype)))
    before = np.empty_like(last)
    a.comm.Exscan(last, before, op=mpi_op)
    if a.comm.Get_rank() == 0:  # where MPI leaves the result undefined
        before[...] = identity
    offset = sy.asarray(before)
    return a.with_local(local * offset if scan == "prod" else local + offset)


def _reproducible(function: str, a: DistArray, scan: str) -> DistArray:
    a.layout.require_blocks(function)
    step, _, identity, _ = _SCANS[scan]
    per_row = math.prod(a.local.shape[1:])
    stacks = [step.accumulate(s, axis=1) for s in block_stacks(local_rows(a), a.layout.block_rows)]
    mine = np.concatenate([s[:, -1, :] for s in stacks])
    totals = every_block_partial(a, mine.ravel(), per_row).reshape(a.layout.blocks, per_row)
    # offsets[b]: the fold of the totals of the blocks before block b, in block order
    offsets = step.accumulate(np.concatenate([np.full((1, per_row), identity), totals]), axis=0)
    first = a.layout.first_block(a.comm.Get_rank())
    rows = []
    for s in stacks:
        combined = step(offsets[first:first + s.shape[0], None, :], s)
        rows.append(combined.reshape(s.shape[0] * s.shape[1], per_row))
        first += s.shape[0]
    out = np.concatenate(rows).reshape(a.local.shape).astype(str(a.dtype))
    return a.with_local(sy.asarray(out))


def _scanned(function: str, a: DistArray, scan: str, axis: int, mode: Summation | str):
    if a.dtype not in (sy.float32, sy.float64, sy.int64):
        raise sy.DTypeError(
            f"{function}: takes float32, float64 or int64 arrays, given {a.dtype}; convert the "
            "local rows with astype")
    if not -a.ndim <= axis < a.ndim:
        raise sy.AxisError(f"{function}: axis {axis} is out of bounds for array of dimension "
                           f"{a.ndim}")
    if axis % a.ndim != 0:
        raise sy.ValueError(
            f"{function}: scans along axis 0, the axis the rows are spread over, given axis="
            f"{axis}; along another axis a scan is local work: dist.map(lambda x: "
            f"sy.cumulative_{scan}(x, axis={axis}), a)")
    if Summation(mode) is Summation.FAST or a.dtype == sy.int64:
        return _fast(a, scan)
    return _reproducible(function, a, scan)


def cumsum(a: DistArray, axis: int = 0,
           mode: Summation | str = Summation.REPRODUCIBLE) -> DistArray:
    return _scanned("dist.cumsum", a, "sum", axis, mode)


def cumprod(a: DistArray, axis: int = 0,
            mode: Summation | str = Summation.REPRODUCIBLE) -> DistArray:
    return _scanned("dist.cumprod", a, "prod", axis, mode)

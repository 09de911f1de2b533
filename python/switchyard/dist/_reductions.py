"""Reductions over every element of a distributed array, with the result on every rank, as in
C++ (reductions.hpp) and with the same bits. float32 and float64 arrays; the results are Python
floats (float64; float32 data is summed in float64)."""

from __future__ import annotations

import enum
import math

from mpi4py import MPI

import switchyard as sy

from ._block_partials import every_block_partial, local_block_partials
from ._dist_array import DistArray
from ._fixed_order_sum import fixed_order_sum


class Summation(str, enum.Enum):
    # The rank that holds a block of rows adds its elements on the host in one fixed pairwise
    # order, in float64; all block partials are exchanged and added in that order too. The
    # result is bit-identical for any number of ranks, on every rank, whichever devices computed
    # the array, and equal to C++'s. Its cost beside FAST: one read of the local rows to the host
    # (the work that makes them still runs on the devices) and an allgather of one float64 per
    # block. A ragged layout, whose ranks hold parts of blocks, is a LayoutError: redistribute it
    # to row blocks first.
    REPRODUCIBLE = "reproducible"
    # One Switchyard sum per rank, added by MPI_Allreduce: 8 bytes, but the last bits change
    # with the number of ranks. Any layout.
    FAST = "fast"


def _require_float(function: str, a: DistArray) -> None:
    if a.dtype not in (sy.float32, sy.float64):
        raise sy.DTypeError(
            f"{function}: takes float32 or float64 arrays, given {a.dtype}; convert the local "
            "rows with astype")


def _row_elements(shape: tuple[int, ...]) -> int:
    return math.prod(shape[1:])


def _summed(function: str, a: DistArray, squares: bool, mode: Summation | str) -> float:
    _require_float(function, a)
    mode = Summation(mode)
    if mode is Summation.FAST:
        x = a.local.astype(sy.float64)
        mine = float(sy.sum(x * x if squares else x))
        return mine if a.layout.is_replicated else a.comm.allreduce(mine, op=MPI.SUM)
    a.layout.require_blocks(function)
    return fixed_order_sum(every_block_partial(a, local_block_partials(a, squares), 1))


def sum(a: DistArray, mode: Summation | str = Summation.REPRODUCIBLE) -> float:  # noqa: A001
    return _summed("dist.sum", a, False, mode)


def mean(a: DistArray, mode: Summation | str = Summation.REPRODUCIBLE) -> float:
    """NaN when the array is empty."""
    total = _summed("dist.mean", a, False, mode)
    n = a.layout.rows * _row_elements(a.local.shape)
    return math.nan if n == 0 else total / n


def norm(a: DistArray, mode: Summation | str = Summation.REPRODUCIBLE) -> float:
    """The 2-norm of all elements (Frobenius for a matrix): sqrt of the summed squares."""
    return math.sqrt(_summed("dist.norm", a, True, mode))


def _local_candidate(a: DistArray, largest: bool):
    """(value, global flat index) of this rank's extreme, or None when it holds no element."""
    x = a.local
    if x.size == 0:
        return None
    value = float(sy.max(x) if largest else sy.min(x))
    index = int(sy.argmax(x) if largest else sy.argmin(x))
    first_row = a.layout.first_row(a.comm.Get_rank())
    return value, first_row * _row_elements(x.shape) + index


def _replaces(next_, best, largest: bool) -> bool:
    """Ranks hold rows in order, so keeping the earlier candidate on a tie keeps the first
    occurrence; a NaN beats every number, the first NaN every later one."""
    if next_ is None:
        return False
    if best is None:
        return True
    if math.isnan(best[0]):
        return False
    if math.isnan(next_[0]):
        return True
    return next_[0] > best[0] if largest else next_[0] < best[0]


def _global_extreme(function: str, a: DistArray, largest: bool):
    _require_float(function, a)
    best = _local_candidate(a, largest)
    if not a.layout.is_replicated:
        candidates, best = a.comm.allgather(best), None
        for c in candidates:
            if _replaces(c, best, largest):
                best = c
    if best is None:
        raise sy.ValueError(f"{function}: the array is empty, and {function} of no elements "
                            "has no value")
    return best


# Exact whatever the order of combining, so bit-identical at any number of ranks without a mode.
# NaN propagates; argmin/argmax give the first occurrence's flat (row-major) global index, a
# NaN's first when there is one, as NumPy. ValueError when the array is empty.
def min(a: DistArray) -> float:  # noqa: A001
    return _global_extreme("dist.min", a, False)[0]


def max(a: DistArray) -> float:  # noqa: A001
    return _global_extreme("dist.max", a, True)[0]


def argmin(a: DistArray) -> int:
    return _global_extreme("dist.argmin", a, False)[1]


def argmax(a: DistArray) -> int:
    return _global_extreme("dist.argmax", a, True)[1]

"""What each rank contributes to a reproducible sum or scan over a distributed array, as in C++
(src/dist/block_partials.hpp): one float64 per block of rows, or one row per block."""

from __future__ import annotations

import math

import numpy as np

from ._dist_array import DistArray
from ._fixed_order_sum import fixed_order_sums


def local_rows(a: DistArray) -> np.ndarray:
    """This rank's rows on the host in float64, one row of row_elements values each."""
    return np.asarray(a.local).astype(np.float64).reshape(a.local.shape[0],
                                                          math.prod(a.local.shape[1:]))


def block_stacks(rows: np.ndarray, block_rows: int) -> list[np.ndarray]:
    """Rows (n, per_row) as stacks of blocks (blocks, rows per block, per_row): the whole blocks,
    then the short last one when there is one."""
    n, per_row = rows.shape
    full = n // block_rows
    stacks = [rows[:full * block_rows].reshape(full, block_rows, per_row)]
    if n % block_rows:
        stacks.append(rows[full * block_rows:].reshape(1, n % block_rows, per_row))
    return stacks


def local_block_partials(a: DistArray, squares: bool) -> np.ndarray:
    """The fold of each block this rank holds, in block order, from one read of its rows."""
    x = local_rows(a)
    if squares:
        x = x * x
    return np.concatenate([fixed_order_sums(s.reshape(s.shape[0], s.shape[1] * s.shape[2]))
                           for s in block_stacks(x, a.layout.block_rows)])


def every_block_partial(a: DistArray, mine: np.ndarray, per_block: int) -> np.ndarray:
    """Every block's partials in block order (per_block values each), from this rank's: an
    allgather, unless the array is replicated and this rank holds every block already."""
    if a.layout.is_replicated:
        return mine
    counts = [a.layout.blocks_of(r) * per_block for r in range(a.layout.ranks)]
    every = np.empty(a.layout.blocks * per_block)
    a.comm.Allgatherv(np.ascontiguousarray(mine), [every, counts])
    return every

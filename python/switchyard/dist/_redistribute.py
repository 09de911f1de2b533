"""Changing how rows are spread over the ranks, as in C++ (redistribute.hpp). Always explicit: no
other function moves rows. Rows travel as host arrays (mpi4py's buffers), only those that
change rank."""

from __future__ import annotations

import numpy as np

import switchyard as sy

from ._dist_array import DistArray, LayoutError
from ._layout import Layout


def _require_same_rows(a: DistArray, to: Layout) -> None:
    if to.rows != a.layout.rows or to.ranks != a.layout.ranks:
        raise LayoutError(
            f"redistribute: the new layout must have the array's {a.layout.rows} rows over "
            f"{a.layout.ranks} ranks, given {to.rows} rows over {to.ranks}")


def _shared_rows(first_a: int, rows_a: int, first_b: int, rows_b: int) -> int:
    return max(0, min(first_a + rows_a, first_b + rows_b) - max(first_a, first_b))


def _host_rows(a: DistArray) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(a.local))


def _allgather_rows(a: DistArray) -> sy.Array:
    per_row = int(np.prod(a.shape[1:]))
    counts = [a.layout.rows_of(r) * per_row for r in range(a.layout.ranks)]
    mine = _host_rows(a)
    every = np.empty(a.shape, dtype=mine.dtype)
    a.comm.Allgatherv(mine, [every, counts])
    return sy.asarray(every)


def _exchange_rows(a: DistArray, to: Layout) -> sy.Array:
    """Both layouts are runs of rows in rank order, so the rows this rank sends to ranks 0, 1,
    ... follow one another in its local array, and so do the rows it receives."""
    frm, me = a.layout, a.comm.Get_rank()
    per_row = int(np.prod(a.shape[1:]))
    send = [per_row * _shared_rows(frm.first_row(me), frm.rows_of(me), to.first_row(r),
                                   to.rows_of(r)) for r in range(frm.ranks)]
    receive = [per_row * _shared_rows(frm.first_row(r), frm.rows_of(r), to.first_row(me),
                                      to.rows_of(me)) for r in range(frm.ranks)]
    mine = _host_rows(a)
    arrived = np.empty((to.rows_of(me), *a.shape[1:]), dtype=mine.dtype)
    a.comm.Alltoallv([mine, send], [arrived, receive])
    return sy.asarray(arrived)


def redistribute(a: DistArray, to: Layout) -> DistArray:
    """The same global array in layout `to`, which must have a's rows and ranks (LayoutError
    otherwise). Row blocks to replicated is one allgather; row blocks to other row blocks (a
    rebalance, or another block size) one all-to-all that moves only the rows that change rank;
    replicated to row blocks takes each rank's rows locally, without communication."""
    _require_same_rows(a, to)
    if to.is_replicated:
        rows = a.local if a.layout.is_replicated else _allgather_rows(a)
        return DistArray(rows, to, a.comm)
    if a.layout.is_replicated:
        return DistArray.distribute(a.local, to, a.comm)
    return DistArray(_exchange_rows(a, to), to, a.comm)


def gather(a: DistArray) -> sy.Array:
    """The whole array on every rank (an allgather unless a is replicated already)."""
    frm = a.layout
    return redistribute(a, Layout.replicated(frm.rows, frm.ranks, frm.block_rows)).local

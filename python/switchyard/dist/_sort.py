"""Sorting a distributed vector, and its k largest elements, across the ranks, as in C++
(dist/sort.hpp) and with the same results. The local sorts and top-ks are Switchyard's, on each
rank's devices; samples, splitters and the merge of what arrives are host work in NumPy, and
elements travel as host arrays (mpi4py's buffers)."""

from __future__ import annotations

import numpy as np

import switchyard as sy

from ._dist_array import DistArray
from ._layout import Layout


def _require_vector(function: str, a: DistArray) -> None:
    if a.ndim != 1:
        raise sy.ShapeError(f"{function}: takes 1-D arrays, given shape {a.shape}; reshape the "
                            "local rows to 1-D with map first")
    if a.dtype not in (sy.float32, sy.float64, sy.int64):
        raise sy.DTypeError(f"{function}: takes float32, float64 or int64 arrays, given "
                            f"{a.dtype}; convert the local rows with astype")


def _allgathered(comm, values: np.ndarray, counts: list[int]) -> np.ndarray:
    every = np.empty(sum(counts), dtype=values.dtype)
    comm.Allgatherv(np.ascontiguousarray(values), [every, counts])
    return every


def _sorted_local(a: DistArray) -> tuple[np.ndarray, np.ndarray]:
    """This rank's elements in the sort's order (NaN last, stable), with their global
    positions: Switchyard's stable argsort, on the rank's devices."""
    order = sy.argsort(a.local)
    values = np.asarray(sy.take(a.local, order))
    first = a.layout.first_row(a.comm.Get_rank())
    return values, np.asarray(order).astype(np.int64) + first


def _splitters(comm, values: np.ndarray, positions: np.ndarray):
    """The ranks - 1 splitters (value, position), the same on every rank: `ranks` regular
    samples of each rank's sorted elements (all of them when it holds fewer), allgathered,
    ordered by value then position, and read at regular steps."""
    ranks, n = comm.Get_size(), values.size
    count = min(ranks, n)
    at = np.array([i * n // count for i in range(count)], dtype=np.int64)
    counts = comm.allgather(count)
    sample_values = _allgathered(comm, values[at], counts)
    sample_positions = _allgathered(comm, positions[at], counts)
    order = np.lexsort((sample_positions, sample_values))
    total = order.size
    if total == 0:
        return []
    return [(sample_values[order[r * total // ranks]], sample_positions[order[r * total // ranks]])
            for r in range(1, ranks)]


def _send_counts(values: np.ndarray, positions: np.ndarray, splitters, ranks: int) -> np.ndarray:
    """How many of this rank's sorted elements go to each rank: rank r takes those from
    splitter r - 1 (inclusive) to splitter r (exclusive), in (value, position) order."""
    if not splitters:
        return np.array([values.size] + [0] * (ranks - 1), dtype=np.int64)
    bounds = [0]
    for value, position in splitters:
        low = np.searchsorted(values, value, side="left")
        high = np.searchsorted(values, value, side="right")
        bounds.append(int(low + np.searchsorted(positions[low:high], position, side="left")))
    bounds.append(values.size)
    return np.diff(np.array(bounds, dtype=np.int64))


def sort(a: DistArray) -> DistArray:
    """The elements of a 1-D float32, float64 or int64 array in ascending order, NaN last and
    -0.0 equal to 0.0: np.sort(kind="stable") of the gathered array, equal elements in their
    global order. A sample sort splitting by (value, position), so that runs of equal values
    spread over the ranks; the result is ragged (Layout.ragged with a's block_rows), rank r
    holding the r-th run of the sorted order. A replicated array is sorted on every rank and
    stays replicated. ShapeError unless 1-D, DTypeError for other dtypes, on every rank before
    any communication."""
    _require_vector("dist.sort", a)
    if a.layout.is_replicated:
        return a.with_local(sy.take(a.local, sy.argsort(a.local)))
    comm, ranks = a.comm, a.comm.Get_size()
    values, positions = _sorted_local(a)
    send = _send_counts(values, positions, _splitters(comm, values, positions), ranks)
    receive = np.empty(ranks, dtype=np.int64)
    comm.Alltoall(send, receive)
    arrived = np.empty(int(receive.sum()), dtype=values.dtype)
    comm.Alltoallv([np.ascontiguousarray(values), send.tolist()], [arrived, receive.tolist()])
    # The runs arrive in rank order, each after the previous among equal values: a stable sort
    # by value alone keeps the (value, position) order.
    mine = np.sort(arrived, kind="stable")
    counts = comm.allgather(mine.size)
    return DistArray(sy.asarray(mine), Layout.ragged(counts, a.layout.block_rows), comm)


def top_k(a: DistArray, k: int) -> tuple[sy.Array, sy.Array]:
    """(values, positions): the k largest elements of a 1-D float32, float64 or int64 array,
    largest first, with their global positions, the same on every rank: sy.top_k of the
    gathered array, with its ties (equal values at decreasing positions) and NaN counted as the
    largest. Each rank's top min(k, rows) are allgathered and every rank keeps the best k.
    ValueError for k outside [0, rows], ShapeError and DTypeError as for sort, on every rank."""
    _require_vector("dist.top_k", a)
    rows = a.layout.rows
    if not 0 <= k <= rows:
        raise sy.ValueError(f"dist.top_k: k must be in [0, {rows}] (the array's length), "
                            f"given {k}")
    if a.layout.is_replicated:
        return sy.top_k(a.local, k)
    comm, layout, me = a.comm, a.layout, a.comm.Get_rank()
    values, indices = sy.top_k(a.local, min(k, layout.rows_of(me)))
    counts = [min(k, layout.rows_of(r)) for r in range(layout.ranks)]
    every_value = _allgathered(comm, np.asarray(values), counts)
    every_position = _allgathered(
        comm, np.asarray(indices).astype(np.int64) + layout.first_row(me), counts)
    # The stable ascending order (value, then position; NaN last) read backwards.
    best = np.lexsort((every_position, every_value))[::-1][:k]
    return sy.asarray(every_value[best]), sy.asarray(every_position[best])

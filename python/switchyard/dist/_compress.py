"""Keeping the rows of a distributed array that a mask selects, as in C++ (dist/compress.hpp)."""

from __future__ import annotations

import numpy as np

import switchyard as sy

from ._dist_array import DistArray, require_same_layout
from ._layout import Layout


def compress(a: DistArray, keep: DistArray) -> DistArray:
    """The rows of `a` whose entry in `keep` is true, in order (NumPy's a[keep] for a bool
    vector): keep holds one bool per row, in a's layout. Each rank keeps its own rows, a local
    compaction on its devices, and the ranks' kept row counts are allgathered (one int64 each)
    for the result's ragged layout, with a's block_rows; a replicated array stays replicated,
    without communication. Redistribute the result to row blocks to balance it, or for the
    reproducible reductions and scans. DTypeError when keep is not bool, ShapeError when it is
    not one entry per row, LayoutError when the layouts or communicators differ."""
    require_same_layout("dist.compress", a, keep)
    if keep.dtype != sy.bool:
        raise sy.DTypeError(f"dist.compress: keep must be bool, given {keep.dtype}; a comparison "
                            "makes one (x > 0)")
    if keep.ndim != 1:
        raise sy.ShapeError(f"dist.compress: keep must hold one bool per row, shape "
                            f"({a.layout.rows},), given {keep.shape}")
    kept = sy.take(a.local, sy.flatnonzero(keep.local), axis=0)
    frm, mine = a.layout, kept.shape[0]
    if frm.is_replicated:
        return DistArray(kept, Layout.replicated(mine, frm.ranks, frm.block_rows), a.comm)
    counts = np.empty(frm.ranks, dtype=np.int64)
    a.comm.Allgather(np.array([mine], dtype=np.int64), counts)
    return DistArray(kept, Layout.ragged(counts.tolist(), frm.block_rows), a.comm)

"""Matrix products of distributed arrays, as in C++ (dist/linalg.hpp)."""

from __future__ import annotations

import switchyard as sy

from ._dist_array import DistArray, LayoutError


def matmul(a: DistArray, b: DistArray) -> DistArray:
    """a (M, K) in any layout times b (K, N) or (K,) replicated: each rank multiplies its own
    rows of a, so no communication; the result (M, N) or (M,) has a's layout. LayoutError when b
    is not replicated or the communicators differ, ShapeError when the inner extents differ."""
    if a.comm != b.comm:
        raise LayoutError("dist.matmul: the arrays are on different communicators")
    if not b.layout.is_replicated:
        raise LayoutError("dist.matmul: b must be replicated on every rank, given one in row "
                          "blocks; redistribute it to Layout.replicated first")
    if a.ndim != 2 or b.ndim not in (1, 2) or a.shape[1] != b.shape[0]:
        raise sy.ShapeError(f"dist.matmul: expected a (M, K) and b (K, N) or (K,), given a "
                            f"{a.shape} and b {b.shape}")
    return a.with_local(sy.matmul(a.local, b.local))

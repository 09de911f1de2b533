"""The field and the events query over Dask arrays of Switchyard chunks, so they scale past one
process or machine with a Dask cluster: every chunk is computed by Switchyard's fused kernels
where Dask places it, and Dask combines the chunks' results.

    from switchyard.apps import dask_workloads as dw
    f = dw.field_frame(4096, 4096, t=0.5, row_chunk=512)     # a lazy (H, W) Dask array
    s = dw.field_statistics(4096, 4096, t=0.5, row_chunk=512)  # mean, energy, coherence
    values, weights = dw.synthetic_events(10_000_000, chunk=1_000_000, seed=1)
    r = dw.query(values, weights, threshold=0.5, top_k=10)

Importing it imports dask (and switchyard.dask); `import switchyard.apps` does not.
"""

from __future__ import annotations

import dask
import dask.array as _da
import numpy as _np

from .. import Array, asarray, concat, full, take, where
from .. import top_k as _largest
from .. import dask as _syd
from . import field as _field
from . import query as _query

__all__ = ["field_frame", "field_statistics", "synthetic_events", "query"]

_BOUNDS = (-1.0, 1.0, -1.0, 1.0)


# ---- the field: one chunk is a band of whole rows, computed as a frame of its own bounds


def _rows_bounds(bounds, height, first_row, rows):
    """The bounds of rows [first_row, first_row + rows) of a height-row grid: their pixel
    centres are the whole grid's."""
    x0, x1, y0, y1 = bounds
    row_height = (y1 - y0) / height
    return (x0, x1, y0 + first_row * row_height, y0 + (first_row + rows) * row_height)


def _frame_rows(width, height, t, dtype, bounds, params, block_info=None):
    (first_row, end_row), _ = block_info[None]["array-location"]
    rows = end_row - first_row
    return _field.frame(width, rows, t, dtype=dtype,
                        bounds=_rows_bounds(bounds, height, first_row, rows), **params)


def field_frame(width: int, height: int, t: float = 0.0, *, row_chunk: int = 256,
                dtype="float32", bounds=_BOUNDS, **params) -> _da.Array:
    """field.frame as a Dask array of shape (height, width) in bands of row_chunk rows, each a
    Switchyard array computed where its task runs. params: field.frame's (wavenumber, ...)."""
    return _da.map_blocks(_frame_rows, width, height, t, dtype, tuple(bounds), params,
                          chunks=(_da.core.normalize_chunks(row_chunk, (height,))[0], (width,)),
                          dtype=_np.dtype(dtype), meta=_syd.meta(dtype, 2))


def field_statistics(width: int, height: int, t: float = 0.0, *, row_chunk: int = 256,
                     dtype="float32", bounds=_BOUNDS, **params) -> dict:
    """field.statistics over the bands of field_frame: each band's Σf, Σf² and Σ|f| in one
    Switchyard kernel each, added in float64 by Dask."""
    f = field_frame(width, height, t, row_chunk=row_chunk, dtype=dtype, bounds=bounds, **params)
    total, squares, magnitudes = dask.compute(f.sum(dtype="float64"),
                                              (f * f).sum(dtype="float64"),
                                              abs(f).sum(dtype="float64"))
    n = width * height
    total, squares, magnitudes = float(total), float(squares), float(magnitudes)
    return {"mean": total / n, "energy": squares / n,
            "coherence": abs(total) / magnitudes if magnitudes else 0.0}


# ---- the events query: keep, map, total, running total, top-k


def synthetic_events(n: int, *, chunk: int, seed: int = 0, dtype="float32"):
    """(values, weights) as Dask arrays of Switchyard chunks of `chunk` events, from
    query.synthetic_events(n, seed) (made in this process, then split)."""
    values, weights = (_syd.to_switchyard(_da.from_array(_np.asarray(a), chunks=chunk))
                       for a in _query.synthetic_events(n, seed, dtype))
    return values, weights


def _chunk_top_k(revenue, keep, k, block_info=None):
    """This chunk's k largest kept revenues and their events (global indices), as a (2, k) float64
    chunk; -inf pads a chunk with fewer kept events."""
    first, _ = block_info[0]["array-location"][0]
    candidates = where(keep, revenue.astype("float64"), -_np.inf)
    size = min(k, candidates.shape[0])
    best, local = _largest(candidates, size)
    events = (local + first).astype("float64")
    pad = full((k - size,), -_np.inf, dtype="float64")
    return concat([concat([best, pad])[None, :], concat([events, pad])[None, :]], axis=0)


def _candidates(revenue, keep, k):
    """Each chunk's k largest kept revenues and their events (a Switchyard top_k per chunk), as
    a (2, k · chunks) Dask array; _best_of picks the k best of those."""
    return _da.map_blocks(_chunk_top_k, revenue, keep, k, dtype=_np.float64,
                          chunks=((2,), (k,) * len(revenue.chunks[0])), new_axis=0,
                          meta=_syd.meta("float64", 2))


def query(values: _da.Array, weights: _da.Array, *, threshold: float = 0.0, scale: float = 1.0,
          top_k: int = 10) -> dict:
    """query.run over Dask arrays of events (1-D, the same chunks). Returns {"count", "total",
    "running_total" (a Dask array of Switchyard chunks, lazy), "top_revenue", "top_events"
    (NumPy, largest first)}. total and running_total are added in float64."""
    if values.shape != weights.shape or values.chunks != weights.chunks:
        raise ValueError(f"weights: expected the shape and chunks of values {values.chunks}, "
                         f"given {weights.chunks}")
    keep = values > threshold
    revenue = values * weights * _np.dtype(values.dtype).type(scale)  # in the events' dtype
    kept = revenue[keep]
    count, total, candidates = dask.compute(keep.sum(), kept.sum(dtype="float64"),
                                            _candidates(revenue, keep, top_k))
    kept.compute_chunk_sizes()
    running = _da.cumsum(kept.astype(_np.float64))
    best, events = _best_of(asarray(candidates), top_k)
    return {"count": int(count), "total": float(total), "running_total": running,
            "top_revenue": best.astype(values.dtype), "top_events": events}


def _best_of(candidates: Array, k: int):
    values, events = candidates[0], candidates[1]
    finite = int(_np.count_nonzero(_np.isfinite(_np.asarray(values))))
    best, at = _largest(values, min(k, finite))
    return _np.asarray(best), _np.asarray(take(events, at)).astype(_np.int64)

"""switchyard.dask: Switchyard arrays as the chunks of Dask arrays, so work spreads over the
processes and machines of a Dask cluster while each chunk is computed by Switchyard's fused
kernels on the devices its worker has.

    import dask.array as da
    import switchyard.dask as syd
    x = syd.to_switchyard(da.random.random((1_000_000, 8), chunks=(100_000, 8)))
    total = (x * 2 + 1).sum().compute()   # per chunk: one fused Switchyard kernel

Importing this module registers the Switchyard array with Dask as a chunk type (`dask.array`
keeps it, and gives way to it in mixed operations), and the Switchyard functions Dask looks up
by chunk type (concatenate, take, tensordot, empty, divide, to NumPy). Chunks travel
between worker processes pickled (values, dtype and device name). Dask's graph is lazy too:
elementwise work on a chunk stays a recorded Switchyard expression until a reduction or the
result needs its values, so `(x * 2 + 1).sum()` is one kernel per chunk.
"""

from __future__ import annotations

import dask.array as _da
import numpy as _np
from dask.array import backends as _backends
from dask.array import dispatch as _dispatch

from . import Array, asarray, concat, divide, empty, take, tensordot

__all__ = ["meta", "to_switchyard", "to_numpy", "is_switchyard"]


def meta(dtype, ndim: int) -> Array:
    """The empty Switchyard array Dask keeps as a collection's `_meta`: it says what type and
    dtype each chunk has."""
    return empty((0,) * ndim, dtype=_np.dtype(dtype).name)


def to_switchyard(x: _da.Array) -> _da.Array:
    """A Dask array of NumPy chunks (or anything asarray takes) as one of Switchyard chunks,
    chunk for chunk: the conversion runs where each chunk is."""
    return x.map_blocks(asarray, dtype=x.dtype, meta=meta(x.dtype, x.ndim))


def to_numpy(x: _da.Array) -> _da.Array:
    """A Dask array of Switchyard chunks as one of NumPy chunks (each a copy on the host)."""
    return x.map_blocks(_np.array, dtype=x.dtype, meta=_np.empty((0,) * x.ndim, x.dtype))


def is_switchyard(x: _da.Array) -> bool:
    """Whether Dask takes x's chunks to be Switchyard arrays."""
    return isinstance(x._meta, Array)


def _concatenate(arrays, axis=0):
    return concat([asarray(a) for a in arrays], axis=axis)


def _take(a, indices, axis=0):
    # Dask's indices are NumPy's, in the narrowest integer type (uint8, ...); Switchyard indexes
    # with int64.
    return take(a, asarray(_np.asarray(indices, dtype=_np.int64)), axis=axis)


def _empty(shape, dtype=None, **kwargs):
    return empty(shape, dtype=_np.dtype(dtype or "float64").name)


def _divide(a, b, dtype=None):
    quotient = divide(a, b)
    return quotient if dtype is None else quotient.astype(_np.dtype(dtype).name)


_da.register_chunk_type(Array)
_dispatch.concatenate_lookup.register(Array, _concatenate)
_dispatch.take_lookup.register(Array, _take)
_dispatch.tensordot_lookup.register(Array, tensordot)
_dispatch.empty_lookup.register(Array, _empty)
_dispatch.divide_lookup.register(Array, _divide)
_dispatch.nannumel_lookup.register(Array, _backends._nannumel)
_dispatch.to_numpy_dispatch.register(Array, lambda a, **kwargs: _np.array(a))

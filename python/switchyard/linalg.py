"""The array API's linalg extension, where Switchyard has the operations: matmul (each
backend's BLAS), matrix_transpose, vecdot, tensordot, outer, vector_norm, trace, diagonal."""

from __future__ import annotations

from . import _switchyard as _sy
from ._creation import asarray
from ._functions import _axes, sum as _sum, tensordot, vecdot

__all__ = ["matmul", "matrix_transpose", "vecdot", "tensordot", "outer", "vector_norm",
           "trace", "diagonal"]


def matmul(x1, x2, /):
    return _sy.matmul(x1, x2)


def matrix_transpose(x, /):
    return asarray(x).mT


def outer(x1, x2, /):
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: expected two 1-D arrays, given shapes {x1.shape} and {x2.shape}")
    return x1.reshape(-1, 1) * x2.reshape(1, -1)


def _folds_nothing(x, axis):
    """Whether a reduction of x over `axis` (None, an int or a tuple) has no elements to fold."""
    if axis is None:
        return x.size == 0
    return any(x.shape[a] == 0 for a in _axes(axis, x.ndim))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
    a = _sy.abs(asarray(x))
    if ord == 2:
        return _sy.sqrt(_sy.sum(a * a, axis=axis, keepdims=keepdims))
    if ord == 1:
        return _sy.sum(a, axis=axis, keepdims=keepdims)
    if ord == float("inf"):
        if _folds_nothing(a, axis):  # the largest of no magnitudes: 0, as NumPy's norm
            return _sy.sum(a, axis=axis, keepdims=keepdims)
        return _sy.max(a, axis=axis, keepdims=keepdims)
    if ord == -float("inf"):
        return _sy.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sy.sum(a != 0, axis=axis, keepdims=keepdims).astype(a.dtype)
    return _sy.sum(a ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def diagonal(x, /, *, offset=0):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"diagonal: expected an array of at least two dimensions, given shape "
                         f"{x.shape}")
    rows, cols = x.shape[-2], x.shape[-1]
    start_row, start_col = max(-offset, 0), max(offset, 0)
    n = max(min(rows - start_row, cols - start_col), 0)
    flat = x.reshape(x.shape[:-2] + (rows * cols,))
    index = _sy._arange_int(0, n, 1, _sy.DType.int64) * (cols + 1) + (start_row * cols + start_col)
    return _sy.take(flat, index, axis=-1)


def trace(x, /, *, offset=0, dtype=None):
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)

"""Array API functions composed from the C++ operations: the keyword forms of reductions,
sorting with `descending`, set functions, manipulation and `where` with Python scalars."""

from __future__ import annotations

import builtins
import math

from . import _dtypes
from . import _switchyard as _sy
from ._creation import asarray, zeros
from ._switchyard import Array

# ---- elementwise helpers


def _scalar_operand(value, other: Array) -> Array:
    """A Python scalar as a 0-d array of the dtype it promotes to with `other` (weak)."""
    return asarray(value, dtype=_dtypes._promote_with_scalar(other.dtype, value))


def where(condition, x1, x2, /) -> Array:
    if not isinstance(x1, Array) and isinstance(x2, Array):
        x1 = _scalar_operand(x1, x2)
    if not isinstance(x2, Array) and isinstance(x1, Array):
        x2 = _scalar_operand(x2, x1)
    return _sy.where(asarray(condition), asarray(x1), asarray(x2))


def positive(x, /) -> Array:
    return +x


def square(x, /) -> Array:
    return x * x


def astype(x, dtype, /, *, copy=True, device=None) -> Array:
    a = x.astype(dtype, copy=copy)
    return a if device is None else a.to_device(device)


# ---- reductions with the array API's dtype and correction keywords


def _with_dtype(x, dtype):
    return x if dtype is None or _sy._to_dtype(dtype) == x.dtype else x.astype(dtype)


def sum(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:  # noqa: A001
    return _sy.sum(_with_dtype(x, dtype), axis=axis, keepdims=keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    return _sy.prod(_with_dtype(x, dtype), axis=axis, keepdims=keepdims)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    x = _with_dtype(asarray(x), dtype)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("cumulative_sum needs axis= for arrays of more than one dimension")
        axis = 0
    out = _sy.scan(x, "sum", axis=axis)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = _sy.concat([zeros(tuple(shape), dtype=out.dtype), out], axis=axis)
    return out


def cumsum(x, /, axis=None) -> Array:
    return _sy.scan(asarray(x), "sum", axis=axis)


def cumprod(x, /, axis=None) -> Array:
    return _sy.scan(asarray(x), "prod", axis=axis)


def count_nonzero(x, /, *, axis=None, keepdims=False) -> Array:
    return _sy.sum(asarray(x) != 0, axis=axis, keepdims=keepdims)


# ---- sorting and sets


def sort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    out = _sy.sort(asarray(x), axis)
    return flip(out, axis=axis) if descending else out


def argsort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    x = asarray(x)
    if not descending:
        return _sy.argsort(x, axis)
    # Stable descending: sort the reversed array ascending, then read it backwards; equal
    # elements then keep their original order.
    axis = axis % x.ndim
    n = x.shape[axis]
    order = _sy.argsort(flip(x, axis=axis), axis)
    return (n - 1) - flip(order, axis=axis)


def _sorted_runs(x):
    flat = asarray(x).reshape(-1)
    order = _sy.argsort(flat, 0)
    values = _sy.take(flat, order)
    n = values.shape[0]
    if n == 0:
        starts = zeros((0,), dtype=_dtypes.bool)
    else:
        # NaN != NaN, so each NaN starts its own run, as the standard asks.
        starts = _sy.concat([asarray([True]), values[1:] != values[:-1]])
    return flat, order, values, starts


def unique_values(x, /) -> Array:
    _, _, values, starts = _sorted_runs(x)
    return _sy.compress(values, starts)


def unique_counts(x, /):
    _, _, values, starts = _sorted_runs(x)
    first = _sy.flatnonzero(starts)
    ends = _sy.concat([first[1:], asarray([values.shape[0]])])
    return _sy.compress(values, starts), ends - first


def unique_inverse(x, /):
    x = asarray(x)
    _, order, values, starts = _sorted_runs(x)
    group = _sy.scan(starts.astype(_dtypes.int64), "sum") - 1
    inverse = _sy.take(group, _sy.argsort(order, 0))  # argsort of a permutation inverts it
    return _sy.compress(values, starts), inverse.reshape(x.shape)


def unique_all(x, /):
    x = asarray(x)
    _, order, values, starts = _sorted_runs(x)
    first = _sy.flatnonzero(starts)
    ends = _sy.concat([first[1:], asarray([values.shape[0]])])
    group = _sy.scan(starts.astype(_dtypes.int64), "sum") - 1
    inverse = _sy.take(group, _sy.argsort(order, 0))
    return (_sy.compress(values, starts), _sy.take(order, first), inverse.reshape(x.shape),
            ends - first)


# ---- manipulation


def flip(x, /, *, axis=None) -> Array:
    x = asarray(x)
    axes = range(x.ndim) if axis is None else ([axis] if isinstance(axis, int) else axis)
    key = [builtins.slice(None)] * x.ndim
    for a in axes:
        key[a % x.ndim] = builtins.slice(None, None, -1)
    return x[tuple(key)]


def roll(x, /, shift, *, axis=None) -> Array:
    x = asarray(x)
    if axis is None:
        return roll(x.reshape(-1), shift, axis=0).reshape(x.shape)
    shifts = [shift] if isinstance(shift, int) else list(shift)
    axes = [axis] if isinstance(axis, int) else list(axis)
    for s, a in zip(shifts, axes):
        a %= x.ndim
        n = x.shape[a]
        if n == 0:
            continue
        s %= n
        head = [builtins.slice(None)] * x.ndim
        tail = [builtins.slice(None)] * x.ndim
        head[a] = builtins.slice(n - s, None)
        tail[a] = builtins.slice(None, n - s)
        x = _sy.concat([x[tuple(head)], x[tuple(tail)]], axis=a)
    return x


def moveaxis(x, source, destination, /) -> Array:
    x = asarray(x)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [s % x.ndim for s in src]
    dst = [d % x.ndim for d in dst]
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _sy.permute_dims(x, tuple(order))


def broadcast_arrays(*arrays):
    arrays = [asarray(a) for a in arrays]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return [_sy.broadcast_to(a, shape) for a in arrays]


def broadcast_shapes(*shapes):
    ndim = builtins.max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, extent in enumerate(s, start=ndim - len(s)):
            if extent != 1 and out[i] not in (1, extent):
                raise _sy.ShapeError(f"shapes {shapes} do not broadcast together at axis {i}")
            if extent != 1:
                out[i] = extent
    return tuple(out)


def repeat(x, repeats, /, *, axis=None) -> Array:
    x = asarray(x)
    if axis is None:
        x, axis = x.reshape(-1), 0
    n = x.shape[axis]
    if isinstance(repeats, int):
        index = _sy._arange_int(0, n * repeats, 1, _dtypes.int64) // repeats
    else:
        counts = asarray(repeats, dtype=_dtypes.int64)
        ends = _sy.scan(counts, "sum")
        total = int(ends[-1]) if n else 0
        positions = _sy._arange_int(0, total, 1, _dtypes.int64)
        # The group of each output position: how many group ends lie at or before it.
        index = _sy.sum(positions.reshape(-1, 1) >= ends.reshape(1, -1), axis=1)
    return _sy.take(x, index, axis=axis)


def tile(x, repetitions, /) -> Array:
    x = asarray(x)
    reps = tuple(repetitions)
    ndim = builtins.max(x.ndim, len(reps))
    shape = (1,) * (ndim - x.ndim) + x.shape
    reps = (1,) * (ndim - len(reps)) + reps
    expanded = x.reshape(tuple(v for s in shape for v in (1, s)))
    target = tuple(v for r, s in zip(reps, shape) for v in (r, s))
    return _sy.broadcast_to(expanded, target).copy().reshape(
        tuple(r * s for r, s in zip(reps, shape)))


def unstack(x, /, *, axis=0):
    x = asarray(x)
    key = [builtins.slice(None)] * x.ndim
    out = []
    for i in range(x.shape[axis]):
        key[axis] = i
        out.append(x[tuple(key)])
    return tuple(out)


def diff(x, /, *, axis=-1, n=1) -> Array:
    x = asarray(x)
    for _ in range(n):
        a = axis % x.ndim
        hi = [builtins.slice(None)] * x.ndim
        lo = [builtins.slice(None)] * x.ndim
        hi[a], lo[a] = builtins.slice(1, None), builtins.slice(None, -1)
        x = x[tuple(hi)] - x[tuple(lo)]
    return x


# ---- linear algebra in the main namespace


def vecdot(x1, x2, /, *, axis=-1) -> Array:
    return _sy.sum(_sy.conj(asarray(x1)) * asarray(x2), axis=axis)


def tensordot(x1, x2, /, *, axes=2) -> Array:
    x1, x2 = asarray(x1), asarray(x2)
    if isinstance(axes, int):
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = ([axes[0]] if isinstance(axes[0], int) else list(axes[0]),
                  [axes[1]] if isinstance(axes[1], int) else list(axes[1]))
    a1 = [a % x1.ndim for a in a1]
    a2 = [a % x2.ndim for a in a2]
    free1 = [a for a in range(x1.ndim) if a not in a1]
    free2 = [a for a in range(x2.ndim) if a not in a2]
    k = math.prod(x1.shape[a] for a in a1)
    left = _sy.permute_dims(x1, tuple(free1 + a1)).reshape(-1, k)
    right = _sy.permute_dims(x2, tuple(a2 + free2)).reshape(k, -1)
    shape = tuple(x1.shape[a] for a in free1) + tuple(x2.shape[a] for a in free2)
    return _sy.matmul(left, right).reshape(shape)

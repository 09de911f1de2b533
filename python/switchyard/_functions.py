"""Array API functions composed from the C++ operations: the keyword forms of reductions,
sorting with `descending`, set functions, manipulation and `where` with Python scalars."""

from __future__ import annotations

import builtins
import math
import operator
from typing import NamedTuple

from . import _dtypes
from . import _switchyard as _sy
from ._creation import asarray, full, zeros
from ._switchyard import Array

# ---- axis arguments, checked as NumPy checks them


def _axis(axis, ndim: int) -> int:
    """One axis of an array of rank `ndim`, counted from 0: NumPy's AxisError (both a ValueError
    and an IndexError) outside [-ndim, ndim)."""
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _sy.AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _axes(axes, ndim: int) -> list:
    """An int or a sequence of distinct axes, each counted from 0."""
    listed = [axes] if isinstance(axes, int) else list(axes)
    out = [_axis(a, ndim) for a in listed]
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {axes!r}: expected each axis at most once")
    return out


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
    x = asarray(x)
    return x if dtype is None or _sy._to_dtype(dtype) == x.dtype else x.astype(dtype)


def _in_dtype(result, dtype):
    """The result in the dtype asked for. Integer sums and products accumulate in int64; their
    low 32 bits are the int32 accumulation's (wrap-around is modular), so narrowing gives
    NumPy's int32 result."""
    return result if dtype is None or _sy._to_dtype(dtype) == result.dtype else result.astype(dtype)


def sum(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:  # noqa: A001
    return _in_dtype(_sy.sum(_with_dtype(x, dtype), axis=axis, keepdims=keepdims), dtype)


def prod(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    return _in_dtype(_sy.prod(_with_dtype(x, dtype), axis=axis, keepdims=keepdims), dtype)


def _cumulative(op, identity, x, axis, dtype, include_initial):
    x = _with_dtype(x, dtype)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"cumulative_{op} needs axis= for arrays of more than one dimension")
        x, axis = x.reshape(-1), 0  # NumPy folds a 0-d array as one of shape (1,)
    axis = _axis(axis, x.ndim)
    out = _in_dtype(_sy.scan(x, op, axis=axis), dtype)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        initial = full(tuple(shape), identity, dtype=out.dtype)
        out = _sy.concat([initial, out], axis=axis)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    return _cumulative("sum", 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    return _cumulative("prod", 1, x, axis, dtype, include_initial)


def clip(x, /, min=None, max=None) -> Array:  # noqa: A002 - the array API's names
    """The array API's signature (inspectable) over the C++ clip."""
    return _sy.clip(x, min, max)


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
    axis = _axis(axis, x.ndim)
    n = x.shape[axis]
    order = _sy.argsort(flip(x, axis=axis), axis)
    return (n - 1) - flip(order, axis=axis)


def searchsorted(x1, x2, /, *, side="left", sorter=None) -> Array:
    """For each element of x2, where it would go in the sorted 1-D x1 to keep it sorted: before
    equal elements (side="left") or after them ("right"). NaN sorts last, as in NumPy."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', given {side!r}")
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be 1-D, given shape {x1.shape}")
    if sorter is not None:
        x1 = _sy.take(x1, asarray(sorter))
    t = _dtypes.result_type(x1, x2)
    needles = x2.reshape(-1).astype(t)
    n, m = x1.shape[0], needles.shape[0]
    # One stable sort of both: with the needles first, each lands before the elements of x1
    # equal to it (left); with x1 first, after them (right). A needle's position there, less
    # the needles sorted before it, is how many elements of x1 precede it.
    left = side == "left"
    merged = _sy.concat([needles, x1.astype(t)] if left else [x1.astype(t), needles])
    order = _sy.argsort(merged, 0)
    is_needle = order < m if left else order >= n
    positions = _sy.flatnonzero(is_needle)
    counts = positions - _sy._arange_int(0, m, 1, _dtypes.int64)
    needle = _sy.compress(order, is_needle) - (0 if left else n)
    return _sy.take(counts, _sy.argsort(needle, 0)).reshape(x2.shape)


def _sorted_runs(x):
    flat = asarray(x).reshape(-1)
    # Sorting orders bools as the integers 0 and 1; the values stay bools.
    keys = flat.astype(_dtypes.int32) if flat.dtype == _dtypes.bool else flat
    order = _sy.argsort(keys, 0)
    values = _sy.take(flat, order)
    n = values.shape[0]
    if n == 0:
        starts = zeros((0,), dtype=_dtypes.bool)
    else:
        # NaN != NaN, so each NaN starts its own run, as the standard asks.
        starts = _sy.concat([asarray([True]), values[1:] != values[:-1]])
    return flat, order, values, starts


# The standard's result tuples, named as NumPy 2 names them.
class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def unique_values(x, /) -> Array:
    _, _, values, starts = _sorted_runs(x)
    return _sy.compress(values, starts)


def unique_counts(x, /) -> UniqueCountsResult:
    _, _, values, starts = _sorted_runs(x)
    first = _sy.flatnonzero(starts)
    ends = _sy.concat([first[1:], asarray([values.shape[0]])])
    return UniqueCountsResult(_sy.compress(values, starts), ends - first)


def unique_inverse(x, /) -> UniqueInverseResult:
    x = asarray(x)
    _, order, values, starts = _sorted_runs(x)
    group = _sy.scan(starts.astype(_dtypes.int64), "sum") - 1
    inverse = _sy.take(group, _sy.argsort(order, 0))  # argsort of a permutation inverts it
    return UniqueInverseResult(_sy.compress(values, starts), inverse.reshape(x.shape))


def unique_all(x, /) -> UniqueAllResult:
    x = asarray(x)
    _, order, values, starts = _sorted_runs(x)
    first = _sy.flatnonzero(starts)
    ends = _sy.concat([first[1:], asarray([values.shape[0]])])
    group = _sy.scan(starts.astype(_dtypes.int64), "sum") - 1
    inverse = _sy.take(group, _sy.argsort(order, 0))
    return UniqueAllResult(_sy.compress(values, starts), _sy.take(order, first),
                           inverse.reshape(x.shape), ends - first)


# ---- manipulation


def flip(x, /, *, axis=None) -> Array:
    x = asarray(x)
    axes = range(x.ndim) if axis is None else _axes(axis, x.ndim)
    key = [builtins.slice(None)] * x.ndim
    for a in axes:
        key[a] = builtins.slice(None, None, -1)
    return x[tuple(key)]


def roll(x, /, shift, *, axis=None) -> Array:
    x = asarray(x)
    if axis is None:
        return roll(x.reshape(-1), shift, axis=0).reshape(x.shape)
    shifts = [shift] if isinstance(shift, int) else list(shift)
    axes = [_axis(a, x.ndim) for a in ([axis] if isinstance(axis, int) else axis)]
    # NumPy broadcasts shifts against axes: one shift for every axis, or one axis for every
    # shift (whose shifts then add up).
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: {len(shifts)} shifts for {len(axes)} axes: expected as many "
                         "shifts as axes, or one of either")
    for s, a in zip(shifts, axes):
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
    src, dst = _axes(source, x.ndim), _axes(destination, x.ndim)
    if len(src) != len(dst):
        raise ValueError("moveaxis: `source` and `destination` arguments must have the same "
                         f"number of elements, given {len(src)} and {len(dst)}")
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
    axis = _axis(axis, x.ndim)
    n = x.shape[axis]
    counts = repeats if isinstance(repeats, int) else asarray(repeats, dtype=_dtypes.int64)
    if not isinstance(counts, int):
        if counts.ndim > 1:
            raise ValueError(f"repeat: repeats of shape {counts.shape}: expected an int or a "
                             "1-D array")
        if counts.size == 1:  # broadcasts to every element, as NumPy does
            counts = int(counts.reshape(()))
        elif counts.shape != (n,):
            raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                             f"{counts.shape}: repeat needs one count per element along axis "
                             f"{axis}, or one for all")
        elif n and int(_sy.min(counts)) < 0:
            raise ValueError("repeat: negative dimensions are not allowed (a count below 0)")
    if isinstance(counts, int):
        if counts < 0:
            raise ValueError(f"repeat: negative dimensions are not allowed (repeats={counts})")
        index = _sy._arange_int(0, n * counts, 1, _dtypes.int64) // builtins.max(counts, 1)
    else:
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
    axis = _axis(axis, x.ndim)
    key = [builtins.slice(None)] * x.ndim
    out = []
    for i in range(x.shape[axis]):
        key[axis] = i
        out.append(x[tuple(key)])
    return tuple(out)


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None) -> Array:
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    a = _axis(axis, x.ndim)
    if prepend is not None or append is not None:
        # As NumPy: a scalar stands for one slice along the axis; the pieces join in their
        # promoted dtype.
        def edge(value):
            value = asarray(value)
            if value.ndim == 0:
                shape = list(x.shape)
                shape[a] = 1
                value = _sy.broadcast_to(value, tuple(shape))
            return value

        pieces = ([edge(prepend)] if prepend is not None else []) + [x] + (
            [edge(append)] if append is not None else [])
        x = _sy.concat(pieces, axis=a)
    for _ in range(n):
        hi = [builtins.slice(None)] * x.ndim
        lo = [builtins.slice(None)] * x.ndim
        hi[a], lo[a] = builtins.slice(1, None), builtins.slice(None, -1)
        x = x[tuple(hi)] - x[tuple(lo)]
    return x


def reciprocal(x, /) -> Array:
    """1/x in x's dtype. Integers as NumPy's: 1 and -1 are their own reciprocals, 0 gives the
    dtype's minimum (C's division by zero as NumPy leaves it), every other integer 0. Complex
    numbers as NumPy's reciprocal, x ** -1 (whose zeros' signs differ from 1 / x's)."""
    x = asarray(x)
    if _dtypes.isdtype(x.dtype, "complex floating"):
        return x ** -1
    if _dtypes.isdtype(x.dtype, "real floating"):
        return 1 / x
    if x.dtype == _dtypes.bool:
        raise TypeError("reciprocal of a bool array: expected a numeric array")
    lowest = _dtypes.iinfo(x.dtype).min
    return where(x == 1, 1, where(x == -1, -1, where(x == 0, lowest, 0))).astype(x.dtype)


# ---- linear algebra in the main namespace


def vecdot(x1, x2, /, *, axis=-1) -> Array:
    """NumPy's vecdot: `axis` counts in each operand, the contracted extents must be equal (they
    never broadcast), the other axes broadcast; the result keeps the operands' promoted dtype."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("vecdot: expected arrays of at least one dimension, given shapes "
                         f"{x1.shape} and {x2.shape}")
    a1, a2 = _axis(axis, x1.ndim), _axis(axis, x2.ndim)
    if x1.shape[a1] != x2.shape[a2]:
        raise ValueError(f"vecdot: the contracted axes have extents {x1.shape[a1]} and "
                         f"{x2.shape[a2]} (shapes {x1.shape} and {x2.shape}): expected equal "
                         "extents")
    products = _sy.conj(moveaxis(x1, a1, -1)) * moveaxis(x2, a2, -1)
    return _in_dtype(_sy.sum(products, axis=-1), products.dtype)


def tensordot(x1, x2, /, *, axes=2) -> Array:
    x1, x2 = asarray(x1), asarray(x2)
    if isinstance(axes, int):
        if axes < 0 or axes > builtins.min(x1.ndim, x2.ndim):
            raise ValueError(f"tensordot: axes={axes} for arrays of rank {x1.ndim} and "
                             f"{x2.ndim}: expected 0 <= axes <= the lower rank")
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = _axes(axes[0], x1.ndim), _axes(axes[1], x2.ndim)
    if len(a1) != len(a2):
        raise ValueError(f"tensordot: {len(a1)} axes of x1 against {len(a2)} of x2: expected "
                         "as many on each side")
    # The contracted extents must agree pair by pair: never broadcast, never merely in product.
    for p, q in zip(a1, a2):
        if x1.shape[p] != x2.shape[q]:
            raise ValueError(f"shape-mismatch for sum: axis {p} of x1 has extent {x1.shape[p]}, "
                             f"axis {q} of x2 has {x2.shape[q]}")
    free1 = [a for a in range(x1.ndim) if a not in a1]
    free2 = [a for a in range(x2.ndim) if a not in a2]
    k = math.prod(x1.shape[a] for a in a1)
    m, n = math.prod(x1.shape[a] for a in free1), math.prod(x2.shape[a] for a in free2)
    left = _sy.permute_dims(x1, tuple(free1 + a1)).reshape(m, k)
    right = _sy.permute_dims(x2, tuple(a2 + free2)).reshape(k, n)
    shape = tuple(x1.shape[a] for a in free1) + tuple(x2.shape[a] for a in free2)
    return _sy.matmul(left, right).reshape(shape)


def take_along_axis(x, indices, /, *, axis=-1) -> Array:
    """NumPy's take_along_axis: along `axis`, the elements at `indices` (negative ones count
    from the end); the other axes of x and indices broadcast."""
    x, indices = asarray(x), asarray(indices)
    if x.ndim != indices.ndim:
        raise ValueError(f"take_along_axis: x and indices must have the same number of "
                         f"dimensions, given {x.ndim} and {indices.ndim}")
    if not _dtypes.isdtype(indices.dtype, "integral"):
        raise IndexError(f"take_along_axis: indices must be integers, given {indices.dtype}")
    axis = _axis(axis, x.ndim)
    values, positions = moveaxis(x, axis, -1), moveaxis(indices, axis, -1).astype(_dtypes.int64)
    lead = broadcast_shapes(values.shape[:-1], positions.shape[:-1])
    n, k = values.shape[-1], positions.shape[-1]
    values = _sy.broadcast_to(values, (*lead, n))
    positions = _sy.broadcast_to(positions, (*lead, k))
    positions = where(positions < 0, positions + n, positions)
    if positions.size and bool(_sy.any((positions < 0) | (positions >= n))):
        raise IndexError(f"take_along_axis: an index is out of bounds for axis {axis} "
                         f"with size {n}")
    rows = _sy._arange_int(0, math.prod(lead), 1, _dtypes.int64).reshape((*lead, 1)) * n
    taken = _sy.take(values.reshape(-1), (rows + positions).reshape(-1))
    return moveaxis(taken.reshape((*lead, k)), -1, axis)


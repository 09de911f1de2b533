"""Creation functions of the array API, and conversion from NumPy, DLPack producers and Python
data. Memory from outside is copied unless copy=False (or from_dlpack) asks to share it."""

from __future__ import annotations

import builtins
import warnings

import numpy as _np

from . import _dtypes
from ._runtime import Device
from ._switchyard import Array, DLPackError, DTypeError, _import_capsule
from . import _switchyard as _sy

_KDLCUDA = 2
_SUPPORTED = ", ".join(t.name for t in _dtypes._ALL)


def _dtype_or(dtype, default):
    return default if dtype is None else _sy._to_dtype(dtype)


def from_dlpack(x, /, *, device=None, copy=None) -> Array:
    """Imports any DLPack producer (NumPy, PyTorch, CuPy, ...) without copying: the memory is
    shared with its owner, and work that reads it runs when it is written (README). A copy,
    asked for or made on another device, is made where `device` says; with copy=False, an import
    that needs one raises BufferError, as the array API specifies."""
    kind, index = x.__dlpack_device__() if hasattr(x, "__dlpack_device__") else (1, 0)
    cuda = kind == _KDLCUDA
    home = f"cuda:{index}" if cuda else "cpu:0"
    moved = device is not None and Device(str(device)) != Device(home)
    if moved and copy is False:
        raise BufferError(
            f"from_dlpack(copy=False, device={device!r}): the data is on {home}, and moving it "
            f"there is a copy"
        )
    # A CUDA producer orders its pending work before the legacy default stream (1); the import
    # then waits for the device, so Switchyard's own stream reads finished data.
    stream = {"stream": 1} if cuda else {}
    try:
        capsule = x.__dlpack__(max_version=(1, 0), **stream)
    except TypeError:  # a producer older than DLPack 1.0's protocol
        capsule = x.__dlpack__(**stream)
    a = _import_capsule(capsule)
    if cuda:
        _sy.synchronize()
    if moved:
        return a.to_device(device)  # a copy, made there
    return a.copy() if copy else a


def _from_numpy(n: _np.ndarray, dtype, copy, fresh=False) -> Array:
    """NumPy's memory is shared only when asked (copy=False): its owner may write it at any time.
    A `fresh` array, made here and held by no one else, is taken over without a copy."""
    if dtype is not None:
        target = _dtypes._numpy_dtype(_sy._to_dtype(dtype))
        if n.dtype != target:
            if copy is False:
                raise ValueError(f"asarray(copy=False) cannot convert {n.dtype} to {target}")
            n, fresh = n.astype(target), True
    if n.dtype.name not in {t.name for t in _dtypes._ALL}:
        raise DTypeError(
            f"asarray: Switchyard has no {n.dtype} arrays (it has {_SUPPORTED}); "
            f"pass dtype= to convert, e.g. dtype=switchyard.int32"
        )
    if not n.dtype.isnative:
        if copy is False:
            raise ValueError(f"asarray(copy=False) cannot convert byte order of {n.dtype}")
        n, fresh = n.astype(n.dtype.newbyteorder("=")), True
    if copy is False:
        if not n.flags.writeable:
            raise ValueError(
                "asarray(copy=False) of a read-only NumPy array: Switchyard arrays are "
                "writable, so sharing it would need a copy; pass copy=None to copy it"
            )
        return from_dlpack(n)
    if fresh:
        return from_dlpack(n)
    if not n.flags.c_contiguous:  # NumPy's gather into a new array is the copy
        return from_dlpack(_np.ascontiguousarray(n))
    # One memcpy into Switchyard's own pooled (reused, warm) memory.
    return _sy._copy_buffer(n, _sy._to_dtype(n.dtype.name))


def asarray(obj, /, *, dtype=None, device=None, copy=None) -> Array:
    """An Array from an Array, a NumPy array, any DLPack or buffer producer, a Python scalar or
    nested sequences. Memory from outside is copied unless copy=False asks to share it: its
    owner could otherwise change the values of results computed from it (README, "Memory
    shared with NumPy")."""
    if isinstance(obj, Array):
        a = obj
        if dtype is not None and _sy._to_dtype(dtype) != a.dtype:
            if copy is False:
                raise ValueError(f"asarray(copy=False) cannot convert {a.dtype} to {dtype}")
            a = a.astype(_sy._to_dtype(dtype))
        elif copy:
            a = a.copy()
    elif isinstance(obj, (builtins.bool, int, float)):
        a = full((), obj, dtype=_dtype_or(dtype, _dtypes._python_kind(obj)))
    elif isinstance(obj, _np.ndarray):
        a = _from_numpy(obj, dtype, copy)
    elif hasattr(obj, "__dlpack__") and dtype is None:
        a = from_dlpack(obj, copy=copy is not False)
    else:
        if copy is False:
            raise ValueError(f"asarray(copy=False) of {type(obj).__name__} needs a copy")
        n = _np.asarray(obj)  # a new array for sequences, a view for buffer producers
        a = _from_numpy(n, dtype, copy=None, fresh=n.flags.owndata)
    return a if device is None else a.to_device(device)


def full(shape, fill_value, *, dtype=None, device=None) -> Array:
    if dtype is None:
        dtype = _dtypes._python_kind(fill_value) or _dtypes.float64
    if isinstance(fill_value, complex):
        t = _sy._to_dtype(dtype)
        re = _sy.full(shape, fill_value.real, _dtypes.float32 if t == _dtypes.complex64 else _dtypes.float64)
        im = _sy.full(shape, fill_value.imag, re.dtype)
        a = _sy.complex_from(re, im)
    else:
        a = _sy.full(shape, fill_value, dtype)
    return a if device is None else a.to_device(device)


def zeros(shape, *, dtype=None, device=None) -> Array:
    a = _sy.zeros(shape, _dtype_or(dtype, _dtypes.float64))
    return a if device is None else a.to_device(device)


def ones(shape, *, dtype=None, device=None) -> Array:
    a = _sy.ones(shape, _dtype_or(dtype, _dtypes.float64))
    return a if device is None else a.to_device(device)


def empty(shape, *, dtype=None, device=None) -> Array:
    return zeros(shape, dtype=dtype, device=device)


def zeros_like(x, /, *, dtype=None, device=None) -> Array:
    return zeros(x.shape, dtype=_dtype_or(dtype, x.dtype), device=device)


def ones_like(x, /, *, dtype=None, device=None) -> Array:
    return ones(x.shape, dtype=_dtype_or(dtype, x.dtype), device=device)


def empty_like(x, /, *, dtype=None, device=None) -> Array:
    return zeros_like(x, dtype=dtype, device=device)


def full_like(x, /, fill_value, *, dtype=None, device=None) -> Array:
    return full(x.shape, fill_value, dtype=_dtype_or(dtype, x.dtype), device=device)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Array:
    if stop is None:
        start, stop = 0, start
    integers = all(isinstance(v, int) for v in (start, stop, step))
    if dtype is None:
        dtype = _dtypes.int64 if integers else _dtypes.float64
    dtype = _sy._to_dtype(dtype)
    if integers and dtype in (_dtypes.int32, _dtypes.int64):
        if not all(-2**63 <= v < 2**63 for v in (start, stop, step)):
            raise ValueError(f"Maximum allowed size exceeded: arange({start}, {stop}, {step}) "
                             "has bounds beyond int64")
        a = _sy._arange_int(start, stop, step, dtype)
    else:
        a = _sy._arange_float(float(start), float(stop), float(step), dtype)
    return a if device is None else a.to_device(device)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True) -> Array:
    """NumPy's: complex bounds give complex128 by default, each part spaced as a real linspace
    (NumPy's complex steps times a real ramp); a real dtype keeps the real parts and warns."""
    complex_bounds = isinstance(start, complex) or isinstance(stop, complex)
    dtype = _dtype_or(dtype, _dtypes.complex128 if complex_bounds else _dtypes.float64)
    count = num if endpoint else num + 1
    if dtype in (_dtypes.complex64, _dtypes.complex128):
        part = _dtypes.float32 if dtype == _dtypes.complex64 else _dtypes.float64
        start, stop = complex(start), complex(stop)
        a = _sy.complex_from(_sy.linspace(start.real, stop.real, count, part),
                             _sy.linspace(start.imag, stop.imag, count, part))
    else:
        if complex_bounds:
            warnings.warn("linspace: casting complex bounds to a real dtype discards their "
                          "imaginary parts", _np.exceptions.ComplexWarning, stacklevel=2)
            start, stop = complex(start).real, complex(stop).real
        a = _sy.linspace(float(start), float(stop), count, dtype)
    if not endpoint:
        a = a[:num]
    return a if device is None else a.to_device(device)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None) -> Array:
    n_cols = n_rows if n_cols is None else n_cols
    rows = arange(n_rows).reshape(n_rows, 1)
    cols = arange(n_cols).reshape(1, n_cols)
    a = _sy.where(cols - rows == k, ones((), dtype=_dtype_or(dtype, _dtypes.float64)),
                  zeros((), dtype=_dtype_or(dtype, _dtypes.float64)))
    return a.copy() if device is None else a.to_device(device)


def _triangle(x, k, lower):
    rows = arange(x.shape[-2]).reshape(x.shape[-2], 1)
    cols = arange(x.shape[-1]).reshape(1, x.shape[-1])
    keep = (cols - rows <= k) if lower else (cols - rows >= k)
    return _sy.where(keep, x, zeros((), dtype=x.dtype))


def tril(x, /, *, k=0) -> Array:
    return _triangle(x, k, lower=True)


def triu(x, /, *, k=0) -> Array:
    return _triangle(x, k, lower=False)


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', given {indexing!r}")
    n = len(arrays)
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        axis = i
        if indexing == "xy" and n >= 2 and i < 2:
            axis = 1 - i
        view = [1] * n
        view[axis] = a.shape[0]
        out.append(_sy.broadcast_to(a.reshape(tuple(view)), tuple(shape)).copy())
    return out

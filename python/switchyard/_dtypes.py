"""Data types: the dtype objects, promotion and the array API's dtype functions."""

from __future__ import annotations

import numpy as _np

from ._switchyard import DType, _promote_types

bool = DType.bool  # noqa: A001 - the array API's name
int32 = DType.int32
int64 = DType.int64
float32 = DType.float32
float64 = DType.float64
complex64 = DType.complex64
complex128 = DType.complex128

_ALL = (bool, int32, int64, float32, float64, complex64, complex128)
_KINDS = {
    "bool": (bool,),
    "signed integer": (int32, int64),
    "unsigned integer": (),
    "integral": (int32, int64),
    "real floating": (float32, float64),
    "complex floating": (complex64, complex128),
    "numeric": (int32, int64, float32, float64, complex64, complex128),
}

DType.__repr__ = lambda self: f"switchyard.{self.name}"
DType.__str__ = lambda self: self.name
DType.itemsize = property(lambda self: _np.dtype(self.name).itemsize)


def _numpy_dtype(dtype: DType) -> _np.dtype:
    return _np.dtype(dtype.name)


def _python_kind(value) -> DType | None:
    """The dtype a Python scalar is weak in (None for anything else)."""
    if isinstance(value, (type(True),)):
        return bool
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return float64
    if isinstance(value, complex):
        return complex128
    return None


def result_type(*arrays_and_dtypes):
    """NumPy 2's result_type: arrays and dtypes promote, Python scalars are weak."""
    strong = []
    weak = []
    for a in arrays_and_dtypes:
        if isinstance(a, DType):
            strong.append(a)
        elif hasattr(a, "dtype") and isinstance(a.dtype, DType):
            strong.append(a.dtype)
        elif _python_kind(a) is not None:
            weak.append(a)
        else:
            from ._switchyard import _to_dtype

            strong.append(_to_dtype(a))
    if not strong:
        if not weak:
            raise ValueError("result_type needs at least one array, dtype or scalar")
        strong.append(_python_kind(weak.pop(0)))
    out = strong[0]
    for t in strong[1:]:
        out = _promote_types(out, t)
    for s in weak:
        out = _promote_with_scalar(out, s)
    return out


def _promote_with_scalar(t: DType, value) -> DType:
    kind = _python_kind(value)
    if kind is bool or t in (complex64, complex128):
        return t
    if kind is int64:
        return t if t is not bool else int64
    if kind is float64:
        return t if t in (float32, float64) else float64
    return complex64 if t is float32 else complex128


def _dtype_of(dtype_or_array) -> DType:
    """A dtype, or an array's (a DType has a NumPy `dtype` too: see _numpy_protocols)."""
    if isinstance(dtype_or_array, DType) or not hasattr(dtype_or_array, "dtype"):
        return dtype_or_array
    return dtype_or_array.dtype


def can_cast(from_, to: DType, /) -> bool:
    source = _dtype_of(from_)
    return _np.can_cast(_numpy_dtype(source), _numpy_dtype(to), casting="safe")


def isdtype(dtype: DType, kind) -> bool:
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, DType):
        return dtype == kind
    if kind not in _KINDS:
        raise ValueError(f"isdtype: unknown kind {kind!r}, expected one of {sorted(_KINDS)}")
    return dtype in _KINDS[kind]


class finfo:  # noqa: N801 - the array API's name
    """Machine limits of a floating dtype (as numpy.finfo)."""

    def __init__(self, dtype):
        t = _dtype_of(dtype)
        info = _np.finfo(_numpy_dtype(t))
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.dtype = float32 if t in (float32, complex64) else float64


class iinfo:  # noqa: N801
    """Limits of an integer dtype (as numpy.iinfo)."""

    def __init__(self, dtype):
        t = _dtype_of(dtype)
        info = _np.iinfo(_numpy_dtype(t))
        self.bits = info.bits
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = t

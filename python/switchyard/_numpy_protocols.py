"""NumPy's protocols on Switchyard arrays, so that code written against NumPy (Dask's chunk
functions, `np.sum(x)`, `np.sin(x)`) runs Switchyard's kernels on them:

- `__array_function__` and `__array_ufunc__` send a NumPy function or ufunc to Switchyard's
  function of the same name, and anything Switchyard lacks (or an argument its function does not
  take) to NumPy on a host copy, the result coming back as a Switchyard array;
- `__reduce__` pickles an array as its values, dtype and device name, so arrays travel between
  processes (a worker without that device rebuilds it on the default one);
- NumPy's unsigned integer index arrays index as int64;
- a Switchyard dtype reads as NumPy's (`np.dtype(sy.float32)`, `sy.float32 == np.float32`),
  which libraries that hold an array's `dtype` as NumPy's rely on.
"""

from __future__ import annotations

import numpy as _np

from ._switchyard import Array, DType, DTypeError

# NumPy's names for ufuncs whose Switchyard name differs.
_UFUNC_NAMES = {"absolute": "abs", "conjugate": "conj", "true_divide": "divide"}
# ufunc.reduce as the reduction Switchyard has.
_UFUNC_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
                     "logical_and": "all", "logical_or": "any"}


def _namespace():
    import switchyard

    return switchyard


def _map_arrays(function, value):
    if isinstance(value, (list, tuple)):
        return type(value)(_map_arrays(function, v) for v in value)
    if isinstance(value, dict):
        return {k: _map_arrays(function, v) for k, v in value.items()}
    return function(value)


def _to_host(value):
    return _np.asarray(value) if isinstance(value, Array) else value


def _from_host(value):
    """NumPy results back as Switchyard arrays, where Switchyard has their dtype."""
    if isinstance(value, _np.ndarray) and value.dtype.name in {t.name for t in _dtype_list()}:
        return _namespace().asarray(value)
    return value


def _dtype_list():
    from ._dtypes import _ALL

    return _ALL


def _on_host(function, args, kwargs):
    result = function(*_map_arrays(_to_host, args), **_map_arrays(_to_host, kwargs))
    return _map_arrays(_from_host, result)


def _switchyard_kwargs(kwargs):
    """NumPy's keyword arguments as Switchyard takes them: `out=None` and `dtype=None` dropped, a
    dtype by name; None where `out` is given (Switchyard writes no outputs in place)."""
    kwargs = dict(kwargs)
    if kwargs.pop("out", None) is not None:
        return None
    if "dtype" in kwargs and kwargs["dtype"] is None:
        del kwargs["dtype"]  # NumPy's default; Switchyard's cumsum, max... take no dtype
    if kwargs.get("dtype") is not None:
        kwargs["dtype"] = _np.dtype(kwargs["dtype"]).name
    return kwargs


def _call_switchyard(name, args, kwargs):
    """Switchyard's function `name`, or None when it has none or it does not take these
    arguments (the caller then runs NumPy's)."""
    ours = getattr(_namespace(), name, None)
    kwargs = _switchyard_kwargs(kwargs)
    if ours is None or not callable(ours) or kwargs is None:
        return None
    try:
        return (ours(*args, **kwargs),)
    except TypeError:  # a signature of NumPy's that Switchyard's function does not have
        return None


def _array_function(self, func, types, args, kwargs):
    if not all(issubclass(t, (Array, _np.ndarray)) for t in types):
        return NotImplemented
    result = _call_switchyard(func.__name__, args, kwargs)
    return result[0] if result is not None else _on_host(func, args, kwargs)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    name = None
    if method == "__call__":
        name = _UFUNC_NAMES.get(ufunc.__name__, ufunc.__name__)
    elif method == "reduce":
        name = _UFUNC_REDUCTIONS.get(ufunc.__name__)
    result = None if name is None else _call_switchyard(name, inputs, kwargs)
    if result is not None:
        return result[0]
    return _on_host(getattr(ufunc, method), inputs, kwargs)


def _rebuild(values, device_name):
    """An array unpickled: on the device it was on where this process has it, else the
    default."""
    sy = _namespace()
    a = sy.asarray(values)
    if device_name in {d.id for d in sy.devices()} and device_name != "cpu:0":
        return a.to_device(device_name)
    return a


def _reduce(self):
    return _rebuild, (_np.asarray(self).copy(), str(self.device))


_index = Array.__getitem__


def _signed(key):
    if isinstance(key, _np.ndarray) and key.dtype.kind == "u":
        return key.astype(_np.int64)
    return tuple(_signed(k) for k in key) if isinstance(key, tuple) else key


def _getitem(self, key):
    """Indexing that also takes NumPy's unsigned index arrays (Dask makes uint8 ones), as
    int64; the retry costs only the calls that need it."""
    try:
        return _index(self, key)
    except DTypeError:
        return _index(self, _signed(key))


def _dtype_equal(self, other):
    if isinstance(other, DType):
        return self is other
    try:
        return _np.dtype(self.name) == other
    except TypeError:
        return NotImplemented


def _dtype_not_equal(self, other):
    equal = _dtype_equal(self, other)
    return equal if equal is NotImplemented else not equal


def install():
    Array.__getitem__ = _getitem
    Array.__array_function__ = _array_function
    Array.__array_ufunc__ = _array_ufunc
    Array.__reduce__ = _reduce
    Array.__array_priority__ = 1.0  # above NumPy's 0: code picking one of the two picks this
    DType.dtype = property(lambda t: _np.dtype(t.name))
    DType.__eq__, DType.__ne__ = _dtype_equal, _dtype_not_equal
    DType.__hash__ = lambda t: hash(_np.dtype(t.name))  # equal to NumPy's, so hashed as it
    for attribute in ("kind", "char", "type"):  # what code holding a dtype as NumPy's reads
        setattr(DType, attribute, property(lambda t, a=attribute: getattr(_np.dtype(t.name), a)))

"""Switchyard: arrays computed on every device a machine has (multicore CPU, OpenCL, CUDA),
each kernel placed where it finishes soonest.

`switchyard` is a Python array API (2024.12) namespace: `x.__array_namespace__()` is this
module. Operations are lazy: a Python expression of arrays becomes one fused kernel when its
value is needed (printing it, converting it to NumPy, x.eval(), a library operation).
NumPy arrays and DLPack tensors pass in and out without copies.
"""

from __future__ import annotations

import builtins as _builtins
import math as _math

import numpy as _np

from . import _switchyard
from ._switchyard import (  # noqa: F401 - the public names
    AllDevicesFailed,
    Array,
    AxisError,
    BackendUnavailable,
    CompileError,
    ConfigError,
    DeviceError,
    DLPackError,
    DType,
    DTypeError,
    Error,
    Explanation,
    IndexError,
    LinAlgError,
    OutOfMemory,
    ParseError,
    PipelineReport,
    Query,
    ShapeError,
    ValueError,
    abs,
    add,
    all,
    any,
    argmax,
    argmin,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    broadcast_to,
    ceil,
    compress,
    concat,
    conj,
    cos,
    divide,
    equal,
    eval,
    evaluate,
    exp,
    expand_dims,
    flatnonzero,
    floor,
    floor_divide,
    greater,
    greater_equal,
    imag,
    isfinite,
    isinf,
    isnan,
    less,
    less_equal,
    log,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    multiply,
    negative,
    nonzero,
    normal,
    not_equal,
    permute_dims,
    query,
    real,
    reset_metrics,
    reshape,
    round,
    scan,
    sign,
    sin,
    sqrt,
    squeeze,
    stack,
    std,
    subtract,
    synchronize,
    take,
    tan,
    tanh,
    top_k,
    trunc,
    uniform,
    var,
)
from . import _dtypes
from ._creation import (  # noqa: F401
    arange,
    asarray,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    linspace,
    meshgrid,
    ones,
    ones_like,
    tril,
    triu,
    zeros,
    zeros_like,
)
from ._dtypes import (  # noqa: F401
    bool,
    can_cast,
    complex64,
    complex128,
    finfo,
    float32,
    float64,
    iinfo,
    int32,
    int64,
    isdtype,
    result_type,
)
from ._functions import (  # noqa: F401
    argsort,
    astype,
    broadcast_arrays,
    broadcast_shapes,
    count_nonzero,
    cumprod,
    cumsum,
    clip,
    cumulative_prod,
    cumulative_sum,
    diff,
    flip,
    moveaxis,
    positive,
    prod,
    reciprocal,
    repeat,
    roll,
    searchsorted,
    sort,
    square,
    sum,
    tensordot,
    take_along_axis,
    tile,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
    unstack,
    vecdot,
    where,
)
from ._runtime import (  # noqa: F401
    Device,
    __version__,
    calibrate,
    device,
    devices,
    explain,
    info,
    metrics,
    strict,
    trace,
)
from ._switchyard import fallback_enabled, flush_trace, start_trace, stop_trace  # noqa: F401
from ._switchyard import Captured, capture  # noqa: F401
from . import _numpy_protocols, fft, linalg  # noqa: F401,E402
from ._info import __array_namespace_info__  # noqa: F401,E402
from .linalg import matrix_transpose  # noqa: F401,E402

__array_api_version__ = "2024.12"

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None

# The array API's names for NumPy's functions.
pow = _switchyard.power  # noqa: A001
power = _switchyard.power
remainder = _switchyard.mod
mod = _switchyard.mod
atan2 = _switchyard.arctan2
arctan2 = _switchyard.arctan2
bitwise_invert = _switchyard.invert
invert = _switchyard.invert
concatenate = _switchyard.concat
from ._switchyard import (  # noqa: E402,F401 - NumPy's names of these
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctanh,
    copysign,
    cosh,
    expm1,
    hypot,
    left_shift,
    log1p,
    log2,
    log10,
    logaddexp,
    nextafter,
    right_shift,
    signbit,
    sinh,
)

asin, acos, atan = arcsin, arccos, arctan
asinh, acosh, atanh = arcsinh, arccosh, arctanh
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift


# ---- Array methods written in Python: the namespace, devices, NumPy interop and printing


def _array_namespace(self, /, *, api_version=None):
    if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
        raise _builtins.ValueError(f"unsupported array API version {api_version!r}")
    import switchyard

    return switchyard


def _device_of(self):
    places = self.locations()
    if not places or "host" in places:
        return Device("cpu:0")
    return Device(places[0])


def _to_device(self, device, /, *, stream=None):
    target = Device(str(device))
    if target == Device("cpu:0"):
        return self
    with target:
        return self.copy().eval()


def _array(self, dtype=None, copy=None):
    n = _np.from_dlpack(self)
    if dtype is not None:
        n = n.astype(dtype, copy=False)
    return n.copy() if copy else n


def _repr(self):
    body = _np.array2string(_np.asarray(self), separator=", ", prefix="Array(")
    return f"Array({body}, dtype={self.dtype.name})"


def _str(self):
    return str(_np.asarray(self))


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _tolist(self):
    return _np.asarray(self).tolist()


def _method(function):
    return lambda self, *args, **kwargs: function(self, *args, **kwargs)


Array.__array_namespace__ = _array_namespace
Array.device = property(_device_of)
Array.to_device = _to_device
Array.__array__ = _array
Array.__repr__ = _repr
Array.__str__ = _str
Array.__iter__ = _iter
Array.tolist = _tolist
_numpy_protocols.install()
for _name in ("sum", "prod", "mean", "min", "max", "any", "all", "var", "std", "argmin",
              "argmax", "cumsum", "cumprod", "argsort", "clip", "round", "conj", "nonzero"):
    setattr(Array, _name, _method(globals()[_name]))
del _name

"""The array API's fft extension: FFTW on the CPU, VkFFT on OpenCL, cuFFT on CUDA; any length.
`norm` is "backward" (NumPy's default), "ortho" or "forward"."""

from __future__ import annotations

import math

from . import _switchyard as _sy
from ._creation import arange, asarray

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift", "convolve"]

_NORMS = ("backward", "ortho", "forward")


def _scaled(y, n, norm, inverse):
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, given {norm!r}")
    if norm == "backward":
        return y
    # The C++ transforms are "backward": forward unscaled, inverse scaled by 1/n.
    factor = math.sqrt(n) if norm == "ortho" else float(n)
    scale = factor if inverse else 1.0 / factor
    if y.dtype in (_sy.DType.complex64, _sy.DType.complex128):
        return _sy.complex_from(_sy.real(y) * scale, _sy.imag(y) * scale)
    return y * scale


def _length(x, n, axis):
    return n if n is not None else x.shape[axis]


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    x = asarray(x)
    return _scaled(_sy._fft.fft(x, n, axis), _length(x, n, axis), norm, False)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    x = asarray(x)
    return _scaled(_sy._fft.ifft(x, n, axis), _length(x, n, axis), norm, True)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    x = asarray(x)
    return _scaled(_sy._fft.rfft(x, n, axis), _length(x, n, axis), norm, False)


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    x = asarray(x)
    out = _sy._fft.irfft(x, n, axis)
    return _scaled(out, out.shape[axis], norm, True)


def fft2(x, /, *, norm="backward"):
    x = asarray(x)
    return _scaled(_sy._fft.fft2(x), x.shape[-1] * x.shape[-2], norm, False)


def ifft2(x, /, *, norm="backward"):
    x = asarray(x)
    return _scaled(_sy._fft.ifft2(x), x.shape[-1] * x.shape[-2], norm, True)


def rfft2(x, /, *, norm="backward"):
    x = asarray(x)
    return _scaled(_sy._fft.rfft2(x), x.shape[-1] * x.shape[-2], norm, False)


def irfft2(x, /, *, s=None, norm="backward"):
    out = _sy._fft.irfft2(asarray(x), s)
    return _scaled(out, out.shape[-1] * out.shape[-2], norm, True)


def convolve(a, b, /):
    """The full linear convolution of two 1-D real arrays, through rfft."""
    return _sy._fft.convolve(asarray(a), asarray(b))


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    k = arange(n, dtype=_sy.DType.int64)
    k = _sy.where(k < (n + 1) // 2, k, k - n)
    return (k / (n * d)).astype(dtype or _sy.DType.float64)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return (arange(n // 2 + 1) / (n * d)).astype(dtype or _sy.DType.float64)


def fftshift(x, /, *, axes=None):
    from ._functions import roll

    x = asarray(x)
    axes = tuple(range(x.ndim)) if axes is None else ((axes,) if isinstance(axes, int) else axes)
    return roll(x, [x.shape[a] // 2 for a in axes], axis=axes)


def ifftshift(x, /, *, axes=None):
    from ._functions import roll

    x = asarray(x)
    axes = tuple(range(x.ndim)) if axes is None else ((axes,) if isinstance(axes, int) else axes)
    return roll(x, [-(x.shape[a] // 2) for a in axes], axis=axes)

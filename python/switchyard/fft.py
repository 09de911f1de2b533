"""The array API's fft extension: FFTW on the CPU, VkFFT on OpenCL, cuFFT on CUDA; any length.
`norm` is "backward" (NumPy's default), "ortho" or "forward"."""

from __future__ import annotations

import math

from . import _switchyard as _sy
from ._creation import arange, asarray

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn",
           "fft2", "ifft2", "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
           "convolve"]

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


# The Hermitian pair, as NumPy defines them: irfft and rfft of the conjugate with the norm's
# direction swapped.
_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _swapped(norm):
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, given {norm!r}")
    return _SWAPPED[norm]


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    return irfft(_sy.conj(asarray(x)), n=n, axis=axis, norm=_swapped(norm))


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _sy.conj(rfft(x, n=n, axis=axis, norm=_swapped(norm)))


def _lengths_and_axes(x, s, axes, real_inverse=False):
    """NumPy's defaults: every axis (the last len(s) when only s is given), each at its length;
    for irfftn the last one at 2·(m - 1)."""
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError(f"s and axes must have the same length, given {len(s)} and {len(axes)}")
    if axes is None:
        axes = list(range(-len(s), 0)) if s is not None else list(range(x.ndim))
    axes = [a if isinstance(a, int) else int(a) for a in axes]
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise _sy.AxisError(f"axis {a} is out of bounds for array of dimension {x.ndim}")
    if s is None:
        s = [x.shape[a] for a in axes]
        if real_inverse and axes:
            s[-1] = 2 * (x.shape[axes[-1]] - 1)
    s = [None if n == -1 else n for n in s]
    return list(s), axes


def _over_axes(transform, x, s, axes, norm):
    """`transform` along each axis, the last first, as NumPy's fftn and ifftn apply it."""
    x = asarray(x)
    s, axes = _lengths_and_axes(x, s, axes)
    for n, axis in reversed(list(zip(s, axes))):
        x = transform(x, n=n, axis=axis, norm=norm)
    return x


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    return _over_axes(fft, x, s, axes, norm)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    return _over_axes(ifft, x, s, axes, norm)


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    x = asarray(x)
    s, axes = _lengths_and_axes(x, s, axes)
    if not axes:
        raise ValueError("rfftn needs at least one axis")
    x = rfft(x, n=s[-1], axis=axes[-1], norm=norm)
    for n, axis in zip(s[:-1], axes[:-1]):
        x = fft(x, n=n, axis=axis, norm=norm)
    return x


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    x = asarray(x)
    s, axes = _lengths_and_axes(x, s, axes, real_inverse=True)
    if not axes:
        raise ValueError("irfftn needs at least one axis")
    for n, axis in zip(s[:-1], axes[:-1]):
        x = ifft(x, n=n, axis=axis, norm=norm)
    return irfft(x, n=s[-1], axis=axes[-1], norm=norm)


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

"""Fractional calculus on sampled signals: Grünwald–Letnikov and Caputo derivatives of order
alpha in (0, 2) of f_k = f(k h), by a direct blocked Toeplitz product or the FFT, the fractional
relaxation equation D^alpha y = -lam y, and the Mittag-Leffler function that solves it."""

from __future__ import annotations

import numpy as _np

from .. import _switchyard as _sy
from .._creation import asarray
from .._dtypes import float64

_fr = _sy.apps.fractional
_SCHEMES = {"gl": _fr.Scheme.gl, "caputo": _fr.Scheme.caputo}
_METHODS = {"direct": _fr.Method.direct, "fft": _fr.Method.fft}

__all__ = ["derivative", "relaxation", "mittag_leffler", "grunwald_letnikov_weights",
           "caputo_weights"]


def _choice(value, table, parameter):
    if value not in table:
        raise ValueError(f"{parameter}: expected one of {sorted(table)}, given {value!r}")
    return table[value]


def derivative(f, alpha, h, scheme="caputo", method="fft"):
    """D^alpha f at every sample of the 1-D signal f (an Array or anything asarray takes).
    scheme: "gl" (Grünwald–Letnikov) or "caputo" (L1; on second differences for alpha > 1);
    method: "direct" (O(n²) on BLAS) or "fft" (O(n log n)). float32 stays float32, other
    dtypes give float64."""
    return _fr.derivative(asarray(f), float(alpha), float(h), _choice(scheme, _SCHEMES, "scheme"),
                          _choice(method, _METHODS, "method"))


def relaxation(alpha, lam, y0=1.0, h=0.01, steps=100):
    """y on t_k = k h, k = 0..steps, solving the Caputo equation D^alpha y = -lam y, y(0) = y0
    (and y'(0) = 0 for alpha > 1); exactly y0 E_alpha(-lam t^alpha)."""
    return _fr.relaxation(float(alpha), float(lam), float(y0), float(h), int(steps))


def mittag_leffler(alpha, z):
    """E_alpha(z) for alpha in (0, 2] and real z: a float for a scalar z, else a NumPy array."""
    if _np.ndim(z) == 0:
        return _fr.mittag_leffler(float(alpha), float(z))
    values = _np.asarray(z, dtype=_np.float64)
    return _np.array([_fr.mittag_leffler(float(alpha), float(v)) for v in values.flat]).reshape(
        values.shape)


def grunwald_letnikov_weights(n, alpha, dtype=float64):
    """w_0 = 1, w_k = w_{k-1} (1 - (alpha + 1) / k): (-1)^k binom(alpha, k)."""
    return _fr.grunwald_letnikov_weights(int(n), float(alpha), _sy._to_dtype(dtype))


def caputo_weights(n, alpha, dtype=float64):
    """b_k = (k+1)^(1-alpha) - k^(1-alpha) (exponent 2 - alpha for alpha > 1)."""
    return _fr.caputo_weights(int(n), float(alpha), _sy._to_dtype(dtype))

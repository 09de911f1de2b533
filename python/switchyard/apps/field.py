"""A damped spiral wave on a W×H grid and its statistics, reduced in one fused pass:

    f(x, y, t) = sin(k·r − ω·t + m·φ) · exp(−damping·r),
    r = hypot(x − cx, y − cy), φ = atan2(y − cy, x − cx),

at the pixel centres of the grid spanning bounds = (x_min, x_max, y_min, y_max). Statistics
per frame: mean = Σf/(W·H), energy = Σf²/(W·H), coherence = |Σf| / Σ|f|.

    f = frame(1024, 768, t=0.5)          # a switchyard Array (H, W); DLPack to torch, NumPy...
    s = animate(1024, 768, frames=100, dt=0.01)   # dict of NumPy arrays: mean, energy, coherence
"""

from __future__ import annotations

import numpy as _np

from .. import Array
from .. import _switchyard

_field = _switchyard.apps.field

__all__ = ["frame", "statistics", "animate"]

_BOUNDS = (-1.0, 1.0, -1.0, 1.0)


def _params(wavenumber, angular_frequency, twist, damping, center):
    return [wavenumber, angular_frequency, twist, damping, center[0], center[1]]


def frame(width: int, height: int, t: float = 0.0, *, dtype="float32", bounds=_BOUNDS,
          wavenumber: float = 20.0, angular_frequency: float = 6.0, twist: float = 3.0,
          damping: float = 1.5, center=(0.3, -0.2)) -> Array:
    """The field at time t, shape (height, width), evaluated on its device."""
    return _field.frame(width, height, list(bounds), dtype,
                        _params(wavenumber, angular_frequency, twist, damping, center), t)


def statistics(width: int, height: int, t: float = 0.0, *, dtype="float32", bounds=_BOUNDS,
               wavenumber: float = 20.0, angular_frequency: float = 6.0, twist: float = 3.0,
               damping: float = 1.5, center=(0.3, -0.2)) -> dict:
    """{"mean", "energy", "coherence"} of the frame at t, with no frame stored."""
    mean, energy, coherence = _field.statistics(
        width, height, list(bounds), dtype,
        _params(wavenumber, angular_frequency, twist, damping, center), t)
    return {"mean": mean, "energy": energy, "coherence": coherence}


def animate(width: int, height: int, frames: int, dt: float, t0: float = 0.0, *,
            dtype="float32", bounds=_BOUNDS, wavenumber: float = 20.0,
            angular_frequency: float = 6.0, twist: float = 3.0, damping: float = 1.5,
            center=(0.3, -0.2)) -> dict:
    """The statistics of frames at t0, t0 + dt, ...: one fused pass over all of them; a dict of
    NumPy arrays "mean", "energy", "coherence" (one value per frame) and "t"."""
    stats = _field.animate(width, height, list(bounds), dtype,
                           _params(wavenumber, angular_frequency, twist, damping, center),
                           frames, dt, t0)
    table = _np.asarray(stats, dtype=_np.float64).reshape(-1, 3)
    return {"t": t0 + dt * _np.arange(frames, dtype=_np.float64), "mean": table[:, 0],
            "energy": table[:, 1], "coherence": table[:, 2]}

"""The array API's inspection namespace: what `switchyard.__array_namespace_info__()` returns."""

from __future__ import annotations

from . import _dtypes
from . import _switchyard as _sy
from ._runtime import Device


def _fp64_devices() -> dict[str, bool]:
    return {d["id"]: d["fp64"] for d in _sy._devices()}


def _device_id(device) -> str:
    ids = list(_fp64_devices())
    device_id = str(device).split("/")[0]
    if device_id not in ids:
        raise _sy.ValueError(f"unknown device {str(device)!r}; expected one of {', '.join(ids)}")
    return device_id


class Info:
    """Capabilities, devices and data types of this namespace on this machine."""

    __slots__ = ()

    def capabilities(self) -> dict:
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": _sy._max_rank,
        }

    def default_device(self) -> Device:
        # Arrays are made on the host, which the CPU device addresses directly.
        return Device("cpu:0")

    def devices(self) -> list[Device]:
        return [Device(d) for d in _fp64_devices()]

    def default_dtypes(self, *, device=None) -> dict:
        if device is not None:
            _device_id(device)
        return {
            "real floating": _dtypes.float64,
            "complex floating": _dtypes.complex128,
            "integral": _dtypes.int64,
            "indexing": _dtypes.int64,
        }

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The dtypes `device` computes (every device when None), of `kind` when given: a kind
        name of `isdtype` or a tuple of them. Work on a device without float64 moves to one with
        it, so every dtype is listed for None."""
        if device is None:
            supported = _dtypes._ALL
        else:
            fp64 = _fp64_devices()[_device_id(device)]
            wide = (_dtypes.float64, _dtypes.complex128)
            supported = tuple(t for t in _dtypes._ALL if fp64 or t not in wide)
        if kind is not None:
            supported = tuple(t for t in supported if _dtypes.isdtype(t, kind))
        return {t.name: t for t in supported}


def __array_namespace_info__() -> Info:
    return Info()

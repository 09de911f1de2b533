"""The runtime from Python: devices (also `with switchyard.device("cuda:0"):`), strict mode,
explain, metrics, tracing, calibration and what this machine has."""

from __future__ import annotations

import contextlib
import json
import sys
import threading

from . import _switchyard as _sy

__version__ = "0.1.0"

_scopes = threading.local()  # each thread's open device scopes, innermost last


class Device:
    """A device work can run on: "cpu:0", "opencl:0", "cuda:0". As a context manager it pins
    the work this thread submits to it, overriding the scheduler; scopes nest. On the CPU,
    "cpu:0/inline" runs on the calling thread only and "cpu:0/parallel" on every core."""

    __slots__ = ("id",)

    def __init__(self, id: str):  # noqa: A002 - the device's id
        self.id = str(id)

    def __repr__(self):
        return f"switchyard.Device({self.id!r})"

    def __str__(self):
        return self.id

    def __eq__(self, other):
        if isinstance(other, str):
            other = Device(other)
        return isinstance(other, Device) and _base(self.id) == _base(other.id)

    def __hash__(self):
        return hash(_base(self.id))

    def __enter__(self):
        scope = _sy._DeviceScope()
        scope.open(self.id)
        if not hasattr(_scopes, "stack"):
            _scopes.stack = []
        _scopes.stack.append(scope)
        return self

    def __exit__(self, *exc):
        _scopes.stack.pop().close()
        return False


def _base(device_id: str) -> str:
    return device_id.split("/")[0]


def device(id: str) -> Device:  # noqa: A002
    """A Device by id; use it as `with switchyard.device("opencl:0"): ...` to pin work."""
    return Device(id)


def devices() -> list[Device]:
    """Devices work may run on, highest priority first."""
    return [Device(d["id"]) for d in _sy._devices()]


@contextlib.contextmanager
def strict():
    """Inside, work does not fall back to another device: the first failure is raised."""
    scope = _sy._StrictScope()
    scope.open()
    try:
        yield
    finally:
        scope.close()


def explain(work, *args, **kwargs):
    """Runs work(*args, **kwargs) and explains every kernel it launched: the candidates with
    their predicted times, the choice and its reason, what happened. Of an Array: computes it
    and explains that if it is pending; if it was computed already, the kernel that last wrote
    it (where it ran, why, its times and the model's prediction)."""
    if isinstance(work, _sy.Array):
        return _sy._explain_array(work)
    return _sy._explain(lambda: work(*args, **kwargs))


def metrics() -> dict:
    """Everything executed since start or reset_metrics(): totals, per kernel, per device, and
    the last 256 executions."""
    return json.loads(_sy._metrics_json())


def info() -> dict:
    """This machine as Switchyard sees it: backends (usable or why not), devices, settings."""
    return {
        "version": __version__,
        "backends": _sy._backends(),
        "devices": _sy._devices(),
        "settings": _sy._settings(),
    }


@contextlib.contextmanager
def trace(path: str):
    """Records every compile, transfer and kernel inside the block to a Perfetto trace file."""
    _sy.start_trace(str(path))
    try:
        yield
    finally:
        _sy.stop_trace()


class _ProgressBar:
    """One line redrawn in a terminal; nothing when stderr is not one."""

    def __init__(self, stream):
        self.stream = stream

    def __call__(self, candidate, step, fraction):
        width = 30
        filled = int(fraction * width)
        line = f"\r[{'#' * filled}{'.' * (width - filled)}] {candidate} {step}"
        self.stream.write(f"{line:<72}")
        self.stream.flush()

    def finish(self):
        self.stream.write("\r" + " " * 72 + "\r")
        self.stream.flush()


def calibrate(quick: bool = False, progress=None) -> dict:
    """Measures every device (and the host inline and parallel), saves the profile and uses it
    from now on. Shows a progress bar on a terminal; `progress(candidate, step, fraction)` is
    called instead when given."""
    bar = None
    if progress is None and sys.stderr.isatty():
        bar = progress = _ProgressBar(sys.stderr)
    try:
        return _sy._calibrate(quick, progress)
    finally:
        if bar is not None:
            bar.finish()

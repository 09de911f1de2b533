"""The libraries compared, loaded once: each peer is optional (a missing one is left out of the
table and says so), and each runs on the CPU, and on CUDA too when it sees a GPU."""

from __future__ import annotations

import importlib
import os
from types import SimpleNamespace


def _optional(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def load():
    import switchyard as sy
    import switchyard.apps  # noqa: F401 - the workloads

    numexpr = _optional("numexpr")
    torch = _optional("torch")
    jax = _optional("jax")
    if jax is not None:
        jax.config.update("jax_enable_x64", True)  # float64 workloads stay float64, as in NumPy
    torch_devices = ["cpu"] + (["cuda"] if torch is not None and torch.cuda.is_available() else [])
    jax_devices = ["cpu"]
    if jax is not None:
        try:
            if jax.devices("gpu"):
                jax_devices.append("gpu")
        except RuntimeError:
            pass
    return SimpleNamespace(
        switchyard=sy, numexpr=numexpr, torch=torch, jax=jax, torch_devices=torch_devices,
        jax_devices=jax_devices,
        switchyard_devices=[d.id for d in sy.devices()],
        threads=os.cpu_count())


def describe(peers):
    import numpy

    lines = [f"numpy {numpy.__version__}"]
    for name in ("numexpr", "torch", "jax"):
        module = getattr(peers, name)
        lines.append(f"{name} {module.__version__}" if module else f"{name}: not installed, left out")
    lines.append(f"switchyard devices: {', '.join(peers.switchyard_devices)}")
    if peers.torch is not None:
        lines.append(f"torch devices: {', '.join(peers.torch_devices)}; "
                     f"threads {peers.torch.get_num_threads()}")
    if peers.jax is not None:
        lines.append(f"jax devices: {', '.join(peers.jax_devices)}")
    return "\n".join(lines)


def switchyard_variants(peers, run):
    """Switchyard's implementation on auto and pinned to each device: {name: fn}."""
    sy = peers.switchyard
    variants = {"switchyard auto": run}
    for device in peers.switchyard_devices:
        def pinned(device=device):
            with sy.device(device):
                return run()
        variants[f"switchyard {device}"] = pinned
    return variants

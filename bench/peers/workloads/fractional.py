"""Grünwald–Letnikov derivative of order α = 0.5 of f(t) = t² sampled on [0, 1]:
D^α f(t_n) ≈ h^-α Σ_{k≤n} w_k f_{n−k}, with w_k = w_{k−1} (1 − (α+1)/k). Direct O(n²) (NumPy's
np.convolve, PyTorch's conv1d, JAX's jnp.convolve) and by FFT convolution (rfft/irfft of
length 2n), float64; the weights are computed inside the timed work in every implementation."""

from types import SimpleNamespace

import numpy as np

from peer_libraries import switchyard_variants

ALPHA = 0.5


def inputs(n):
    t = np.linspace(0, 1, n)
    return {"f": t ** 2, "h": 1 / (n - 1)}


def weights(xp, n):
    k = xp.arange(1, n, dtype=xp.float64)
    factors = xp.concatenate([xp.ones(1, dtype=xp.float64), 1 - (ALPHA + 1) / k])
    return xp.cumprod(factors, 0) if xp.__name__ == "torch" else xp.cumprod(factors)


def numpy_direct(f, h):
    return np.convolve(weights(np, len(f)), f)[: len(f)] * h ** -ALPHA


def numpy_fft(f, h):
    n = len(f)
    w = weights(np, n)
    spectrum = np.fft.rfft(w, 2 * n) * np.fft.rfft(f, 2 * n)
    return np.fft.irfft(spectrum, 2 * n)[:n] * h ** -ALPHA


def torch_direct(torch, f, h):
    n = f.shape[0]
    w = weights(torch, n).to(f.device)
    # conv1d correlates: flip the weights; pad on the left so output n sees f_0..f_n.
    out = torch.nn.functional.conv1d(torch.nn.functional.pad(f, (n - 1, 0)).view(1, 1, -1),
                                     w.flip(0).view(1, 1, -1))
    return (out.view(-1) * h ** -ALPHA).cpu().numpy()


def torch_fft(torch, f, h):
    n = f.shape[0]
    w = weights(torch, n).to(f.device)
    spectrum = torch.fft.rfft(w, 2 * n) * torch.fft.rfft(f, 2 * n)
    return (torch.fft.irfft(spectrum, 2 * n)[:n] * h ** -ALPHA).cpu().numpy()


def jax_functions(jax):
    jnp = jax.numpy

    @jax.jit
    def direct(f, h):
        return jnp.convolve(weights(jnp, f.shape[0]), f)[: f.shape[0]] * h ** -ALPHA

    @jax.jit
    def fft(f, h):
        n = f.shape[0]
        spectrum = jnp.fft.rfft(weights(jnp, n), 2 * n) * jnp.fft.rfft(f, 2 * n)
        return jnp.fft.irfft(spectrum, 2 * n)[:n] * h ** -ALPHA

    return {"direct": direct, "fft": fft}


def implementations_for(method):
    def implementations(x, peers):
        f, h = x["f"], x["h"]
        fns = {"numpy": (lambda: numpy_direct(f, h)) if method == "direct"
               else (lambda: numpy_fft(f, h))}
        sy = peers.switchyard
        sf = sy.asarray(f)
        fns.update(switchyard_variants(peers, lambda: np.asarray(
            sy.apps.fractional.derivative(sf, ALPHA, h, scheme="gl", method=method))))
        if peers.torch is not None:
            torch = peers.torch
            torch_run = torch_direct if method == "direct" else torch_fft
            for device in peers.torch_devices:
                tf = torch.from_numpy(f).to(device)
                fns[f"torch {device}"] = lambda tf=tf: torch_run(torch, tf, h)
        if peers.jax is not None:
            jax_run = jax_functions(peers.jax)[method]
            for device in peers.jax_devices:
                jf = peers.jax.device_put(f, peers.jax.devices(device)[0])
                fns[f"jax {device}"] = lambda jf=jf: np.asarray(jax_run(jf, h))
        return fns

    return implementations


def matches(result, reference, x):
    scale = np.max(np.abs(reference))
    return result.shape == reference.shape and np.max(np.abs(result - reference)) <= 1e-9 * scale


DIRECT = SimpleNamespace(
    name="fractional-direct", what="Grünwald–Letnikov derivative, α = 0.5, direct O(n²), float64",
    size_label="points n", sizes=[1000, 3000, 10000, 30000], quick_sizes=[1000, 10000],
    inputs=inputs, implementations=implementations_for("direct"), matches=matches)
FFT = SimpleNamespace(
    name="fractional-fft", what="Grünwald–Letnikov derivative, α = 0.5, FFT convolution, float64",
    size_label="points n", sizes=[1000, 10000, 100000, 1000000], quick_sizes=[1000, 100000],
    inputs=inputs, implementations=implementations_for("fft"), matches=matches)

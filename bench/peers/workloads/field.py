"""One animation frame of a W×W field and its statistics, float32: per pixel centre (x, y) in
[-1, 1]², the distance r and angle φ to the wave's centre, f = sin(k r − ω t + m φ) · exp(−d r),
reduced to its mean, its energy mean(f²) and its coherence |Σ f| / Σ |f|; only the statistics are
read back."""

from types import SimpleNamespace

import numpy as np

from peer_libraries import switchyard_variants

K, OMEGA, M, DAMPING, T, CX, CY = 20.0, 6.0, 3.0, 1.5, 0.7, 0.3, -0.2


def inputs(n):
    return {"n": n}


def axes(xp, n, dtype):
    """Pixel centres in [-1, 1] along one side."""
    return (xp.arange(n, dtype=dtype) + 0.5) * (2.0 / n) - 1.0


def statistics_of(xp, f):
    total, magnitude = f.sum(), xp.abs(f).sum()
    return xp.stack([f.mean(), (f * f).mean(), xp.abs(total) / magnitude])


def numpy_frame(n, dtype=np.float32, keep=False):
    x = axes(np, n, dtype)
    X, Y = np.meshgrid(x - dtype(CX), x - dtype(CY))
    r, phi = np.hypot(X, Y), np.arctan2(Y, X)
    f = np.sin(dtype(K) * r - dtype(OMEGA * T) + dtype(M) * phi) * np.exp(dtype(-DAMPING) * r)
    return f if keep else statistics_of(np, f)


def numexpr_frame(ne, n):
    x = axes(np, n, np.float32)
    X, Y = np.meshgrid(x - np.float32(CX), x - np.float32(CY))
    f = ne.evaluate("sin(k*sqrt(X**2 + Y**2) - wt + m*arctan2(Y, X)) * exp(-d*sqrt(X**2 + Y**2))",
                    local_dict={"X": X, "Y": Y, "k": np.float32(K), "wt": np.float32(OMEGA * T),
                                "m": np.float32(M), "d": np.float32(DAMPING)})
    total = ne.evaluate("sum(f)")
    return np.array([total / f.size, ne.evaluate("sum(f*f)") / f.size,
                     abs(total) / ne.evaluate("sum(abs(f))")])


def torch_frame(torch, n, device):
    x = axes(torch, n, torch.float32).to(device)
    Y, X = torch.meshgrid(x - CY, x - CX, indexing="ij")
    r, phi = torch.hypot(X, Y), torch.atan2(Y, X)
    f = torch.sin(K * r - OMEGA * T + M * phi) * torch.exp(-DAMPING * r)
    return statistics_of(torch, f).cpu().numpy()


def jax_frame(jax, n):
    jnp = jax.numpy

    @jax.jit
    def frame():
        x = axes(jnp, n, jnp.float32)
        X, Y = jnp.meshgrid(x - CX, x - CY)
        r, phi = jnp.hypot(X, Y), jnp.arctan2(Y, X)
        f = jnp.sin(K * r - OMEGA * T + M * phi) * jnp.exp(-DAMPING * r)
        return statistics_of(jnp, f)

    return frame


def implementations(x, peers):
    n = x["n"]
    fns = {"numpy": lambda: numpy_frame(n)}
    sy = peers.switchyard
    def switchyard_run():
        s = sy.apps.field.statistics(n, n, T, wavenumber=K, angular_frequency=OMEGA, twist=M,
                                     damping=DAMPING, center=(CX, CY))
        return np.array([s["mean"], s["energy"], s["coherence"]])

    fns.update(switchyard_variants(peers, switchyard_run))
    if peers.numexpr is not None:
        fns["numexpr"] = lambda: numexpr_frame(peers.numexpr, n)
    if peers.torch is not None:
        for device in peers.torch_devices:
            fns[f"torch {device}"] = lambda device=device: torch_frame(peers.torch, n, device)
    if peers.jax is not None:
        frame = jax_frame(peers.jax, n)
        fns["jax cpu" if peers.jax_devices == ["cpu"] else "jax"] = lambda: np.asarray(frame())
    return fns


def matches(result, reference, x):
    """Against the frame computed in float64: float32 pixels summed over up to 16M pixels agree
    to 1e-5 of the field's mean magnitude (a sum that adds one value at a time does not)."""
    exact = statistics_of(np, numpy_frame(x["n"], np.float64, keep=True))
    return np.allclose(result, exact, rtol=1e-3, atol=1e-5)


WORKLOAD = SimpleNamespace(
    name="field", what="one W×W frame and its statistics (mean, energy, coherence), float32",
    size_label="side W (pixels W²)", sizes=[64, 256, 1024, 2048, 4096], quick_sizes=[256, 2048],
    inputs=inputs, implementations=implementations, matches=matches)

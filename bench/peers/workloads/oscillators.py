"""Kuramoto oscillator network, Euler steps, r(t) read back: dθ_i/dt = ω_i + (1/N) Σ_j K_ij
sin(θ_j − θ_i), float64. NumPy is written two ways users write it: broadcasting (the N² sines,
what most start with) and the two matrix-vector products of the identity
Σ_j K_ij sin(θ_j − θ_i) = cos θ_i (K sin θ)_i − sin θ_i (K cos θ)_i."""

from types import SimpleNamespace

import numpy as np

from peer_libraries import switchyard_variants

DT = 0.01


def steps_for(n):
    return 1000 if n <= 256 else 200 if n <= 1024 else 20


def inputs(n):
    rng = np.random.default_rng(n)
    return {"K": rng.uniform(0, 2, (n, n)), "omega": rng.normal(0, 1, n),
            "theta": rng.uniform(0, 2 * np.pi, n), "steps": steps_for(n)}


def numpy_broadcast(K, omega, theta, steps):
    n = len(theta)
    r = np.empty(steps)
    for s in range(steps):
        theta = theta + DT * (omega + (K * np.sin(theta[None, :] - theta[:, None])).sum(1) / n)
        r[s] = np.abs(np.exp(1j * theta).mean())
    return r


def numpy_matvec(K, omega, theta, steps):
    n = len(theta)
    r = np.empty(steps)
    for s in range(steps):
        sin, cos = np.sin(theta), np.cos(theta)
        theta = theta + DT * (omega + (cos * (K @ sin) - sin * (K @ cos)) / n)
        r[s] = np.abs(np.exp(1j * theta).mean())
    return r


def torch_matvec(torch, K, omega, theta, steps):
    n = len(theta)
    r = torch.empty(steps, dtype=theta.dtype, device=theta.device)
    for s in range(steps):
        sin, cos = torch.sin(theta), torch.cos(theta)
        theta = theta + DT * (omega + (cos * (K @ sin) - sin * (K @ cos)) / n)
        r[s] = torch.hypot(torch.cos(theta).mean(), torch.sin(theta).mean())
    return r.cpu().numpy()


def jax_simulation(jax, steps):
    jnp = jax.numpy

    def step(theta, args):
        K, omega = args
        sin, cos = jnp.sin(theta), jnp.cos(theta)
        theta = theta + DT * (omega + (cos * (K @ sin) - sin * (K @ cos)) / theta.shape[0])
        return theta, jnp.hypot(jnp.cos(theta).mean(), jnp.sin(theta).mean())

    @jax.jit
    def simulate(K, omega, theta):
        _, r = jax.lax.scan(lambda t, _: step(t, (K, omega)), theta, None, length=steps)
        return r

    return simulate


def implementations(x, peers):
    K, omega, theta, steps = x["K"], x["omega"], x["theta"], x["steps"]
    n = len(theta)
    fns = {"numpy": lambda: numpy_matvec(K, omega, theta, steps)}
    if n <= 1024:
        fns["numpy broadcast"] = lambda: numpy_broadcast(K, omega, theta, steps)
    sy = peers.switchyard
    sK, somega, stheta = sy.asarray(K), sy.asarray(omega), sy.asarray(theta)

    def switchyard_run():
        # r at steps 0 (θ0), 1, ..., steps: the peers record r after each step.
        return sy.apps.oscillators.simulate(sK, somega, stheta, dt=DT, steps=steps,
                                            method="euler")[1][1:]

    fns.update(switchyard_variants(peers, switchyard_run))
    if peers.torch is not None:
        torch = peers.torch
        for device in peers.torch_devices:
            tK, tw, tt = (torch.from_numpy(a).to(device) for a in (K, omega, theta))
            fns[f"torch {device}"] = (lambda tK=tK, tw=tw, tt=tt:
                                      torch_matvec(torch, tK, tw, tt, steps))
    if peers.jax is not None:
        simulate = jax_simulation(peers.jax, steps)
        for device in peers.jax_devices:
            on = peers.jax.devices(device)[0]
            jK, jw, jt = (peers.jax.device_put(a, on) for a in (K, omega, theta))
            fns[f"jax {device}"] = lambda jK=jK, jw=jw, jt=jt: np.asarray(simulate(jK, jw, jt))
    return fns


def matches(result, reference, x):
    return result.shape == reference.shape and np.allclose(result, reference, rtol=1e-6, atol=1e-8)


WORKLOAD = SimpleNamespace(
    name="oscillators", what="Kuramoto network, Euler steps (1000 to N=256, 200 to 1024, then 20)",
    size_label="oscillators N", sizes=[40, 80, 256, 1024, 4096], quick_sizes=[80, 1024],
    inputs=inputs, implementations=implementations, matches=matches)

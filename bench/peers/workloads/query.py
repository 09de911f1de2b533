"""A query over n events (value v, weight w), float32: keep v > 0, map to revenue v·w, then the
kept count and total, the running total of the kept revenue in event order (read back whole) and
the 10 largest revenues."""

from types import SimpleNamespace

import numpy as np

from peer_libraries import switchyard_variants

TOP = 10


def inputs(n):
    rng = np.random.default_rng(n)
    return {"v": rng.standard_normal(n, dtype=np.float32),
            "w": rng.uniform(0.5, 1.5, n).astype(np.float32)}


def result(count, total, running, top):
    return np.concatenate([[count, total], running, top])


def numpy_query(v, w):
    kept = v > 0
    return result_of(v[kept] * w[kept])


def numexpr_query(ne, v, w):
    revenue = ne.evaluate("where(v > 0, v * w, 0)")
    kept = revenue[v > 0]
    return result(kept.size, kept.sum(dtype=np.float64), np.cumsum(kept),
                  np.sort(kept)[::-1][:TOP])


def torch_query(torch, v, w):
    kept = v > 0
    revenue = v[kept] * w[kept]
    return result(revenue.numel(), revenue.sum(dtype=torch.float64).item(),
                  torch.cumsum(revenue, 0).cpu().numpy(), torch.topk(revenue, TOP).values.cpu().numpy())


def jax_query(jax, v, w):
    # jit cannot make the data-dependent size of the kept values: JAX users run this eagerly.
    jnp = jax.numpy
    kept = v > 0
    revenue = v[kept] * w[kept]
    return result(revenue.size, float(revenue.sum(dtype=jnp.float64)),
                  np.asarray(jnp.cumsum(revenue)), np.asarray(jax.lax.top_k(revenue, TOP)[0]))


def implementations(x, peers):
    v, w = x["v"], x["w"]
    fns = {"numpy": lambda: numpy_query(v, w)}
    sy = peers.switchyard
    sv, sw = sy.asarray(v), sy.asarray(w)

    def switchyard_run():
        r = sy.apps.query.run(sv, sw, top_k=TOP)
        return result(r["count"], r["total"], np.asarray(r["running_total"]), r["top_revenue"])

    fns.update(switchyard_variants(peers, switchyard_run))
    if peers.numexpr is not None:
        fns["numexpr"] = lambda: numexpr_query(peers.numexpr, v, w)
    if peers.torch is not None:
        for device in peers.torch_devices:
            tv, tw = (peers.torch.from_numpy(a).to(device) for a in (v, w))
            fns[f"torch {device}"] = lambda tv=tv, tw=tw: torch_query(peers.torch, tv, tw)
    if peers.jax is not None:
        jv, jw = peers.jax.numpy.asarray(v), peers.jax.numpy.asarray(w)
        fns["jax cpu"] = lambda: jax_query(peers.jax, jv, jw)
    return fns


def matches(result, reference, x):
    """Against the query in float64 (NumPy's float32 cumsum adds one value at a time, so at 10^7
    values it is no reference): the count exactly, the total to 1e-5, each running total within
    1e-4 of the total, the top revenues to 1e-6."""
    v, w = x["v"], x["w"]
    revenue = (v[v > 0] * w[v > 0]).astype(np.float64)
    exact = result_of(revenue)
    if result.shape != exact.shape or result[0] != exact[0]:
        return False
    total = exact[1]
    return (abs(result[1] - total) <= 1e-5 * abs(total)
            and np.allclose(result[2:-TOP], exact[2:-TOP], rtol=0, atol=1e-4 * abs(total))
            and np.allclose(result[-TOP:], exact[-TOP:], rtol=1e-6))


def result_of(revenue):
    return result(revenue.size, revenue.sum(), np.cumsum(revenue), np.sort(revenue)[::-1][:TOP])


WORKLOAD = SimpleNamespace(
    name="query", what="keep v > 0, revenue v·w, count, total, running total, top 10; float32",
    size_label="events n", sizes=[10**5, 10**6, 10**7, 3 * 10**7], quick_sizes=[10**6],
    inputs=inputs, implementations=implementations, matches=matches)

"""switchyard.apps.query against NumPy."""

import numpy as np
import pytest

import switchyard as sy
from switchyard.apps import query


def numpy_query(values, weights, threshold, scale):
    keep = values > threshold
    revenue = (values * weights * np.float32(scale)).astype(np.float32)
    return revenue[keep], np.flatnonzero(keep)


@pytest.mark.parametrize("n", [0, 7, 100_003])
def test_run_matches_numpy(on_device, rng, n):
    values = rng.standard_normal(n).astype(np.float32)
    weights = rng.uniform(0.5, 1.5, n).astype(np.float32)
    r = query.run(values, weights, threshold=0.25, scale=1.5, top_k=10)
    revenue, events = numpy_query(values, weights, 0.25, 1.5)
    assert r["count"] == revenue.size
    assert r["total"] == pytest.approx(revenue.astype(np.float64).sum(), rel=1e-5, abs=1e-3)
    running = np.asarray(r["running_total"])
    assert running.shape == revenue.shape
    np.testing.assert_allclose(running, np.cumsum(revenue.astype(np.float64)), rtol=1e-4,
                               atol=1e-3)
    order = np.argsort(-revenue, kind="stable")[:10]
    np.testing.assert_array_equal(r["top_revenue"], revenue[order])
    np.testing.assert_array_equal(r["top_events"], events[order])
    names = [s["name"] for s in r["stages"]]
    top = ["top_k_cut", "top_k"] if n > 1000 else ["top_k"]  # a sorted sample when n is large
    assert names == ["total", "running_total"] + (top if revenue.size else [])
    for stage in r["stages"]:
        assert stage["elements"] == n or stage["name"] == "top_k_cut"
        assert isinstance(stage["stages"], list)
        if n and on_device != "auto":
            assert all(k["device"].startswith(on_device) for k in stage["stages"])


def test_synthetic_events_and_switchyard_inputs():
    values, weights = query.synthetic_events(1000, seed=5)
    assert isinstance(values, sy.Array)
    w = np.asarray(weights)
    assert w.min() >= 0.5 and w.max() < 1.5
    r = query.run(values, weights, threshold=0.0)
    revenue, _ = numpy_query(np.asarray(values), w, 0.0, 1.0)
    assert r["count"] == revenue.size


def test_bad_input_raises_typed_errors():
    values, weights = query.synthetic_events(10, seed=1)
    with pytest.raises(sy.ShapeError, match="weights"):
        query.run(values, np.ones(9, np.float32))
    with pytest.raises(sy.ValueError, match="top_k"):
        query.run(values, weights, top_k=-1)
    with pytest.raises(sy.ValueError, match="threshold"):
        query.run(values, weights, threshold=float("nan"))

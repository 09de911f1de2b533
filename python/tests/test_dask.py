"""switchyard.dask and switchyard.apps.dask_workloads: Switchyard arrays as Dask chunks, under
the synchronous scheduler and on a LocalCluster of two worker processes, against NumPy and the
one-process apps; and a worker killed mid-computation."""

import os
import pickle
import signal
import time

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="dask is not installed (python/requirements-dev.txt)")
pytest.importorskip("dask.array", reason="dask[array] is not installed")
distributed = pytest.importorskip("distributed", reason="distributed is not installed")

import dask.array as da  # noqa: E402

import switchyard as sy  # noqa: E402
import switchyard.dask as syd  # noqa: E402
from switchyard import _numpy_protocols  # noqa: E402
from switchyard.apps import dask_workloads as dw  # noqa: E402
from switchyard.apps import field, query  # noqa: E402
from conftest import rounding_bound, sum_bound  # noqa: E402
from test_apps_field import numpy_frame  # noqa: E402

PARAMS = dict(wavenumber=25.0, angular_frequency=3.0, twist=2.0, damping=0.7,
              center=(0.3, -0.2))
BOUNDS = (-1.5, 1.0, -1.0, 2.0)
# Cluster workers run the CPU's interpreter only: the same kernels bit for bit in every worker
# process, restarted or not (README, "Controls": the native tier rounds sin differently).
WORKER_ENV = {"SWITCHYARD_BACKEND": "cpu", "SWITCHYARD_NATIVE": "off"}


@pytest.fixture
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


@pytest.fixture
def no_host_fallback(monkeypatch):
    """Fails a test whose chunk work leaves Switchyard's kernels for NumPy on the host."""
    def refuse(function, args, kwargs):
        raise AssertionError(f"{function} ran on a host copy, not as a Switchyard kernel")
    monkeypatch.setattr(_numpy_protocols, "_on_host", refuse)


def frame_tolerance(dtype, wavenumber=PARAMS["wavenumber"], bounds=BOUNDS):
    """A band's pixel centres come from its own bounds, rounded differently than the whole
    frame's: a few roundings of coordinates up to the bounds' extent, amplified by the
    wavenumber (the phase's derivative) and by one more for the damping."""
    extent = max(abs(b) for b in bounds) + 1.0
    return 8 * (wavenumber + 1.0) * np.finfo(dtype).eps * extent


def chunked(n, chunk, dtype, rng):
    values = (rng.standard_normal(n) * 3).astype(dtype)
    return values, syd.to_switchyard(da.from_array(values, chunks=chunk))


# ---- (a) the chunk type is kept, and chunk work is Switchyard's


def test_chunks_are_switchyard_arrays(synchronous, rng):
    values, x = chunked(1001, 100, np.float32, rng)
    y = x * 2 + da.sin(x)
    for a in (x, y, y[::3], y.sum(), y.mean(), y.max(), da.cumsum(y)):
        assert syd.is_switchyard(a), type(a._meta)
    for block in y.to_delayed().ravel():
        assert isinstance(block.compute(), sy.Array)
    assert isinstance(y.compute(), sy.Array)  # chunks concatenated by Switchyard
    assert isinstance(syd.to_numpy(y).compute(), np.ndarray)
    # a Dask array and a Switchyard array: Dask's operation, chunk by chunk
    mixed = x + sy.asarray(values)
    assert isinstance(mixed, da.Array) and syd.is_switchyard(mixed)
    for lookup in (da.dispatch.concatenate_lookup, da.dispatch.take_lookup,
                   da.dispatch.tensordot_lookup):
        assert lookup.dispatch(sy.Array).__module__.startswith("switchyard"), lookup


def test_elementwise_and_reductions_match_numpy(synchronous, no_host_fallback, rng):
    for dtype in (np.float32, np.float64):
        values, x = chunked(10_007, 999, dtype, rng)
        y = x * 2 + da.sin(x) - abs(x)
        want = (values.astype(np.float64) * 2 + np.sin(values.astype(np.float64))
                - np.abs(values.astype(np.float64)))
        got = np.asarray(y.compute())
        assert got.dtype == dtype
        # a few elementwise roundings of terms up to 3|x| + 1
        elementwise = 4 * np.finfo(dtype).eps * (3 * np.abs(values) + 1)
        assert np.all(np.abs(got - want) <= elementwise)
        terms = want.astype(dtype)
        # per chunk a Switchyard sum, then Dask's sum of the chunk sums: log2(chunk) + log2(chunks)
        # roundings, within the pairwise bound of the whole length, plus the terms' own error
        total = float(y.sum().compute())
        assert abs(total - want.sum()) <= sum_bound(terms) + elementwise.sum()
        mean = float(y.mean().compute())
        assert abs(mean - want.mean()) <= (sum_bound(terms) + elementwise.sum()) / values.size
        assert float(y.max().compute()) == pytest.approx(want.max(), abs=float(elementwise.max()))
        column = x.reshape(10_007, 1).sum(axis=1).compute()
        np.testing.assert_array_equal(np.asarray(column), values)


def test_take_concatenate_tensordot_and_cumsum(synchronous, rng):
    values, x = chunked(1000, 128, np.float64, rng)
    picked = x[[3, 999, 0, 500]].compute()
    assert isinstance(picked, sy.Array)
    np.testing.assert_array_equal(np.asarray(picked), values[[3, 999, 0, 500]])
    both = da.concatenate([x, x[:10]]).compute()
    np.testing.assert_array_equal(np.asarray(both), np.concatenate([values, values[:10]]))
    m = x.reshape(250, 4)
    product = np.asarray(da.tensordot(m, m, axes=([0], [0])).compute())
    exact = values.reshape(250, 4).T @ values.reshape(250, 4)
    bound = rounding_bound(np.abs(values.reshape(250, 4)).T @ np.abs(values.reshape(250, 4)),
                           exact, 250, np.float64)
    assert np.all(np.abs(product - exact) <= bound)
    running = np.asarray(da.cumsum(x).compute())
    scan_bound = rounding_bound(np.cumsum(np.abs(values)), np.cumsum(values), values.size,
                                np.float64)
    assert np.all(np.abs(running - np.cumsum(values)) <= scan_bound)


def test_arrays_pickle_with_dtype_and_device():
    for dtype in (np.float32, np.int64, np.bool_, np.complex128):
        a = sy.asarray(np.arange(6).reshape(2, 3).astype(dtype))
        b = pickle.loads(pickle.dumps(a))
        assert isinstance(b, sy.Array) and b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(np.asarray(b), np.asarray(a))
    # a device this process lacks (an index past every CUDA device it has): the host
    present = {d.id for d in sy.devices()}
    missing = next(f"cuda:{i}" for i in range(len(present) + 1) if f"cuda:{i}" not in present)
    rebuilt, (values, device) = sy.asarray(np.ones(3))[1:].__reduce__()
    assert rebuilt(values, missing).device == sy.Device("cpu:0")


def test_dtype_reads_as_numpys():
    assert np.dtype(sy.float32) == np.float32 and sy.float32 == np.dtype("float32")
    assert sy.bool == bool and sy.int64.kind == "i" and sy.float32 != sy.float64
    assert sy.iinfo(sy.int32).dtype is sy.int32 and sy.finfo(sy.float32).dtype is sy.float32


# ---- (b) the workloads, one process with the synchronous scheduler and on a cluster


def field_matches(width, height, dtype, row_chunk):
    f = dw.field_frame(width, height, 0.37, row_chunk=row_chunk, dtype=dtype, bounds=BOUNDS,
                       **PARAMS)
    assert syd.is_switchyard(f)
    got = np.asarray(f.compute())
    one_process = np.asarray(field.frame(width, height, 0.37, dtype=dtype, bounds=BOUNDS,
                                         **PARAMS))
    assert got.dtype == np.dtype(dtype) and got.shape == (height, width)
    tolerance = frame_tolerance(dtype)
    assert np.abs(got - one_process).max() <= tolerance
    assert np.abs(got - numpy_frame(width, height, 0.37, bounds=BOUNDS, **PARAMS)).max() <= \
        tolerance
    stats = dw.field_statistics(width, height, 0.37, row_chunk=row_chunk, dtype=dtype,
                                bounds=BOUNDS, **PARAMS)
    want = field.statistics(width, height, 0.37, dtype=dtype, bounds=BOUNDS, **PARAMS)
    n = width * height
    # both within `tolerance` per element, and one-process sums in dtype over n terms
    for key, scale in (("mean", 1.0), ("energy", 2.0)):
        bound = scale * tolerance + np.ceil(np.log2(n)) * np.finfo(dtype).eps
        assert abs(stats[key] - want[key]) <= bound, key
    magnitude = np.abs(got.astype(np.float64)).sum()
    bound = 2 * (n * tolerance + np.ceil(np.log2(n)) * np.finfo(dtype).eps * magnitude) / magnitude
    assert abs(stats["coherence"] - want["coherence"]) <= bound


def query_matches(n, chunk, seed):
    values, weights = dw.synthetic_events(n, chunk=chunk, seed=seed)
    assert syd.is_switchyard(values)
    r = dw.query(values, weights, threshold=0.25, scale=1.5, top_k=10)
    v, w = np.asarray(values.compute()), np.asarray(weights.compute())
    keep = v > 0.25
    revenue = (v * w * np.float32(1.5))[keep]
    eps = np.finfo(np.float32).eps
    assert r["count"] == np.count_nonzero(keep) == query.run(v, w, threshold=0.25,
                                                             scale=1.5)["count"]
    # each revenue within two float32 roundings of NumPy's, added in float64
    exact = revenue.astype(np.float64)
    assert abs(r["total"] - exact.sum()) <= eps * np.abs(exact).sum() + sum_bound(exact)
    running = np.asarray(r["running_total"].compute())
    assert running.shape == revenue.shape
    scan_bound = eps * np.cumsum(np.abs(exact)) + rounding_bound(
        np.cumsum(np.abs(exact)), np.cumsum(exact), max(revenue.size, 1), np.float64)
    assert np.all(np.abs(running - np.cumsum(exact)) <= scan_bound)
    order = np.argsort(-revenue, kind="stable")[:10]
    np.testing.assert_allclose(r["top_revenue"], revenue[order], rtol=eps, atol=0)
    np.testing.assert_array_equal(r["top_events"], np.flatnonzero(keep)[order])
    one_process = query.run(v, w, threshold=0.25, scale=1.5, top_k=10)
    np.testing.assert_array_equal(r["top_events"], one_process["top_events"])


def test_workloads_one_process(synchronous):
    field_matches(37, 23, "float32", 5)
    field_matches(64, 50, "float64", 7)
    query_matches(10_007, 1000, seed=3)


@pytest.fixture
def within_60_s():
    """A cluster test that would wait forever (a chunk that does not serialize is retried on
    every worker) fails instead."""
    def expire(signum, frame):
        raise TimeoutError("the cluster computation took over 60 s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, env=WORKER_ENV) as c, \
            distributed.Client(c) as client:
        yield c, client


def test_workloads_on_a_cluster(cluster, within_60_s):
    _, client = cluster
    assert len(client.scheduler_info()["workers"]) == 2
    field_matches(80, 61, "float32", 16)
    query_matches(50_003, 5000, seed=5)
    ran_on = client.run(lambda: "switchyard.dask" in __import__("sys").modules)
    assert all(ran_on.values()), ran_on


# ---- (c) a worker killed while tasks are pending


def _slowly(block):
    time.sleep(0.05)
    return block


async def _die():
    os._exit(1)  # the worker's process ends at once, its tasks and results with it


def test_a_killed_worker_is_recovered(cluster, within_60_s):
    _, client = cluster
    f = dw.field_frame(64, 240, 0.37, row_chunk=8, bounds=BOUNDS, **PARAMS)
    total = f.map_blocks(_slowly, meta=f._meta).astype(np.float64).sum()
    uninterrupted = total.compute()
    before = set(client.scheduler_info()["workers"])
    future = client.compute(total)
    deadline = time.monotonic() + 20
    while not any(client.processing().values()):
        assert time.monotonic() < deadline, "no worker started the computation"
        time.sleep(0.01)
    victim = next(w for w, tasks in client.processing().items() if tasks)
    client.run(_die, workers=[victim], wait=False)
    result = future.result(timeout=60)
    assert future.status == "finished"
    client.wait_for_workers(2, timeout=30)
    after = set(client.scheduler_info()["workers"])
    assert victim in before and victim not in after  # restarted by its nanny, on a new port
    assert isinstance(result, sy.Array) and isinstance(uninterrupted, sy.Array)
    assert float(result) == float(uninterrupted)

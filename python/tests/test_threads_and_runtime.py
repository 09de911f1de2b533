"""Threads (the GIL is released while kernels run), device scopes, strict mode, explain,
metrics, traces, calibration, pipelines and info."""

import json
import threading
import time

import numpy as np
import pytest

import switchyard as sy


def test_threads_compute_at_once_and_get_their_own_results():
    results, errors = {}, []

    def work(seed):
        try:
            a = np.random.default_rng(seed).standard_normal(50_000)
            x = sy.asarray(a)
            for _ in range(5):
                got = float(sy.sum(x * 2 + 1))
            results[seed] = (got, float(np.sum(a * 2 + 1)))
        except Exception as e:  # reported below: a thread's exception is otherwise lost
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for got, expected in results.values():
        assert got == pytest.approx(expected, rel=1e-9)


def test_the_gil_is_released_while_a_kernel_runs():
    x = sy.uniform((4_000_000,), seed=1, dtype=sy.float64)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        for _ in range(3):
            sy.sort(x)
    finally:
        stop.set()
        counter.join()
    assert len(ticks) > 10  # the other thread ran Python while the sorts ran


def test_device_scope_pins_work_and_nests():
    ids = [d.id for d in sy.devices()]
    x = sy.arange(1000, dtype=sy.float32)
    for device_id in ids:
        with sy.device(device_id):
            e = sy.explain(x * 2)
        assert e.kernels[0].ran_on.startswith(device_id), str(e)
    with sy.device(ids[-1]):
        with sy.device(ids[0]):
            inner = sy.explain(x + 1)
        outer = sy.explain(x + 3)
    assert inner.kernels[0].ran_on.startswith(ids[0])
    assert outer.kernels[0].ran_on.startswith(ids[-1])


def test_strict_mode_scope():
    assert sy.fallback_enabled()
    with sy.strict():
        assert not sy.fallback_enabled()
    assert sy.fallback_enabled()


def test_explain_names_candidates_choice_and_reason():
    x = sy.arange(100_000, dtype=sy.float32)
    e = sy.explain(sy.sum(sy.sin(x) * 2))
    assert len(e.kernels) == 1
    k = e.kernels[0]
    assert k.chosen and k.reason and k.candidates
    assert {c.name.split("/")[0] for c in k.candidates} >= {d.id for d in sy.devices()}
    assert "chosen" in str(e)


def test_explain_of_an_array_already_computed_reports_the_kernel_that_wrote_it():
    x = sy.asarray(np.linspace(0, 1, 1000, dtype=np.float32))
    y = sy.sin(x) * 2
    np.asarray(y)  # read first, as the README's example does
    e = sy.explain(y)
    assert len(e.kernels) == 1
    k = e.kernels[0]
    assert k.ran_on and k.chosen and k.reason and k.actual_s > 0
    assert set(k.operators) == {"sin", "mul"}
    assert "ran on: " + k.ran_on in str(e)
    host = sy.explain(x)  # copied from NumPy: no kernel computed it, and it says so
    assert not host.kernels and "written from the host" in str(host)


def test_metrics_are_dicts_counting_every_execution():
    sy.reset_metrics()
    x = sy.arange(1000, dtype=sy.float64)
    for _ in range(3):
        (x * 3).eval()
    m = sy.metrics()
    assert m["totals"]["count"] >= 3
    assert any("mul" in k["label"] for k in m["kernels"])
    json.dumps(m)


def test_trace_writes_a_perfetto_file(tmp_path):
    path = tmp_path / "trace.json"
    with sy.trace(path):
        (sy.arange(1000) * 2).eval()
    events = json.loads(path.read_text())
    spans = events["traceEvents"] if isinstance(events, dict) else events
    assert any(e.get("ph") == "X" for e in spans)


def test_calibrate_reports_progress_and_every_candidate(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHYARD_PROFILE", str(tmp_path / "profile.json"))
    steps = []
    result = sy.calibrate(quick=True, progress=lambda c, s, f: steps.append((c, s, f)))
    names = {c["name"].split("/")[0] for c in result["candidates"]}
    assert names == {d.id for d in sy.devices()}
    assert steps and all(0 <= f <= 1 for _, _, f in steps)


def test_pipeline_fuses_and_reports():
    a = np.random.default_rng(3).standard_normal(100_000).astype(np.float32)
    q = sy.query(a).map(lambda v: v * 2 + 1).where(lambda v: v > 0)
    total = q.sum()
    expected = np.sum((a * 2 + 1)[(a * 2 + 1) > 0], dtype=np.float64)
    assert float(total) == pytest.approx(expected, rel=1e-4)
    report = q.report()
    assert report.terminal == "sum" and len(report.stages) == 1
    assert report.stages[0].device and report.elements_per_s > 0
    assert int(q.count()) == int(np.count_nonzero(a * 2 + 1 > 0))
    np.testing.assert_array_equal(np.asarray(q.sort()), np.sort((a * 2 + 1)[(a * 2 + 1) > 0]))


def test_info_lists_backends_devices_and_settings():
    i = sy.info()
    assert {d["id"] for d in i["devices"]} == {d.id for d in sy.devices()}
    assert any(b["usable"] for b in i["backends"])
    assert all("name" in s for s in i["settings"])


def test_array_api_namespace_and_device_round_trip():
    x = sy.asarray([1.0, 2.0])
    assert x.__array_namespace__() is sy
    for d in sy.devices():
        y = x.to_device(d)
        np.testing.assert_array_equal(np.asarray(y), [1.0, 2.0])


@pytest.mark.parametrize("shape", [(0,), (2, 0, 3)])
def test_an_empty_array_is_on_the_device_it_was_made_for(shape):
    """The array API's device= holds for arrays with no elements too: they are made there, read
    back as empty."""
    for d in sy.devices():
        made = [sy.empty(shape, device=d), sy.zeros(shape, dtype=sy.int32, device=d),
                sy.asarray(np.ones(shape), device=d), sy.empty(shape).to_device(d),
                sy.from_dlpack(np.zeros(shape, np.float32), device=d)]
        for a in made:
            assert a.device == d, (a.device, d)
            assert np.asarray(a).shape == shape

"""switchyard.capture: a function recorded on its first call and replayed after gives what
running it gives, for new input values, with fresh outputs; references are NumPy float64."""

import numpy as np
import pytest

import switchyard as sy


def kuramoto_reference(theta, omega, k, dt, steps):
    n = theta.size
    for _ in range(steps):
        coupling = (k * np.sin(theta[None, :] - theta[:, None])).sum(axis=1)
        theta = theta + dt * (omega + coupling / n)
    return theta


def test_replay_matches_numpy_for_new_values(on_device, rng):
    step = sy.capture(lambda x, y: sy.sin(x) * y + 2)
    for _ in range(4):
        x, y = rng.standard_normal(33), rng.standard_normal(33)
        out = step(sy.asarray(x), sy.asarray(y))
        assert isinstance(out, sy.Array)
        np.testing.assert_allclose(np.asarray(out), np.sin(x) * y + 2, rtol=1e-12, atol=1e-12)
    stats = step.stats()
    assert (stats["recordings"], stats["replays"]) == (1, 3)


def test_a_tuple_comes_back_as_a_tuple_and_outputs_are_fresh(on_device, rng):
    step = sy.capture(lambda x: (x * 2, sy.sum(x)))
    a, b = rng.standard_normal(8), rng.standard_normal(8)
    first = step(sy.asarray(a))
    second = step(sy.asarray(b))
    assert isinstance(first, tuple) and len(first) == 2
    np.testing.assert_allclose(np.asarray(first[0]), a * 2)  # not overwritten by the replay
    np.testing.assert_allclose(np.asarray(second[0]), b * 2)
    np.testing.assert_allclose(float(second[1]), b.sum(), rtol=1e-12)


def test_kuramoto_state_loop_matches_numpy(on_device, rng):
    n, dt, steps = 80, 0.01, 40
    theta0 = rng.uniform(0, 2 * np.pi, n)
    omega_np, k_np = rng.uniform(-1, 1, n), rng.uniform(0, 2, (n, n))
    omega, k = sy.asarray(omega_np), sy.asarray(k_np)

    def euler(theta):
        s, c = sy.sin(theta), sy.cos(theta)
        return theta + dt * (omega + (c * (k @ s) - s * (k @ c)) / n)

    step = sy.capture(euler)
    theta = sy.asarray(theta0)
    for _ in range(steps):
        theta = step(theta)
    np.testing.assert_allclose(
        np.asarray(theta), kuramoto_reference(theta0, omega_np, k_np, dt, steps), atol=1e-9
    )
    stats = step.stats()
    assert stats["replays"] == steps - 1
    assert stats["library_calls"] == 2


def test_the_whole_step_placement_is_reported_and_results_hold(rng):
    # Not pinned: after 2, 4, ... replays the scheduler weighs other placements of the whole step.
    step = sy.capture(lambda x: x * sy.sum(x * 2))
    for _ in range(6):
        x = rng.standard_normal(500)
        np.testing.assert_allclose(np.asarray(step(sy.asarray(x))), x * (x * 2).sum(), rtol=1e-12)
    stats = step.stats()
    placements = stats["placements"]
    assert placements and placements[0]["name"] == "as recorded"
    assert sum(p["chosen"] for p in placements) == 1
    assert placements[0]["measured_s"] is not None and placements[0]["measured_s"] > 0
    for p in placements:
        assert p["predicted_s"] > 0 and p["expected_s"] > 0 and p["devices"], p
    assert stats["recordings"] == 1 + stats["placements_changed"]


def test_a_new_shape_records_again(on_device):
    step = sy.capture(lambda x: x + 1)
    for n in (3, 5, 3):
        np.testing.assert_array_equal(np.asarray(step(np.arange(n, dtype=np.float64))),
                                      np.arange(n) + 1.0)
    assert step.stats()["recordings"] == 2


def test_host_reads_and_writes_into_inputs_are_value_errors(on_device):
    x = sy.asarray(np.ones(3))
    with pytest.raises(ValueError, match="host inside a captured function"):
        sy.capture(lambda a: a * float(sy.sum(a)))(x)
    with pytest.raises(ValueError, match="host inside a captured function"):
        sy.capture(lambda a: a * np.asarray(a)[0])(x)

    def in_place(a):
        a += 1
        return a * 2

    with pytest.raises(ValueError, match="write into an input"):
        sy.capture(in_place)(x)
    np.testing.assert_array_equal(np.asarray(x), np.ones(3))


def test_a_function_returning_something_else_is_an_error():
    with pytest.raises(ValueError, match="expected an array or a tuple of arrays"):
        sy.capture(lambda a: "text")(sy.asarray(np.ones(2)))


def test_a_module_level_capture_exits_cleanly():
    # The function refers to the module's globals, which hold the Captured: a cycle only the
    # garbage collector can break, so the Captured must let it see the function.
    import subprocess
    import sys
    import textwrap
    script = textwrap.dedent("""
        import numpy as np
        import switchyard as sy
        scale = sy.asarray(np.float64(2))
        step = sy.capture(lambda x: x * scale + 1)
        y = step(sy.asarray(np.arange(4.0)))
        y = step(y)
        print(np.asarray(y).tolist())
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[3.0, 7.0, 11.0, 15.0]"
    assert "leaked" not in done.stderr, done.stderr

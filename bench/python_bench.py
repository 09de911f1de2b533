"""The Python module beside NumPy, side by side in one process, medians of alternated rounds.

  PYTHONPATH=build/python .venv/bin/python bench/python_bench.py [--rounds 15]

Targets (issue: the Python module): one tiny elementwise op (n = 16) within 2x of NumPy's time;
a*b + sin(c)*2.5 - sqrt(abs(a)) written as a Python expression over 1e7 float32 at least 4x
faster than NumPy and at n = 1e3 no slower; DLPack import and export of a 1e8-element array in
constant time under 5 us. Switchyard's times include computing the result (eval) and, in the
"to NumPy" rows, handing it to NumPy as a host array, as a user reading it would.
"""

import argparse
import statistics
import time

import numpy as np

import switchyard as sy


def median_time(fn, repeat):
    """Median seconds per call of fn, over `repeat` timed batches sized to ~20 ms each."""
    fn()
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    inner = max(1, int(0.02 / once))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times)


def alternated(fns, rounds):
    """Each function's median, the functions timed in turn every round so that load and
    frequency changes hit all of them alike."""
    samples = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            samples[name].append(median_time(fn, 3))
    return {name: statistics.median(s) for name, s in samples.items()}


def fmt(seconds):
    return f"{seconds * 1e6:10.2f} us" if seconds < 1e-3 else f"{seconds * 1e3:10.3f} ms"


def verdict(ok):
    return "met" if ok else "NOT MET"


def tiny_op(rounds):
    a, b = np.random.default_rng(1).random((2, 16), dtype=np.float32)
    x, y = sy.asarray(a), sy.asarray(b)
    t = alternated({
        "numpy a + b": lambda: a + b,
        "switchyard (x + y).eval()": lambda: (x + y).eval(),
        "switchyard x + y (recorded, lazy)": lambda: x + y,
    }, rounds)
    print("\none elementwise add, n = 16 float32")
    for name, s in t.items():
        print(f"  {name:<36}{fmt(s)}")
    ratio = t["switchyard (x + y).eval()"] / t["numpy a + b"]
    print(f"  computed / NumPy {ratio:.2f}x  (goal <= 2x: {verdict(ratio <= 2)})")


def expression(n, rounds, goal, goal_text):
    rng = np.random.default_rng(2)
    a, b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    x, y, z = sy.asarray(a), sy.asarray(b), sy.asarray(c)

    def numpy_expr():
        return a * b + np.sin(c) * np.float32(2.5) - np.sqrt(np.abs(a))

    def sy_expr():
        return x * y + sy.sin(z) * 2.5 - sy.sqrt(sy.abs(x))

    t = alternated({
        "numpy": numpy_expr,
        "switchyard auto, eval()": lambda: sy_expr().eval(),
        "switchyard auto, to NumPy": lambda: np.asarray(sy_expr()),
    }, rounds)
    print(f"\na*b + sin(c)*2.5 - sqrt(abs(a)), n = {n:g} float32")
    for name, s in t.items():
        print(f"  {name:<36}{fmt(s)}")
    speedup = t["numpy"] / t["switchyard auto, to NumPy"]
    kernels = len(sy.explain(sy_expr()).kernels)
    print(f"  NumPy / switchyard (to NumPy) {speedup:.2f}x  ({goal_text}: {verdict(speedup >= goal)}); "
          f"kernels launched: {kernels}")
    diff = np.max(np.abs(np.asarray(sy_expr()) - numpy_expr()))
    print(f"  largest difference from NumPy: {diff:.3g}")


def dlpack(rounds):
    print("\nDLPack, float32")
    for n in (1_000, 100_000_000):
        host = np.ones(n, dtype=np.float32)
        array = sy.asarray(host)
        t = alternated({
            "import (switchyard.from_dlpack)": lambda: sy.from_dlpack(host),
            "export (numpy.from_dlpack)": lambda: np.from_dlpack(array),
        }, rounds)
        for name, s in t.items():
            ok = s < 5e-6
            print(f"  n = {n:<11g} {name:<32}{fmt(s)}  (goal < 5 us: {verdict(ok)})")


def warm_up(seconds=3.0):
    """Steady state before timing: a new process calibrates its devices in the background and
    the scheduler has no measured history yet; both settle within a few seconds of work."""
    x = sy.asarray(np.ones(1000, dtype=np.float32))
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        (x * 2 + sy.sin(x)).eval()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    warm_up()
    print(f"devices: {', '.join(d.id for d in sy.devices())}; medians of {args.rounds} rounds")
    tiny_op(args.rounds)
    expression(1000, args.rounds, 1.0, "goal >= 1x")
    expression(10_000_000, max(3, args.rounds // 3), 4.0, "goal >= 4x")
    dlpack(args.rounds)


if __name__ == "__main__":
    main()

"""Switchyard's workloads (apps/) beside the same workloads written idiomatically in NumPy,
numexpr, PyTorch and JAX, in one process on the same inputs.

  bash bench/peers/run.sh [build-dir] [--quick] [--workload NAME] [--out DIR]

For every workload and size, each implementation runs once to warm up (JAX compiles, Switchyard
compiles its kernels and learns), then all are timed in alternation, round after round, so that
load and clock changes hit all of them alike; a time is the median over rounds. Every result is
read back to a NumPy array, as a user would, and checked within the workload's tolerance against
NumPy's result or, where float32 accumulation makes NumPy's inexact, against float64 (a peer
outside it is marked RESULT DIFFERS; Switchyard outside it fails the run). Writes DIR/peers.csv, DIR/table.md (the table in Markdown), one PNG per workload (time against size, the break-even points
where Switchyard auto and the fastest peer cross marked) and prints the table with ratios
(Switchyard auto / each peer: below 1 is faster).
"""

from __future__ import annotations

import argparse
import csv
import os
import pathlib
import random
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import peer_libraries  # noqa: E402
import plots  # noqa: E402
import table  # noqa: E402
from workloads import ALL  # noqa: E402


def per_call(fn, budget_s):
    """Seconds per call of fn: the mean over a batch of calls filling about budget_s."""
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    calls = max(1, min(1000, int(budget_s / max(once, 1e-7))))
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


# A library's worker threads keep spinning for a while after its last call (OpenBLAS's do,
# before they sleep). Timed inside that window, the next library's own threads share the cores
# with them: on 2 cores, Switchyard's 256-batch MLP step took 10-17 ms right after NumPy's calls
# and 1.5-2.5 ms after this pause.
COOL_DOWN_S = 0.2


def alternated(fns, rounds, budget_s):
    """Each function's median over `rounds` rounds; every round times each function in turn, in
    an order shuffled each round (seeded), each after a pause that lets the previous one's
    threads go idle, so that none is charged for another's leftovers."""
    samples = {name: [] for name in fns}
    order = list(fns)
    shuffle = random.Random(len(order)).shuffle
    for _ in range(rounds):
        shuffle(order)
        for name in order:
            time.sleep(COOL_DOWN_S)
            samples[name].append(per_call(fns[name], budget_s))
    return {name: statistics.median(s) for name, s in samples.items()}


def run_size(workload, n, peers, rounds, budget_s):
    """Times every implementation of `workload` at size n; returns {name: seconds} and the names
    whose result is outside the workload's tolerance."""
    inputs = workload.inputs(n)
    fns = workload.implementations(inputs, peers)
    # Every implementation's first result (training steps change their state) checked.
    results = {name: np.asarray(fn()) for name, fn in fns.items()}
    mismatched = [name for name, result in results.items()
                  if not workload.matches(result, results["numpy"], inputs)]
    return alternated(fns, rounds, budget_s), mismatched


def ratio_columns(times):
    """Switchyard auto / each peer (NumPy, numexpr, PyTorch, JAX and their devices)."""
    auto = times.get("switchyard auto")
    return {name: auto / t for name, t in times.items()
            if auto and not name.startswith("switchyard")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the small sizes only, 3 rounds")
    parser.add_argument("--workload", action="append", choices=[w.name for w in ALL],
                        help="run only this workload (may repeat)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.05,
                        help="seconds of calls per timed sample (default 0.05)")
    parser.add_argument("--out", default="docs/benchmarks", help="where the CSV and PNGs go")
    args = parser.parse_args()

    peers = peer_libraries.load()
    print(peer_libraries.describe(peers))
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rounds = 3 if args.quick else args.rounds
    rows, mismatches = [], []
    for workload in ALL:
        if args.workload and workload.name not in args.workload:
            continue
        sizes = workload.quick_sizes if args.quick else workload.sizes
        print(f"\n{workload.name}: {workload.what}")
        for n in sizes:
            times, mismatched = run_size(workload, n, peers, rounds, args.budget)
            mismatches += [f"{workload.name} n={n}: {name}" for name in mismatched]
            ratios = ratio_columns(times)
            print(f"  n = {n}")
            for name, seconds in sorted(times.items(), key=lambda item: item[1]):
                ratio = f"  auto / this {ratios[name]:6.2f}x" if name in ratios else ""
                flag = "  RESULT DIFFERS" if name in mismatched else ""
                print(f"    {name:<24}{table.fmt(seconds):>10}{ratio}{flag}")
                rows.append({"workload": workload.name, "n": n, "implementation": name,
                             "seconds": seconds, "auto_ratio": ratios.get(name, ""),
                             "matches_reference": name not in mismatched})
            sys.stdout.flush()

    with open(out / "peers.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for workload in ALL:
        if any(r["workload"] == workload.name for r in rows):
            path = plots.time_against_size(workload, rows, out)
            print(f"plot: {path}")
    with open(out / "peers.csv", newline="", encoding="utf-8") as f:
        (out / "table.md").write_text(table.markdown(list(csv.DictReader(f))), encoding="utf-8")
    print(f"table: {out / 'peers.csv'}, {out / 'table.md'}")
    if mismatches:
        print("results outside the workload's tolerance:\n  " + "\n  ".join(mismatches))
    # A peer's inaccurate result is a finding; Switchyard's is a failure.
    return 1 if any(": switchyard" in m for m in mismatches) else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())

#!/usr/bin/env python3
"""Prints the expression benchmark's one table, with each target marked met or not.

Usage: expression_report.py BENCH_JSON NUMPY_JSON FIRST_100_JSONL
       expression_report.py --best-pinned BENCH_JSON   (prints "N DEVICE" for each size)
BENCH_JSON is expression_bench's Google Benchmark output, NUMPY_JSON expression_numpy.py's, and
FIRST_100_JSONL the lines `expression_bench --first-100 N DEVICE` printed.
"""
import json
import statistics
import sys
from collections import defaultdict

from report import medians

UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
EXPRESSION = "BM_Expression/"


def seconds(b):
    return b["real_time"] * UNIT_S[b["time_unit"]]


def fmt_s(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def best_pinned(rows):
    """The fastest pinned device at each size: {n: (device, seconds)}."""
    best = {}
    for name, by_n in rows.items():
        if not name.startswith(EXPRESSION) or name == EXPRESSION + "auto":
            continue
        for n, b in by_n.items():
            if n not in best or seconds(b) < best[n][1]:
                best[n] = (name[len(EXPRESSION):], seconds(b))
    return best


def target(label, measured, goal, met):
    print(f"  {label:<46} {measured:>12} {goal:>10}   {'met' if met else 'NOT MET'}")


def expression_table(rows, numpy):
    pinned = sorted(name for name in rows if name.startswith(EXPRESSION) and
                    name != EXPRESSION + "auto")
    fused, auto = rows["BM_Fused"], rows[EXPRESSION + "auto"]
    columns = ["fused loop", "auto"] + [p[len(EXPRESSION):] for p in pinned] + ["NumPy"]
    print(f"{'n':>8} " + "".join(f"{c:>11}" for c in columns) + f"{'auto/fused':>12}"
          f"{'NumPy/auto':>12}")
    for n in sorted(auto):
        numpy_s = numpy["numpy_s"].get(str(n))
        times = [seconds(fused[n]), seconds(auto[n])] + [seconds(rows[p][n]) for p in pinned]
        cells = [fmt_s(t) for t in times] + [fmt_s(numpy_s) if numpy_s else "-"]
        speedup = f"{numpy_s / seconds(auto[n]):.2f}x" if numpy_s else "-"
        print(f"{n:>8.0e} " + "".join(f"{c:>11}" for c in cells) +
              f"{seconds(auto[n]) / seconds(fused[n]):>11.2f}x{speedup:>12}")
    if numpy["numexpr_s"]:
        print("numexpr: " + ", ".join(f"{int(n):.0e}: {fmt_s(s)}"
                                      for n, s in sorted(numpy["numexpr_s"].items(),
                                                         key=lambda item: int(item[0]))))


def first_100_table(rows, lines):
    totals = defaultdict(list)
    for line in lines:
        run = json.loads(line)
        totals[(run["n"], run["device"])].append(run["total_s"])
    best = best_pinned(rows)
    ratios = {}
    print(f"{'n':>8} {'auto':>10} {'best pinned':>14} {'its total':>10} {'auto/pinned':>12}")
    for n in sorted(best):
        device = best[n][0]
        auto_s = statistics.median(totals[(n, "auto")])
        pinned_s = statistics.median(totals[(n, device)])
        ratios[n] = auto_s / pinned_s
        print(f"{n:>8.0e} {fmt_s(auto_s):>10} {device:>14} {fmt_s(pinned_s):>10} "
              f"{ratios[n]:>11.2f}x")
    return ratios, min(len(v) for v in totals.values())


def targets(rows, numpy, first_100_ratios):
    fused, auto = rows["BM_Fused"], rows[EXPRESSION + "auto"]
    print(f"  {'target':<46} {'measured':>12} {'goal':>10}")
    for n in (1_000_000, 10_000_000):
        ratio = seconds(auto[n]) / seconds(fused[n])
        target(f"Switchyard auto / fused loop time at {n:.0e}", f"{ratio:.2f}x", "<= 1.18x",
               ratio <= 1.18)
    for n, goal in ((1_000, 2), (1_000_000, 4), (10_000_000, 4)):
        speedup = numpy["numpy_s"][str(n)] / seconds(auto[n])
        target(f"NumPy / Switchyard auto time at {n:.0e}", f"{speedup:.2f}x", f">= {goal}x",
               speedup >= goal)
    for n, ratio in sorted(first_100_ratios.items()):
        target(f"first 100: auto / best pinned at {n:.0e}", f"{ratio:.2f}x", "<= 1.2x",
               ratio <= 1.2)
    sums = rows["BM_SumAndSumSquares"][10_000_000]["bytes_per_second"] / 1e9
    triad = rows["BM_Triad"][10_000_000]["bytes_per_second"] / 1e9
    target(f"sum + sum of squares / triad ({sums:.1f} / {triad:.1f} GB/s)", f"{sums / triad:.0%}",
           ">= 85%", sums >= 0.85 * triad)
    tiny_us = seconds(rows["BM_TinyOp"][0]) * 1e6
    target("tiny op (a+b at n=16, read back)", f"{tiny_us:.2f} us", "<= 1.5 us", tiny_us <= 1.5)
    fuse_us = seconds(rows["BM_BuildAndFuse20"][0]) * 1e6
    target("build and fuse a 20-operation graph", f"{fuse_us:.2f} us", "<= 20 us", fuse_us <= 20)


def main():
    if sys.argv[1] == "--best-pinned":
        for n, (device, _) in sorted(best_pinned(medians(sys.argv[2])[1]).items()):
            print(n, device)
        return
    context, rows = medians(sys.argv[1])
    numpy = json.load(open(sys.argv[2]))
    lines = open(sys.argv[3]).read().split("\n")
    print(f"y = a*b + sin(c)*2.5 - sqrt(abs(a)), float32, result read back to the host; host: "
          f"{context.get('num_cpus')} CPUs; medians of 5 repetitions\n")
    expression_table(rows, numpy)
    print("\nFirst 100 evaluations, each in a fresh process and cache directory "
          "(best pinned: fastest pinned device above)")
    ratios, processes = first_100_table(rows, [line for line in lines if line.strip()])
    print(f"(medians of {processes} processes each)")
    print("\nTargets")
    targets(rows, numpy, ratios)
    checks = numpy["checks"]
    worst = max(max(c["y_max_abs_diff"], c["fused_max_abs_diff"]) for c in checks.values())
    agree = all(c["ok"] for c in checks.values())
    print(f"\nSwitchyard and the fused loop {'agree' if agree else 'DO NOT AGREE'} with NumPy "
          f"on the same inputs (largest difference {worst:.2g}, tolerance 1e-5)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Prints Google Benchmark JSON as tables: medians, GB/s and ratios to the triad of the same run."""
import json
import sys
from collections import defaultdict


def medians(path):
    data = json.load(open(path))
    rows = defaultdict(dict)
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name, _, arg = b["run_name"].partition("/")
        arg = int(arg.split("/")[0]) if arg and arg.split("/")[0].isdigit() else 0
        rows[name][arg] = b
    return data["context"], rows


def main():
    context, rows = medians(sys.argv[1])
    print(f"host: {context.get('num_cpus')} CPUs, {context.get('mhz_per_cpu')} MHz; medians of "
          f"{context.get('repetitions', 5) or 5} repetitions")
    triad = rows.get("BM_Triad", {})
    names = [n for n in rows if n not in ("BM_Triad", "BM_TinyEagerAdd")]
    print(f"\n{'n':>11} {'triad GB/s':>11} " + " ".join(f"{n[3:]:>24}" for n in names))
    for n in sorted(triad):
        t = triad[n]["bytes_per_second"] / 1e9
        cells = []
        for name in names:
            b = rows[name].get(n)
            if not b:
                cells.append(f"{'-':>24}")
                continue
            g = b["bytes_per_second"] / 1e9
            cells.append(f"{g:8.1f} GB/s ({g / t:5.0%})   ")
        print(f"{n:>11.0e} {t:>11.1f} " + " ".join(cells))
    fused, passes = rows.get("BM_MulAddSinFused", {}), rows.get("BM_MulAddSinThreePasses", {})
    print("\na*b+sin(c): fused kernel vs three one-op kernels (time ratio)")
    for n in sorted(fused):
        if n in passes:
            print(f"{n:>11.0e}  {passes[n]['real_time'] / fused[n]['real_time']:.2f}x faster fused")
    tiny = rows.get("BM_TinyEagerAdd", {}).get(0)
    if tiny:
        print(f"\ntiny eager op (n=16, a+b): {tiny['real_time']:.0f} {tiny['time_unit']} median")


if __name__ == "__main__":
    main()

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
        parts = [p for p in b["run_name"].split("/") if p != "real_time"]
        name = "/".join(p for p in parts if not p.isdigit())
        numbers = [int(p) for p in parts if p.isdigit()]
        rows[name][numbers[0] if numbers else 0] = b
    return data["context"], rows


def devices(path):
    _, rows = medians(path)
    print(f"{'benchmark':<28} {'n floats':>10} {'median':>12} {'GB/s':>8}")
    for name in sorted(rows):
        for n, b in sorted(rows[name].items()):
            gbs = b.get("bytes_per_second", 0) / 1e9
            print(f"{name[3:]:<28} {n if n else '-':>10} {b['real_time']:>9.3f} {b['time_unit']:<2} "
                  f"{gbs:>8.1f}" if gbs else
                  f"{name[3:]:<28} {n if n else '-':>10} {b['real_time']:>9.1f} {b['time_unit']:<2}")


def cache(cold_text, warm_text):
    import statistics
    cold = statistics.median(float(x) for x in cold_text.split())
    warm = statistics.median(float(x) for x in warm_text.split())
    print(f"cold build {cold * 1e3:.1f} ms, warm load {warm * 1e3:.1f} ms (medians): "
          f"warm is {cold / warm:.0f}x faster")


def main():
    if sys.argv[1] == "--devices":
        return devices(sys.argv[2])
    if sys.argv[1] == "--cache":
        return cache(sys.argv[2], sys.argv[3])
    context, rows = medians(sys.argv[1])
    print(f"host: {context.get('num_cpus')} CPUs, {context.get('mhz_per_cpu')} MHz; medians of "
          f"{context.get('repetitions', 5) or 5} repetitions")
    triad = rows.get("BM_Triad", {})
    names = [n for n in rows if n != "BM_Triad" and not n.startswith("BM_TinyEager")]
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
    for name, what in (("BM_TinyEagerAdd", "tiny eager op (n=16, a+b)"),
                       ("BM_TinyEagerStep", "three tiny eager ops in a loop (a+b, a*b, sin a)")):
        tiny = rows.get(name, {}).get(0)
        pinned = rows.get(name + "Pinned", {}).get(0)
        if tiny:
            print(f"\n{what}, auto: {tiny['real_time']:.0f} {tiny['time_unit']} median")
        if tiny and pinned:
            print(f"pinned to cpu:0/inline: {pinned['real_time']:.0f} {pinned['time_unit']} "
                  f"(auto / pinned = {tiny['real_time'] / pinned['real_time']:.2f}x)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""NumPy (and numexpr, when importable) on the expression benchmark's inputs.

Usage: expression_numpy.py DIR [DIR ...]
Each DIR was written by `expression_bench --write-inputs DIR N`: a, b, c and the results of
Switchyard (y) and of the hand-written fused loop (fused), raw float32 little-endian. Times
y = a*b + sin(c)*2.5 - sqrt(abs(a)) on the same values, checks that both results equal NumPy's
within float32 tolerance, and prints JSON keyed by N:
  {"numpy_s": {N: median seconds}, "numexpr_s": {...}, "checks": {N: {...}}}
"""
import json
import statistics
import sys
import timeit
from pathlib import Path

import numpy as np

EXPRESSION = "a*b + sin(c)*2.5 - sqrt(abs(a))"
# Each term is at most 2.5 in size and rounds to within a few float32 ulps (1.2e-7 relative),
# however each implementation computes sin.
TOLERANCE = 1e-5


def median_s(fn):
    """timeit's way: loops long enough to time (autorange), the median of 5 repetitions."""
    timer = timeit.Timer(fn)
    loops, _ = timer.autorange()
    return statistics.median(timer.repeat(repeat=5, number=loops)) / loops


def read(directory, name):
    return np.fromfile(directory / f"{name}.f32", dtype="<f4")


def main():
    try:
        import numexpr
    except ImportError:
        numexpr = None
    report = {"numpy_s": {}, "numexpr_s": {}, "checks": {}}
    for directory in map(Path, sys.argv[1:]):
        a, b, c = (read(directory, name) for name in "abc")
        n = len(a)
        expected = a * b + np.sin(c) * 2.5 - np.sqrt(np.abs(a))
        report["numpy_s"][n] = median_s(lambda: a * b + np.sin(c) * 2.5 - np.sqrt(np.abs(a)))
        if numexpr:
            report["numexpr_s"][n] = median_s(lambda: numexpr.evaluate(EXPRESSION))
        check = {}
        for name in ("y", "fused"):
            diff = float(np.max(np.abs(read(directory, name) - expected)))
            check[f"{name}_max_abs_diff"] = diff
        check["ok"] = all(v <= TOLERANCE for v in check.values())
        report["checks"][n] = check
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""numpy.fft.rfft on the FFT benchmark's input, beside Switchyard's medians.

Usage: fft_numpy.py DIR SWITCHYARD_JSON
DIR was written by `fft_bench --write DIR` (x.f64: the input, y.c128: Switchyard's rfft on cpu:0);
SWITCHYARD_JSON is fft_bench's output. Checks Switchyard's result against NumPy's, then prints one
table: the median of each placement and NumPy's, and NumPy's time over each (above 1: faster).
"""
import json
import statistics
import sys
import timeit
from pathlib import Path

import numpy as np

# float64 FFTs of 2^20 points in [-1, 1) agree to ~1e-12 absolute; 1e-9 leaves room.
TOLERANCE = 1e-9


def median_s(fn):
    """timeit's way: loops long enough to time (autorange), the median of 7 repetitions."""
    timer = timeit.Timer(fn)
    loops, _ = timer.autorange()
    return statistics.median(timer.repeat(repeat=7, number=loops)) / loops


def main():
    directory = Path(sys.argv[1])
    switchyard = json.loads(Path(sys.argv[2]).read_text())
    x = np.fromfile(directory / "x.f64", dtype="<f8")
    y = np.fromfile(directory / "y.c128", dtype="<c16")
    expected = np.fft.rfft(x)
    diff = float(np.max(np.abs(y - expected)))
    numpy_s = median_s(lambda: np.fft.rfft(x))
    print(f"rfft of {len(x)} float64 points (numpy {np.__version__}); "
          f"max |switchyard - numpy| = {diff:.2e} ({'ok' if diff <= TOLERANCE else 'MISMATCH'})")
    print(f"{'placement':<12} {'median ms':>10} {'numpy / it':>11}")
    print(f"{'numpy':<12} {numpy_s * 1e3:>10.3f} {1.0:>11.2f}")
    for placement, seconds in switchyard["median_s"].items():
        print(f"{placement:<12} {seconds * 1e3:>10.3f} {numpy_s / seconds:>11.2f}")
    return 0 if diff <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main())

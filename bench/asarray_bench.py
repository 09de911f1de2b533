"""What asarray's copy of NumPy memory costs, beside sharing it and beside NumPy's own copy, in
one process with alternated rounds (medians).

  PYTHONPATH=build/python .venv/bin/python bench/asarray_bench.py [--rounds 9]

`sy.asarray(n)` copies NumPy's memory into Switchyard's pooled memory (README, "Memory shared
with NumPy and other libraries"); `copy=False` shares it; `n.copy()` is NumPy's copy into fresh
memory. The last column is the same, followed by one fused expression over the array, read back
as a float: what a user writes.
"""

import argparse

import numpy as np

import switchyard as sy
from python_bench import alternated, fmt


def run(rounds):
    print(f"{'float32 elements':>18} {'asarray (copy)':>16} {'copy=False':>14} "
          f"{'numpy n.copy()':>16} {'copy + sum(sin)':>17} {'shared + sum(sin)':>19}")
    for size in (16, 1_000, 100_000, 1_000_000, 10_000_000):
        n = np.random.default_rng(3).random(size, dtype=np.float32)
        t = alternated({
            "copy": lambda: sy.asarray(n),
            "share": lambda: sy.asarray(n, copy=False),
            "numpy": lambda: n.copy(),
            "copy+work": lambda: float(sy.sum(sy.sin(sy.asarray(n)) * 2)),
            "share+work": lambda: float(sy.sum(sy.sin(sy.asarray(n, copy=False)) * 2)),
        }, rounds)
        print(f"{size:>18} {fmt(t['copy']):>16} {fmt(t['share']):>14} {fmt(t['numpy']):>16} "
              f"{fmt(t['copy+work']):>17} {fmt(t['share+work']):>19}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=9)
    run(parser.parse_args().rounds)

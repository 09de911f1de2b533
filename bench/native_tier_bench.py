"""The CPU's compiled tier beside its interpreter, on what a user writes (pinned to cpu:0, read
back to NumPy): medians per case with SWITCHYARD_NATIVE=off (interpreter), eager (native code
always) and on (the default: native code where its timed trial finds it faster). Each mode runs
in a process of its own, since the setting is read once.

  PYTHONPATH=build/python .venv/bin/python bench/native_tier_bench.py [--n 1000000] [--rounds 15]

`on` warms each case for 300 runs (past the work after which a kernel is compiled), waits for the
background compile, then runs 40 more (the trial) before timing. The last two columns are
off's time over eager's and over on's: above 1, native code is faster.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

CASES = {
    "sum(x)": "sy.sum(x)",
    "max(x)": "sy.max(x)",
    "argmax(x)": "sy.argmax(x)",
    "sum(x*y)": "sy.sum(x * y)",
    "sum(sin(x)*y)": "sy.sum(sy.sin(x) * y)",
    "x*y+sin(z)*2.5-sqrt(abs(x))": "x * y + sy.sin(z) * 2.5 - sy.sqrt(sy.abs(x))",
    "sin(row)*rows+1 (broadcast)": "sy.sin(row) * rows + 1",
    "sum(sin(row)*rows) (broadcast)": "sy.sum(sy.sin(row) * rows)",
}


def child(n, rounds, mode):
    import switchyard as sy

    rng = np.random.default_rng(1)
    with sy.device("cpu:0"):
        x, y, z = (sy.asarray(rng.uniform(-1, 1, n).astype(np.float32)) for _ in range(3))
        row = sy.asarray(rng.uniform(-1, 1, (1, n // 8)).astype(np.float32))
        rows = sy.asarray(rng.uniform(-1, 1, (8, n // 8)).astype(np.float32))
        scope = {"sy": sy, "x": x, "y": y, "z": z, "row": row, "rows": rows}
        medians = {}
        for name, text in CASES.items():
            def case():
                return np.asarray(eval(text, scope))  # noqa: S307 - the fixed cases above

            for _ in range(300 if mode == "on" else 3):
                case()
            if mode == "on":
                time.sleep(1)
                for _ in range(40):
                    case()
            times = []
            for _ in range(rounds):
                start = time.perf_counter()
                case()
                times.append(time.perf_counter() - start)
            medians[name] = statistics.median(times)
    print(json.dumps(medians))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--child", choices=["off", "eager", "on"])
    args = parser.parse_args()
    if args.child:
        return child(args.n, args.rounds, args.child)
    results = {}
    for mode in ("off", "eager", "on"):
        out = subprocess.run([sys.executable, __file__, "--n", str(args.n), "--rounds",
                              str(args.rounds), "--child", mode],
                             env=dict(os.environ, SWITCHYARD_NATIVE=mode), check=True,
                             capture_output=True, text=True).stdout
        results[mode] = json.loads(out.strip().splitlines()[-1])
    print(f"n = {args.n} float32, cpu:0, medians of {args.rounds}")
    print(f"{'case':>32} {'off':>10} {'eager':>10} {'on':>10} {'off/eager':>10} {'off/on':>8}")
    for name in CASES:
        off, eager, on = (results[m][name] for m in ("off", "eager", "on"))
        print(f"{name:>32} {off * 1e6:>8.0f}us {eager * 1e6:>8.0f}us {on * 1e6:>8.0f}us "
              f"{off / eager:>10.2f} {off / on:>8.2f}")


if __name__ == "__main__":
    main()

"""The peers table in Markdown from peers.csv: for each workload and size, every implementation's
median and, for the peers, Switchyard auto's time over theirs (below 1: Switchyard is faster).

  python bench/peers/table.py docs/benchmarks/peers.csv > docs/benchmarks/table.md
"""

from __future__ import annotations

import csv
import sys


def fmt(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def markdown(rows):
    lines = []
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    for workload in workloads:
        mine = [r for r in rows if r["workload"] == workload]
        names = list(dict.fromkeys(r["implementation"] for r in mine))
        sizes = list(dict.fromkeys(int(r["n"]) for r in mine))
        lines += [f"### {workload}", "",
                  "| implementation | " + " | ".join(f"n = {n:,}" for n in sizes) + " |",
                  "|---|" + "---|" * len(sizes)]
        for name in names:
            cells = []
            for n in sizes:
                hit = [r for r in mine if r["implementation"] == name and int(r["n"]) == n]
                if not hit:
                    cells.append("")
                    continue
                r = hit[0]
                cell = fmt(float(r["seconds"]))
                if r["auto_ratio"]:
                    cell += f" ({float(r['auto_ratio']):.2f}x)"
                if r["matches_reference"] != "True":
                    cell += " DIFFERS"
                cells.append(cell)
            label = f"**{name}**" if name == "switchyard auto" else name
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main(path):
    with open(path, newline="") as f:
        print(markdown(list(csv.DictReader(f))))


if __name__ == "__main__":
    main(sys.argv[1])

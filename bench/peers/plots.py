"""Time against size for one workload, every implementation a line, with the break-even points
(sizes where Switchyard auto and the fastest peer swap places) marked."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def break_evens(sizes, auto, best_peer):
    """Sizes (interpolated in log-log) where auto's time crosses the best peer's."""
    points = []
    for i in range(1, len(sizes)):
        d0 = math.log(auto[i - 1]) - math.log(best_peer[i - 1])
        d1 = math.log(auto[i]) - math.log(best_peer[i])
        if d0 == 0 or d0 * d1 < 0:
            f = d0 / (d0 - d1) if d0 != d1 else 0
            log_n = math.log(sizes[i - 1]) + f * (math.log(sizes[i]) - math.log(sizes[i - 1]))
            log_t = math.log(auto[i - 1]) + f * (math.log(auto[i]) - math.log(auto[i - 1]))
            points.append((math.exp(log_n), math.exp(log_t)))
    return points


def time_against_size(workload, rows, out):
    mine = [r for r in rows if r["workload"] == workload.name]
    sizes = sorted({r["n"] for r in mine})
    names = sorted({r["implementation"] for r in mine})
    times = {name: {r["n"]: r["seconds"] for r in mine if r["implementation"] == name}
             for name in names}
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for name in names:
        xs = [n for n in sizes if n in times[name]]
        style = dict(linewidth=2.4) if name == "switchyard auto" else dict(linewidth=1.2)
        if name.startswith("switchyard ") and name != "switchyard auto":
            style["linestyle"] = "--"
        ax.plot(xs, [times[name][n] for n in xs], marker="o", label=name, **style)
    peers = [name for name in names if not name.startswith("switchyard")]
    if "switchyard auto" in times and peers and len(sizes) > 1:
        best = [min(times[p].get(n, math.inf) for p in peers) for n in sizes]
        auto = [times["switchyard auto"].get(n, math.inf) for n in sizes]
        for x, y in break_evens(sizes, auto, best):
            ax.axvline(x, color="grey", linestyle=":", linewidth=1)
            ax.annotate(f"break-even\n~{x:,.0f}", (x, y), textcoords="offset points",
                        xytext=(4, 8), fontsize=8, color="dimgrey")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(workload.size_label)
    ax.set_ylabel("seconds per call (median)")
    ax.set_title(f"{workload.name}: {workload.what}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    path = out / f"{workload.name}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path

"""An events query on switchyard pipelines: keep the events whose value exceeds a threshold,
map each to its revenue value · weight · scale, and report the kept count and total, the
running total (a scan, left on the device) and the top-k revenues with their events, with
each stage's pipeline report as a dict.

    values, weights = synthetic_events(10_000_000, seed=1)
    r = run(values, weights, threshold=0.5, top_k=10)
    r["total"], r["stages"][0]["elements_per_s"]
"""

from __future__ import annotations

import numpy as _np

from .. import Array
from .. import _switchyard

_query = _switchyard.apps.query

__all__ = ["synthetic_events", "run"]


def synthetic_events(n: int, seed: int = 0, dtype="float32") -> tuple[Array, Array]:
    """(values, weights): values standard normal, weights uniform in [0.5, 1.5); seeded."""
    return _query.synthetic_events(n, seed, dtype)


_STAGE_FIELDS = ("work", "operators", "elements", "device", "reason", "compile_s",
                 "transfer_s", "execute_s", "total_s", "cache_hit", "fallbacks")
_REPORT_FIELDS = ("terminal", "elements", "fusion_stops", "compile_s", "transfer_s",
                  "execute_s", "total_s", "cache_hit", "elements_per_s")


def _report_dict(name: str, report) -> dict:
    d = {"name": name}
    d.update({f: getattr(report, f) for f in _REPORT_FIELDS})
    d["stages"] = [{f: getattr(s, f) for f in _STAGE_FIELDS} for s in report.stages]
    return d


def run(values, weights, *, threshold: float = 0.0, scale: float = 1.0, top_k: int = 10) -> dict:
    """Runs the query. Returns {"count", "total", "running_total" (switchyard Array),
    "top_revenue", "top_events" (NumPy, largest first), "stages" (one dict per stage: "total",
    "running_total", "top_k", each with its kernels' devices, reasons and times)}."""
    count, total, running, top_revenue, top_events, stages = _query.run(
        values, weights, threshold, scale, top_k)
    return {"count": count, "total": total, "running_total": running,
            "top_revenue": _np.asarray(top_revenue, dtype=_np.float64),
            "top_events": _np.asarray(top_events, dtype=_np.int64),
            "stages": [_report_dict(name, report) for name, report in stages]}

"""The workloads Switchyard's users run, each on the public API: `oscillators` (Kuramoto
networks), `field` (a wave on a grid and its statistics), `query` (an events query on
pipelines). Each takes switchyard arrays or NumPy arrays."""

from . import field, oscillators, query  # noqa: F401

__all__ = ["field", "oscillators", "query"]

"""The workloads Switchyard's users run, each a small library on the public API:
`oscillators` (Kuramoto networks), `fractional` (fractional derivatives and relaxation),
`field` (a wave on a grid and its statistics), `nn` (an MLP trained with autograd) and `query`
(an events query on pipelines). Each takes switchyard arrays or NumPy arrays."""

from . import field, fractional, nn, oscillators, query  # noqa: F401

__all__ = ["field", "fractional", "nn", "oscillators", "query"]

"""The workloads Switchyard's users run, each a small library on the public API:
`fractional` (fractional derivatives and relaxation) and `nn` (an MLP trained with autograd)."""

from . import fractional, nn  # noqa: F401

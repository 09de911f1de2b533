"""The workloads of apps/, each beside its idiomatic NumPy, numexpr, PyTorch and JAX versions.

A workload module defines WORKLOAD with: name, what (one line), size_label, sizes, quick_sizes,
inputs(n) -> dict of NumPy arrays and parameters, implementations(inputs, peers) -> {name: fn}
(each fn computes the workload end to end and returns its result as NumPy arrays; "numpy" is
the reference), and matches(result, reference, inputs) -> bool."""

from . import field, fractional, mlp, oscillators, query

ALL = [oscillators.WORKLOAD, fractional.DIRECT, fractional.FFT, field.WORKLOAD, mlp.WORKLOAD,
       query.WORKLOAD]

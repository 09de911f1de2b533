"""Prints the decomposed workloads' reproducible results as float64 bit patterns in
hexadecimal, on rank 0, as tests/dist/print_workloads.cpp does from C++ for the same arguments
(see there): the two must agree in every bit, at any rank counts.
    field WIDTH HEIGHT BLOCK_ROWS float32|float64
    mlp BLOCK_ROWS float32|float64 adam|sgd
    oscillators NODES BLOCK_ROWS euler|rk4 matvec|direct"""

import sys

import numpy as np
from mpi4py import MPI

import switchyard as sy
from switchyard.apps import nn
from switchyard.apps import oscillators as osc
from switchyard.dist import field
from switchyard.dist import nn as dist_nn
from switchyard.dist import oscillators as dist_osc


def hex_bits(value):
    return f"{int(np.float64(value).view(np.uint64)):016x}"


def digest(values):
    """FNV-1a over the float64 bit patterns of the values, in order."""
    h = 0xcbf29ce484222325
    for pattern in np.asarray(values, dtype=np.float64).view(np.uint64).tolist():
        h = ((h ^ pattern) * 0x100000001b3) % 2**64
    return f"{h:016x}"


def field_bits(width, height, block_rows, dtype):
    grid = {"block_rows": int(block_rows), "dtype": dtype}
    s = field.statistics(int(width), int(height), 0.5, **grid)
    frames = field.animate(int(width), int(height), 2, 0.1, 0.2, **grid)
    keys = ("mean", "energy", "coherence")
    values = [s[k] for k in keys] + [frames[k][i] for i in range(2) for k in keys]
    return [hex_bits(v) for v in values]


def mlp_bits(block_rows, dtype, kind):
    x, labels = nn.make_classification(90, 6, 3, seed=1, dtype=dtype)
    optimizer = nn.Adam(0.01) if kind == "adam" else nn.SGD(0.1, 0.9)
    trainer = dist_nn.DistTrainer(nn.MLP([6, 8, 3], seed=2, dtype=dtype), optimizer)
    batch = dist_nn.distribute(x, labels, block_rows=int(block_rows))
    out = [hex_bits(trainer.train_step(batch)) for _ in range(3)]
    weights = np.concatenate([np.asarray(p, dtype=np.float64).ravel()
                              for p in trainer.model.parameters])
    return out + [digest(weights)]


def oscillator_bits(nodes, block_rows, method, coupling):
    network = dist_osc.distribute(osc.random_network(int(nodes), seed=3, coupling_strength=2.0),
                                  block_rows=int(block_rows))
    phases, r = dist_osc.simulate(network, osc.random_phases(int(nodes), seed=4), dt=0.01,
                                  steps=20, method=method, coupling=coupling, record_every=5)
    return [hex_bits(v) for v in r] + [digest(np.asarray(phases))]


def main(workload, *arguments):
    bits_of = {"field": field_bits, "mlp": mlp_bits, "oscillators": oscillator_bits}[workload]
    with sy.device("cpu:0"):
        bits = bits_of(*arguments)
    if MPI.COMM_WORLD.Get_rank() == 0:
        print(" ".join(bits))


if __name__ == "__main__":
    main(*sys.argv[1:])

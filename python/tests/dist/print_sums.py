"""Prints the reproducible sum, norm and mean of a distributed array as their float64 bit
patterns in hexadecimal, and a digest of its reproducible cumsum, on rank 0, as
tests/dist/print_sums.cpp does from C++ for the same arguments and elements (see there): the two
must agree in every bit. Arguments: rows, columns
(0 for a vector), block_rows, float32|float64."""

import sys

import numpy as np
from mpi4py import MPI

import switchyard as sy
from switchyard import dist


def hashed_values(n, dtype):
    h = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)  # wraps mod 2^64
    return ((h >> np.uint64(11)).astype(np.float64) * 2.0**-53 - 0.5).astype(dtype)


def digest(values):
    """FNV-1a over the float64 bit patterns of the values, in C order."""
    h = 0xcbf29ce484222325
    for pattern in np.asarray(values).astype(np.float64).ravel().view(np.uint64).tolist():
        h = ((h ^ pattern) * 0x100000001b3) % 2**64
    return h


def main(rows, columns, block_rows, dtype):
    comm = MPI.COMM_WORLD
    values = hashed_values(rows * (columns or 1), dtype)
    values = values.reshape((rows, columns) if columns else (rows,))
    a = dist.DistArray.distribute(
        sy.asarray(values), dist.Layout.row_blocks(rows, comm.Get_size(), block_rows))
    sums = (dist.sum(a), dist.norm(a), dist.mean(a))
    scan = digest(dist.gather(dist.cumsum(a)))
    if comm.Get_rank() == 0:
        print(" ".join(f"{int(np.float64(s).view(np.uint64)):016x}" for s in sums), f"{scan:016x}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])

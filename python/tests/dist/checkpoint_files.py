"""Checkpoint files between Python and C++, for python/CMakeLists.txt's tests: the modes
`array-save PATH ROWS COLUMNS BLOCK_ROWS DTYPE` and `array-load PATH BLOCK_ROWS` of
tests/dist/checkpoint_restart.cpp, printing on rank 0 what it prints (the dtype, the shape and an
FNV-1a digest of the elements' bytes), so a file saved by one language and loaded by the other
on another number of ranks must print the same line."""

import sys

import numpy as np
from mpi4py import MPI

import switchyard as sy
from switchyard import dist


def print_digest(values):
    h = 0xcbf29ce484222325
    for byte in np.ascontiguousarray(values).tobytes():
        h = ((h ^ byte) * 0x100000001b3) % 2**64
    if MPI.COMM_WORLD.Get_rank() == 0:
        print(f"{values.dtype.name} {'x'.join(map(str, values.shape))} {h:016x}")


def array_save(path, rows, columns, block_rows, dtype):
    shape = (rows, columns) if columns else (rows,)
    values = np.random.default_rng(7).standard_normal(shape).astype(dtype)
    layout = dist.Layout.row_blocks(rows, MPI.COMM_WORLD.Get_size(), block_rows)
    dist.save(dist.DistArray.distribute(sy.asarray(values), layout), path)
    print_digest(values)


def array_load(path, block_rows):
    print_digest(np.asarray(dist.gather(dist.load(path, block_rows=block_rows).array)))


if __name__ == "__main__":
    mode, path, *numbers = sys.argv[1:]
    if mode == "array-save":
        array_save(path, *map(int, numbers[:3]), numbers[3])
    elif mode == "array-load":
        array_load(path, int(numbers[0]))
    else:
        sys.exit(f"unknown mode {mode}: see the docstring")

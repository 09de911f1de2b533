"""switchyard.dist.save and load on every rank of `mpiexec -n N python -m pytest` (N = 1 to 4):
an array loads back with its bits and step, in any block size, from any layout; a bad file
raises its typed error on every rank. Files between ranks counts and between Python and C++ are
checked by python/CMakeLists.txt's DistCheckpoint tests (checkpoint_files.py)."""

import os
import tempfile

import numpy as np
import pytest
from mpi4py import MPI

import switchyard as sy
from switchyard import dist

COMM = MPI.COMM_WORLD

CASES = [
    (1000, 3, 7, np.float32),
    (4099, 0, 64, np.float64),
    (10, 0, 4, np.int64),  # 3 blocks: at 4 ranks, one has no rows
]


@pytest.fixture
def path():
    """A path every rank names alike (rank 0's), removed at the end."""
    name = COMM.bcast(os.path.join(tempfile.gettempdir(),
                                   f"switchyard_py_{os.getpid()}.sydist"), root=0)
    yield name
    COMM.Barrier()
    if COMM.Get_rank() == 0 and os.path.exists(name):
        os.remove(name)


def values_of(rows, columns, dtype):
    shape = (rows, columns) if columns else (rows,)
    return (np.random.default_rng(7).standard_normal(shape) * 100).astype(dtype)


def spread(values, block_rows):
    layout = dist.Layout.row_blocks(values.shape[0], COMM.Get_size(), block_rows)
    return dist.DistArray.distribute(sy.asarray(values), layout)


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("case", CASES)
def test_an_array_loads_back_with_its_bits_and_step(case, path):
    rows, columns, block_rows, dtype = case
    a = spread(values_of(rows, columns, dtype), block_rows)
    dist.save(a, path, step=123)
    loaded = dist.load(path, block_rows=block_rows)
    assert loaded.step == 123
    assert loaded.array.layout == a.layout
    assert same_bits(loaded.array.local, a.local)


@pytest.mark.parametrize("case", CASES)
def test_an_array_loads_in_any_block_size(case, path):
    rows, columns, block_rows, dtype = case
    values = values_of(rows, columns, dtype)
    dist.save(spread(values, block_rows), path)
    for other in (1, 5, rows + 1):
        loaded = dist.load(path, COMM, block_rows=other)
        assert loaded.array.layout.block_rows == other
        assert same_bits(dist.gather(loaded.array), values)


def test_replicated_and_ragged_arrays_save_their_global_rows(path):
    values = np.arange(60, dtype=np.int64).reshape(20, 3)
    everywhere = dist.Layout.replicated(20, COMM.Get_size(), 4)
    dist.save(dist.DistArray(sy.asarray(values), everywhere), path)
    assert same_bits(dist.gather(dist.load(path, block_rows=4).array), values)

    keep = values[:, 0] > 25  # the last 11 rows: the ranks hold different counts
    ragged = dist.compress(spread(values, 4), spread(keep, 4))
    assert ragged.layout.is_ragged
    dist.save(ragged, path)
    assert same_bits(dist.gather(dist.load(path, block_rows=2).array), values[keep])


def damaged(path, how):
    """Saves a small array, lets rank 0 damage the file, then every rank loads it."""
    dist.save(spread(values_of(10, 0, np.float64), 4), path)
    if COMM.Get_rank() == 0:
        how(path)
    COMM.Barrier()


def overwrite(at, data):
    def how(path):
        with open(path, "r+b") as file:
            file.seek(at)
            file.write(data)
    return how


@pytest.mark.parametrize("how", [
    os.remove,  # missing
    lambda p: os.truncate(p, os.path.getsize(p) - 1),  # the data truncated
    lambda p: os.truncate(p, 20),  # the header truncated
    overwrite(0, b"NPY"),  # another format
    overwrite(8, b"\2"),  # a later version
], ids=["missing", "truncated-data", "truncated-header", "magic", "version"])
def test_a_bad_file_raises_a_checkpoint_error_on_every_rank(how, path):
    damaged(path, how)
    with pytest.raises(dist.CheckpointError):
        dist.load(path)


def test_an_unexpected_dtype_or_shape_is_a_typed_error(path):
    damaged(path, lambda p: None)
    with pytest.raises(sy.DTypeError):
        dist.load(path, dtype=np.float32)
    with pytest.raises(sy.DTypeError):
        dist.load(path, dtype=sy.int64)
    with pytest.raises(sy.ShapeError):
        dist.load(path, shape=(10, 1))
    assert dist.load(path, dtype=np.float64, shape=(10,)).array.shape == (10,)

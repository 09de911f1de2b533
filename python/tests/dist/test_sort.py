"""switchyard.dist's sort and top_k on every rank of `mpiexec -n N python -m pytest` (ctest runs
N = 1 to 4), against NumPy over the whole array: the sort bit for bit np.sort(kind="stable"),
top_k NumPy's stable ascending order read backwards, on data that breaks naive splitting."""

import numpy as np
import pytest
from mpi4py import MPI

import switchyard as sy
from switchyard import dist

COMM = MPI.COMM_WORLD


def special(rows):
    """NaN, ±inf, -0.0 beside 0.0, among repeats of small values."""
    cycle = np.array([np.nan, 1.5, -0.0, np.inf, 0.0, -2.0, -np.inf, 1.5, 0.0, -0.0, 3.0])
    return cycle[(np.arange(rows) * 7) % cycle.size]


def data(kind, rows, dtype):
    """The same values on every rank, from one seed."""
    normal = np.random.default_rng(7).standard_normal(rows)
    values = {"normal": normal * 1000, "few values": np.floor(normal * 2),
              "all equal": np.full(rows, 7.0), "special": special(rows)}[kind]
    return values.astype(dtype)


def spread(values, block_rows):
    layout = dist.Layout.row_blocks(values.shape[0], COMM.Get_size(), block_rows)
    return dist.DistArray.distribute(sy.asarray(values), layout)


CASES = [
    (1000, 7, np.float32, "normal"),
    (1001, 16, np.int64, "normal"),
    (999, 8, np.float64, "few values"),
    (640, 8, np.float32, "all equal"),
    (777, 5, np.float64, "special"),
    (777, 5, np.float32, "special"),
    (3, 1, np.float64, "special"),  # at 4 ranks, one holds none
    (0, 4, np.float32, "normal"),
]
IDS = [f"{rows}-{np.dtype(dtype)}-{kind}-{block}" for rows, block, dtype, kind in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_sort_is_numpys_stable_sort_bit_for_bit(case):
    rows, block_rows, dtype, kind = case
    values = data(kind, rows, dtype)
    got = dist.sort(spread(values, block_rows))
    assert got.layout.is_ragged
    assert got.layout.rows == rows and got.layout.block_rows == block_rows
    assert np.asarray(dist.gather(got)).tobytes() == np.sort(values, kind="stable").tobytes()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_top_k_is_numpys_stable_order_read_backwards(case):
    rows, block_rows, dtype, kind = case
    values = data(kind, rows, dtype)
    a = spread(values, block_rows)
    for k in sorted({0, min(1, rows), min(9, rows), rows}):
        got_values, got_positions = dist.top_k(a, k)
        want = np.argsort(values, kind="stable")[::-1][:k]
        assert np.asarray(got_positions).tolist() == want.tolist()
        assert np.asarray(got_values).tobytes() == values[want].tobytes()


def test_sort_spreads_equal_values_and_takes_ragged_and_replicated_arrays():
    size = COMM.Get_size()
    equal = dist.sort(spread(np.full(640, 7.0), 8))
    assert max(equal.layout.rows_of(r) for r in range(size)) <= 2 * -(-640 // size) + size
    values = special(400)
    keep = np.arange(400) < 133  # only the first rank's rows, at any rank count
    kept = dist.compress(spread(values, 4), spread(keep, 4))
    assert (np.asarray(dist.gather(dist.sort(kept))).tobytes()
            == np.sort(values[keep], kind="stable").tobytes())
    assert np.asarray(dist.top_k(kept, 20)[1]).tolist() == (
        np.argsort(values[keep], kind="stable")[::-1][:20].tolist())
    everywhere = dist.DistArray(sy.asarray(values), dist.Layout.replicated(400, size, 4))
    replicated = dist.sort(everywhere)
    assert replicated.layout.is_replicated
    assert np.asarray(replicated.local).tobytes() == np.sort(values, kind="stable").tobytes()


def test_sort_mistakes_are_typed_errors_on_every_rank():
    with pytest.raises(sy.ShapeError):
        dist.sort(spread(np.ones((12, 2)), 4))
    with pytest.raises(sy.ShapeError):
        dist.top_k(spread(np.ones((12, 2)), 4), 1)
    with pytest.raises(sy.DTypeError):
        dist.sort(spread(np.ones(12, dtype=bool), 4))
    with pytest.raises(sy.DTypeError):
        dist.top_k(spread(np.ones(12, dtype=np.int32), 4), 1)
    x = spread(np.arange(12), 4)
    with pytest.raises(sy.ValueError, match="given -1"):
        dist.top_k(x, -1)
    with pytest.raises(sy.ValueError):
        dist.top_k(x, 13)
    assert np.asarray(dist.gather(dist.sort(x))).tolist() == list(range(12))

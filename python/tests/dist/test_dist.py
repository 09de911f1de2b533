"""switchyard.dist on every rank of `mpiexec -n N python -m pytest` (ctest runs N = 1 to 4),
against NumPy over the whole array: reproducible sums bit-identical to the blocks' definition
(so identical at every N and on every rank) and within an epsilon bound of the exact sum; the
rest equal to NumPy. Every rank runs every test in the same order, as the collectives need."""

import math

import numpy as np
import pytest
from mpi4py import MPI

import switchyard as sy
from switchyard import dist

COMM = MPI.COMM_WORLD

# (rows, columns or 0 for a vector, block_rows, dtype), as the C++ tests.
CASES = [
    (1000, 3, 7, np.float32),  # the last block short (6 rows)
    (1000, 3, 7, np.float64),
    (4099, 0, 64, np.float32),  # a vector, the last block of 3
    (10, 0, 4, np.float64),  # 3 blocks: at 4 ranks, one has no rows
    (99005, 0, 33000, np.float32),  # long blocks: 16 levels of pairs
]


def global_array(rows, columns, dtype, seed=7):
    """The same values on every rank, from one seed."""
    shape = (rows, columns) if columns else (rows,)
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def spread(values, block_rows):
    layout = dist.Layout.row_blocks(values.shape[0], COMM.Get_size(), block_rows)
    return dist.DistArray.distribute(sy.asarray(values), layout)


def by_levels(values):
    """Neighbours added pairwise level by level, an odd last value carried up: the reproducible
    order, written again here."""
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size == 0:
        return 0.0
    while v.size > 1:
        carried = v[-1:] if v.size % 2 else v[:0]
        v = np.concatenate([v[: v.size - v.size % 2].reshape(-1, 2).sum(axis=1), carried])
    return float(v[0])


def block_definition(values, block_rows, squares):
    x = values.astype(np.float64)
    x = x * x if squares else x
    return by_levels([by_levels(x[i:i + block_rows]) for i in range(0, len(x), block_rows)])


def same_bits(a, b):
    return np.float64(a).tobytes() == np.float64(b).tobytes()


def on_every_rank(value):
    return COMM.allgather(value)


def exact_bound(values, squares):
    """The exact sum (math.fsum) and how far any order of float64 additions may stray from it:
    (n - 1)·ε·Σ|x| (Higham, ch. 4)."""
    x = values.astype(np.float64).ravel()
    x = x * x if squares else x
    return math.fsum(x), x.size * np.finfo(np.float64).eps * math.fsum(np.abs(x))


@pytest.mark.parametrize("rows, block_rows", [(0, 4), (10, 4), (1000, 7), (5, 100)])
def test_row_blocks_are_runs_of_whole_blocks_covering_every_row(rows, block_rows):
    layout = dist.Layout.row_blocks(rows, COMM.Get_size(), block_rows)
    assert layout.blocks == -(-rows // block_rows)
    row = 0
    for r in range(layout.ranks):
        assert layout.first_row(r) == row and layout.rows_of(r) >= 0
        assert layout.rows_of(r) <= layout.blocks_of(r) * block_rows
        row += layout.rows_of(r)
    assert row == rows
    assert [layout.blocks_of(r) for r in range(layout.ranks)] == [
        (r + 1) * layout.blocks // layout.ranks - r * layout.blocks // layout.ranks
        for r in range(layout.ranks)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{np.dtype(c[3])}-{c[2]}")
def test_reproducible_sums_are_the_block_definition_on_every_rank(case):
    rows, columns, block_rows, dtype = case
    values = global_array(rows, columns, dtype)
    a = spread(values, block_rows)
    got_sum, got_norm, got_mean = dist.sum(a), dist.norm(a), dist.mean(a)
    assert all(same_bits(s, got_sum) for s in on_every_rank(got_sum))
    assert all(same_bits(s, got_norm) for s in on_every_rank(got_norm))
    assert same_bits(got_sum, block_definition(values, block_rows, False))
    assert same_bits(got_norm, math.sqrt(block_definition(values, block_rows, True)))
    assert same_bits(got_mean, got_sum / values.size)
    exact, bound = exact_bound(values, False)
    assert abs(got_sum - exact) <= bound
    exact, bound = exact_bound(values, True)
    assert abs(got_norm**2 - exact) <= bound + 2 * np.finfo(np.float64).eps * exact


def places_work_runs():
    return ["cpu:0/inline", "cpu:0/parallel"] + [d.id for d in sy.devices()]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{np.dtype(c[3])}-{c[2]}")
def test_reproducible_sums_are_the_same_wherever_the_work_runs(case):
    rows, columns, block_rows, dtype = case
    values = global_array(rows, columns, dtype)
    a = spread(values, block_rows)
    want = block_definition(values * 2, block_rows, False)
    for place in places_work_runs():
        with sy.device(place):
            doubled = dist.map(lambda x: x * 2, a)  # exact on every device
            assert same_bits(dist.sum(doubled), want), place


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{np.dtype(c[3])}-{c[2]}")
def test_fast_sums_are_within_the_bound(case):
    rows, columns, block_rows, dtype = case
    values = global_array(rows, columns, dtype)
    a = spread(values, block_rows)
    exact, bound = exact_bound(values, False)
    assert abs(dist.sum(a, dist.Summation.FAST) - exact) <= bound
    exact, bound = exact_bound(values, True)
    assert abs(dist.norm(a, "fast") ** 2 - exact) <= bound + 2 * np.finfo(np.float64).eps * exact


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{np.dtype(c[3])}-{c[2]}")
def test_replicated_gives_the_row_blocks_result(case):
    rows, columns, block_rows, dtype = case
    values = global_array(rows, columns, dtype)
    blocks = spread(values, block_rows)
    everywhere = dist.DistArray(
        sy.asarray(values), dist.Layout.replicated(rows, COMM.Get_size(), block_rows))
    assert same_bits(dist.sum(everywhere), dist.sum(blocks))
    assert same_bits(dist.norm(everywhere), dist.norm(blocks))
    assert dist.argmax(everywhere) == dist.argmax(blocks)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{np.dtype(c[3])}-{c[2]}")
def test_extremes_are_numpys(case):
    rows, columns, block_rows, dtype = case
    values = global_array(rows, columns, dtype)
    a = spread(values, block_rows)
    assert dist.min(a) == values.min() and dist.max(a) == values.max()
    assert dist.argmin(a) == values.argmin() and dist.argmax(a) == values.argmax()


def test_ties_give_the_first_occurrence_and_nan_propagates():
    values = np.arange(200) % 10.0  # the maximum 9 on many ranks' rows, first at 9
    assert dist.argmax(spread(values, 3)) == 9
    assert dist.argmin(spread(values, 3)) == 0
    values[[150, 170]] = np.nan
    a = spread(values, 3)
    assert math.isnan(dist.max(a)) and math.isnan(dist.min(a))
    assert dist.argmax(a) == np.argmax(values) == 150
    assert dist.argmin(a) == np.argmin(values) == 150


def test_gather_and_redistribute_keep_every_row():
    values = global_array(103, 4, np.float32)
    a = spread(values, 5)
    np.testing.assert_array_equal(np.asarray(dist.gather(a)), values)
    onto_last = dist.Layout.row_blocks(103, [0] * (COMM.Get_size() - 1) + [a.layout.blocks], 5)
    for to in (onto_last, dist.Layout.row_blocks(103, COMM.Get_size(), 8),
               dist.Layout.replicated(103, COMM.Get_size(), 5)):
        moved = dist.redistribute(a, to)
        first = to.first_row(COMM.Get_rank())
        np.testing.assert_array_equal(np.asarray(moved.local),
                                      values[first:first + to.rows_of(COMM.Get_rank())])
        back = dist.redistribute(moved, a.layout)
        np.testing.assert_array_equal(np.asarray(back.local), np.asarray(a.local))


def test_matmul_by_a_replicated_operand_is_numpys():
    a_values, b_values = global_array(50, 6, np.float64), global_array(6, 3, np.float64, seed=8)
    a = spread(a_values, 4)
    b = dist.DistArray(sy.asarray(b_values), dist.Layout.replicated(6, COMM.Get_size()))
    product = dist.matmul(a, b)
    assert product.layout == a.layout and product.shape == (50, 3)
    np.testing.assert_allclose(np.asarray(dist.gather(product)), a_values @ b_values, rtol=1e-13)
    vector = dist.DistArray(sy.asarray(b_values[:, 0]), dist.Layout.replicated(6, COMM.Get_size()))
    np.testing.assert_allclose(np.asarray(dist.gather(dist.matmul(a, vector))),
                               a_values @ b_values[:, 0], rtol=1e-13)


def test_map_is_local_work_on_one_layout():
    values = global_array(40, 2, np.float64)
    a, b = spread(values, 4), spread(values * 3, 4)
    c = dist.map(lambda x, y: sy.sin(x) + y, a, b)
    assert c.layout == a.layout
    np.testing.assert_allclose(np.asarray(dist.gather(c)), np.sin(values) + 3 * values,
                               rtol=1e-14)


def test_mistakes_are_typed_errors():
    size = COMM.Get_size()
    values = global_array(40, 2, np.float64)
    a = spread(values, 4)
    with pytest.raises(dist.LayoutError):
        dist.map(lambda x, y: x + y, a, spread(values, 8))
    with pytest.raises(dist.LayoutError):
        dist.DistArray(sy.asarray(values), dist.Layout.replicated(40, size + 1))
    with pytest.raises(sy.ShapeError):
        dist.DistArray(sy.asarray(values[:1]), dist.Layout.replicated(40, size))
    with pytest.raises(dist.LayoutError):
        dist.matmul(a, spread(global_array(2, 2, np.float64), 1))
    with pytest.raises(sy.ShapeError):
        dist.matmul(a, dist.DistArray(sy.ones((3,)), dist.Layout.replicated(3, size)))
    with pytest.raises(dist.LayoutError):
        dist.redistribute(a, dist.Layout.row_blocks(41, size))
    with pytest.raises(sy.ValueError):
        dist.Layout.row_blocks(40, [1] * size, 4)  # 10 blocks, not size
    ints = spread(np.arange(12), 4)
    with pytest.raises(sy.DTypeError):
        dist.sum(ints)
    with pytest.raises(sy.DTypeError):
        dist.max(ints)
    empty = spread(np.zeros((0, 3)), 4)
    with pytest.raises(sy.ValueError):
        dist.max(empty)
    with pytest.raises(sy.ValueError):
        dist.argmax(empty)
    assert dist.sum(empty) == 0.0
    assert math.isnan(dist.mean(empty))

"""switchyard.dist on every rank of `mpiexec -n N python -m pytest` (ctest runs N = 1 to 4),
against NumPy over the whole array: reproducible sums and scans bit-identical to the blocks'
definition (so identical at every N and on every rank) and within an epsilon bound of the exact
result; the rest equal to NumPy. Every rank runs every test in the same order, as the
collectives need."""

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


SCAN_CASES = [pytest.param(case, scan, id=f"cum{scan}-{case[0]}x{case[1]}-"
                           f"{np.dtype(case[3])}-{case[2]}")
              for scan in ("sum", "prod") for case in CASES]


def scan_data(case, scan):
    """Normal values to add; values within 5% of 1 to multiply, whose products over 10^5 rows
    stay far from overflow and underflow."""
    rows, columns, _, dtype = case
    values = global_array(rows, columns, dtype)
    return values if scan == "sum" else (values * 0.01 + 1).astype(dtype)


def scanned(a, scan, mode=dist.Summation.REPRODUCIBLE):
    return dist.cumsum(a, mode=mode) if scan == "sum" else dist.cumprod(a, mode=mode)


def scan_definition(values, block_rows, scan):
    """The reproducible scan's definition, written again row by row: each block scanned on its
    own in float64, each of its rows combined with the fold of the earlier blocks' last rows in
    block order (starting from -0.0 or 1), rounded once to the dtype."""
    step = np.add if scan == "sum" else np.multiply
    x = values.astype(np.float64).reshape(len(values), -1)
    out = np.empty_like(x)
    offset = np.full(x.shape[1], -0.0 if scan == "sum" else 1.0)
    for first in range(0, len(x), block_rows):
        running = x[first]
        out[first] = step(offset, running)
        for i in range(first + 1, min(first + block_rows, len(x))):
            running = step(running, x[i])
            out[i] = step(offset, running)
        offset = step(offset, running)
    return out.reshape(values.shape).astype(values.dtype)


def assert_scan_within_bound(got, values, scan):
    """Any order of i additions (multiplications) of rows 0..i errs by at most i·u·Σ|x| (i·u·|Πx|
    to first order, Higham ch. 3-4), u = ε/2 of the dtype the work is done in; the float32
    reproducible scan works in float64 and rounds once. (i + 1)·ε bounds both. The exact scan in
    long double, whose own error is far below that."""
    x = values.astype(np.longdouble)
    exact = np.cumsum(x, axis=0) if scan == "sum" else np.cumprod(x, axis=0)
    magnitude = np.cumsum(np.abs(x), axis=0) if scan == "sum" else np.abs(exact)
    i = np.arange(1, len(values) + 1).reshape((-1,) + (1,) * (values.ndim - 1))
    bound = i * np.finfo(values.dtype).eps * magnitude
    assert np.all(np.abs(np.asarray(got).astype(np.longdouble) - exact) <= bound)


def same_array_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("case, scan", SCAN_CASES)
def test_reproducible_scans_are_the_block_definition_and_the_one_process_scan(case, scan):
    rows, _, block_rows, dtype = case
    values = scan_data(case, scan)
    a = spread(values, block_rows)
    got = scanned(a, scan)
    assert got.layout == a.layout and got.dtype == a.dtype
    whole = np.asarray(dist.gather(got))
    assert same_array_bits(whole, scan_definition(values, block_rows, scan))
    alone = dist.DistArray.distribute(
        sy.asarray(values), dist.Layout.row_blocks(rows, 1, block_rows), MPI.COMM_SELF)
    assert same_array_bits(whole, scanned(alone, scan).local)
    assert_scan_within_bound(whole, values, scan)


@pytest.mark.parametrize("case, scan", SCAN_CASES)
def test_fast_scans_are_within_the_bound(case, scan):
    values = scan_data(case, scan)
    a = spread(values, case[2])
    got = scanned(a, scan, "fast")
    assert got.layout == a.layout and got.dtype == a.dtype
    assert_scan_within_bound(np.asarray(dist.gather(got)), values, scan)


@pytest.mark.parametrize("case, scan", SCAN_CASES)
def test_replicated_scans_give_the_row_blocks_result(case, scan):
    rows, _, block_rows, _ = case
    values = scan_data(case, scan)
    everywhere = dist.DistArray(
        sy.asarray(values), dist.Layout.replicated(rows, COMM.Get_size(), block_rows))
    got = scanned(everywhere, scan)
    assert got.layout == everywhere.layout
    assert same_array_bits(got.local, dist.gather(scanned(spread(values, block_rows), scan)))
    assert_scan_within_bound(scanned(everywhere, scan, "fast").local, values, scan)


@pytest.mark.parametrize("case, scan", SCAN_CASES[:2] + SCAN_CASES[5:7])
def test_reproducible_scans_are_the_same_wherever_the_work_runs(case, scan):
    values = scan_data(case, scan)
    a = spread(values, case[2])
    want = scan_definition(-values, case[2], scan)
    for place in places_work_runs():
        with sy.device(place):
            negated = dist.map(lambda x: -x, a)  # exact on every device, and products stay finite
            assert same_array_bits(dist.gather(scanned(negated, scan)), want), place


def test_int64_scans_are_numpys_in_both_modes():
    values = np.array([-1, 2, 1, 3, -2] * 16, dtype=np.int64).reshape(-1, 2)  # |Π| ≤ 10^9
    a = spread(values, 5)
    for mode in ("reproducible", "fast"):
        assert same_array_bits(dist.gather(dist.cumsum(a, mode=mode)), np.cumsum(values, axis=0))
        assert same_array_bits(dist.gather(dist.cumprod(a, mode=mode)),
                               np.cumprod(values, axis=0))


def test_scans_of_empty_arrays_and_negative_zero():
    for shape in ((0,), (0, 3)):
        for mode in ("reproducible", "fast"):
            empty = spread(np.zeros(shape), 4)
            assert dist.cumsum(empty, mode=mode).shape == shape
            assert dist.cumprod(empty, mode=mode).shape == shape
    zeros = np.full(9, -0.0)  # NumPy's cumsum keeps a leading -0.0, and so does this one
    assert same_array_bits(dist.gather(dist.cumsum(spread(zeros, 2))), np.cumsum(zeros))


def test_scan_mistakes_are_typed_errors():
    a = spread(global_array(12, 3, np.float64), 4)
    with pytest.raises(sy.ValueError):
        dist.cumsum(a, axis=1)
    with pytest.raises(sy.AxisError):
        dist.cumprod(a, axis=2)
    assert same_array_bits(dist.gather(dist.cumsum(a, axis=-2)), dist.gather(dist.cumsum(a)))
    for dtype in (np.bool_, np.int32, np.complex64):
        with pytest.raises(sy.DTypeError):
            dist.cumsum(spread(np.zeros(12, dtype=dtype), 4))
        with pytest.raises(sy.DTypeError):
            dist.cumprod(spread(np.zeros(12, dtype=dtype), 4), mode="fast")


def rows_over(values):
    """The mask of the rows whose first element exceeds 0.3, and those rows, by NumPy."""
    keep = (values if values.ndim == 1 else values[:, 0]) > 0.3
    return keep, values[keep]


@pytest.mark.parametrize("rows, columns, block_rows", [(101, 3, 8), (10, 0, 4), (0, 2, 4)])
def test_compress_keeps_the_selected_rows_in_a_ragged_layout(rows, columns, block_rows):
    values = global_array(rows, columns, np.float64)
    keep, want = rows_over(values)
    a = spread(values, block_rows)
    kept = dist.compress(a, spread(keep, block_rows))
    assert kept.layout.is_ragged and kept.layout.block_rows == block_rows
    assert kept.shape == want.shape
    me = COMM.Get_rank()
    first = a.layout.first_row(me)
    assert kept.layout.rows_of(me) == keep[first:first + a.layout.rows_of(me)].sum()
    np.testing.assert_array_equal(np.asarray(dist.gather(kept)), want)


@pytest.mark.parametrize("rows, columns, block_rows", [(101, 3, 8), (10, 0, 4), (0, 2, 4)])
def test_ragged_goes_back_to_row_blocks_for_the_reproducible_work(rows, columns, block_rows):
    values = global_array(rows, columns, np.float64)
    keep, want = rows_over(values)
    kept = dist.compress(spread(values, block_rows), spread(keep, block_rows))
    blocks = dist.Layout.row_blocks(len(want), COMM.Get_size(), block_rows)
    balanced = dist.redistribute(kept, blocks)
    direct = dist.DistArray.distribute(sy.asarray(want), blocks)
    np.testing.assert_array_equal(np.asarray(balanced.local), np.asarray(direct.local))
    assert same_bits(dist.sum(balanced), dist.sum(direct))
    assert same_array_bits(dist.gather(dist.cumsum(balanced)), dist.gather(dist.cumsum(direct)))
    with pytest.raises(dist.LayoutError):
        dist.sum(kept)
    with pytest.raises(dist.LayoutError):
        dist.cumsum(kept)
    exact, bound = exact_bound(want, False)
    assert abs(dist.sum(kept, "fast") - exact) <= bound
    assert_scan_within_bound(dist.gather(dist.cumsum(kept, mode="fast")), want, "sum")
    if len(want):
        assert dist.max(kept) == want.max() and dist.argmax(kept) == want.argmax()


def test_compress_keeps_replicated_arrays_replicated_and_checks_its_mask():
    size = COMM.Get_size()
    values = global_array(30, 2, np.float64)
    keep, want = rows_over(values)
    everywhere = dist.Layout.replicated(30, size, 4)
    kept = dist.compress(dist.DistArray(sy.asarray(values), everywhere),
                         dist.DistArray(sy.asarray(keep), everywhere))
    assert kept.layout == dist.Layout.replicated(len(want), size, 4)
    np.testing.assert_array_equal(np.asarray(kept.local), want)
    a = spread(values, 4)
    with pytest.raises(sy.DTypeError):
        dist.compress(a, spread(np.ones(30, np.float32), 4))
    with pytest.raises(sy.ShapeError):
        dist.compress(a, spread(np.ones((30, 2), bool), 4))
    with pytest.raises(dist.LayoutError):
        dist.compress(a, spread(keep, 3))


def test_ragged_layouts_hold_chosen_row_counts():
    layout = dist.Layout.ragged([3, 0, 5, 1], 4)
    assert layout.is_ragged and layout.rows == 9 and layout.ranks == 4
    assert [layout.first_row(r) for r in range(4)] == [0, 3, 3, 8]
    assert [layout.rows_of(r) for r in range(4)] == [3, 0, 5, 1]
    assert layout != dist.Layout.row_blocks(9, 4, 4)
    with pytest.raises(dist.LayoutError):
        layout.first_block(0)
    with pytest.raises(sy.ValueError):
        dist.Layout.ragged([3, -1])

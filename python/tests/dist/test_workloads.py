"""The field, the MLP's data-parallel training and the oscillator network (switchyard.dist.field,
switchyard.dist.nn, switchyard.dist.oscillators) on every rank of `mpiexec -n N python -m
pytest` (ctest runs N = 1 to 4), against the same program on one process (this rank alone,
MPI.COMM_SELF) and against the one-process apps: reproducible results bit-identical at any rank
count, within a bound of the one-process apps', which add in another order. Every rank runs every
test in the same order, as the collectives need; the work is pinned to the CPU, whose kernels the
one-process runs use too."""

import numpy as np
import pytest
from mpi4py import MPI

import switchyard as sy
from switchyard import dist
from switchyard.apps import field as app_field
from switchyard.apps import nn
from switchyard.apps import oscillators as osc
from switchyard.dist import field
from switchyard.dist import nn as dist_nn
from switchyard.dist import oscillators as dist_osc

COMM = MPI.COMM_WORLD


@pytest.fixture(autouse=True)
def on_the_cpu():
    with sy.device("cpu:0"):
        yield


def same_bits(a, b):
    return np.asarray(a, dtype=np.float64).tobytes() == np.asarray(b, dtype=np.float64).tobytes()


# (width, height, block_rows, dtype), as the C++ tests.
GRIDS = [(37, 45, 4, "float32"), (64, 30, 8, "float64"), (16, 10, 4, "float64"),
         (300, 200, 16, "float32")]


def field_bound(width, height, dtype, t, **wave):
    """How far the one-process statistics may be from the distributed ones: two sums of the same
    n terms in different orders, each within about n·ε·Σ|term| of the exact one (Higham, ch. 4)."""
    f = np.asarray(app_field.frame(width, height, t, dtype=dtype, **wave), dtype=np.float64)
    n = f.size
    scale = 2 * (n + 1) * np.finfo(dtype).eps
    return {"mean": scale * np.abs(f).sum() / n, "energy": scale * (f * f).sum() / n,
            "coherence": 2 * scale}


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: f"{g[0]}x{g[1]}-{g[3]}-{g[2]}")
def test_field_rows_are_the_one_process_frame(grid):
    width, height, block_rows, dtype = grid
    rows = field.frame(width, height, 0.25, block_rows=block_rows, dtype=dtype)
    got = np.asarray(dist.gather(rows))
    assert got.tobytes() == np.asarray(app_field.frame(width, height, 0.25, dtype=dtype)).tobytes()


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: f"{g[0]}x{g[1]}-{g[3]}-{g[2]}")
def test_field_statistics_are_the_same_at_any_rank_count(grid):
    width, height, block_rows, dtype = grid
    wave = {"twist": 2.0, "center": (-0.1, -0.2)}
    got = field.statistics(width, height, 0.5, block_rows=block_rows, dtype=dtype, **wave)
    alone = field.statistics(width, height, 0.5, comm=MPI.COMM_SELF, block_rows=block_rows,
                             dtype=dtype, **wave)
    want = app_field.statistics(width, height, 0.5, dtype=dtype, **wave)
    bound = field_bound(width, height, dtype, 0.5, **wave)
    for key in ("mean", "energy", "coherence"):
        assert same_bits(got[key], alone[key]), key
        assert all(same_bits(v, got[key]) for v in COMM.allgather(got[key])), key
        assert abs(got[key] - want[key]) <= bound[key], key


@pytest.mark.parametrize("grid", GRIDS[:2], ids=lambda g: f"{g[0]}x{g[1]}-{g[3]}-{g[2]}")
def test_field_animate_and_fast_mode(grid):
    width, height, block_rows, dtype = grid
    got = field.animate(width, height, 3, 0.1, 0.2, block_rows=block_rows, dtype=dtype)
    alone = field.animate(width, height, 3, 0.1, 0.2, comm=MPI.COMM_SELF,
                          block_rows=block_rows, dtype=dtype)
    fast = field.animate(width, height, 3, 0.1, 0.2, block_rows=block_rows, dtype=dtype,
                         mode=dist.Summation.FAST)
    want = app_field.animate(width, height, 3, 0.1, 0.2, dtype=dtype)
    assert same_bits(got["t"], want["t"])
    for i, t in enumerate(want["t"]):
        bound = field_bound(width, height, dtype, t)
        for key in ("mean", "energy", "coherence"):
            assert same_bits(got[key][i], alone[key][i]), (i, key)
            assert abs(got[key][i] - want[key][i]) <= bound[key], (i, key)
            assert abs(fast[key][i] - want[key][i]) <= bound[key], (i, key)


def test_field_errors_are_typed_on_every_rank():
    with pytest.raises(sy.ValueError):
        field.statistics(8, 8, block_rows=0)
    with pytest.raises(sy.ValueError):
        field.statistics(0, 8, block_rows=4)
    with pytest.raises(sy.DTypeError):
        field.statistics(8, 8, block_rows=4, dtype="int32")
    with pytest.raises(sy.ValueError):
        field.statistics(8, 8, float("nan"), block_rows=4)
    with pytest.raises(sy.ValueError):
        field.animate(8, 8, -1, 0.1, block_rows=4)
    with pytest.raises(sy.ValueError):
        field.animate(8, 8, 0, float("inf"), block_rows=4)


BATCH, FEATURES, CLASSES, STEPS = 90, 6, 3, 3

# (block_rows, dtype, optimizer), as the C++ tests.
TRAININGS = [(8, "float64", "adam"), (8, "float32", "sgd"), (30, "float64", "sgd"),
             (7, "float32", "adam"), (128, "float64", "adam"), (128, "float32", "adam")]


def optimizer(kind):
    return nn.Adam(0.01) if kind == "adam" else nn.SGD(0.1, 0.9)


def weights(model):
    return np.concatenate([np.asarray(p, dtype=np.float64).ravel() for p in model.parameters])


def train_spread(block_rows, dtype, kind, comm=None, mode=dist.Summation.REPRODUCIBLE):
    x, labels = nn.make_classification(BATCH, FEATURES, CLASSES, seed=1, dtype=dtype)
    batch = dist_nn.distribute(x, labels, comm=comm, block_rows=block_rows)
    trainer = dist_nn.DistTrainer(nn.MLP([FEATURES, 8, CLASSES], seed=2, dtype=dtype),
                                  optimizer(kind), mode)
    losses = [trainer.train_step(batch) for _ in range(STEPS)]
    return np.asarray(losses), weights(trainer.model)


def train_one_process(dtype, kind):
    x, labels = nn.make_classification(BATCH, FEATURES, CLASSES, seed=1, dtype=dtype)
    trainer = nn.Trainer(nn.MLP([FEATURES, 8, CLASSES], seed=2, dtype=dtype), optimizer(kind))
    losses = [nn.train_step(trainer, x, labels) for _ in range(STEPS)]
    return np.asarray(losses), weights(trainer.model)


def assert_near(got, want, dtype):
    """A step's gradient adds BATCH rows' terms in another order, off by about BATCH·ε
    relative; three steps of lr <= 0.1 carry that into the weights far below this bound."""
    tolerance = 1e-4 if dtype == "float32" else 1e-11
    np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("case", TRAININGS, ids=lambda c: f"{c[1]}-{c[2]}-{c[0]}")
def test_training_gives_the_same_weights_at_any_rank_count(case):
    block_rows, dtype, kind = case
    losses, trained = train_spread(block_rows, dtype, kind)
    alone_losses, alone = train_spread(block_rows, dtype, kind, comm=MPI.COMM_SELF)
    assert same_bits(losses, alone_losses)
    assert same_bits(trained, alone)
    assert all(same_bits(w, trained) for w in COMM.allgather(trained))
    app_losses, app = train_one_process(dtype, kind)
    if block_rows >= BATCH:  # one block: the one-process step's own sums
        assert same_bits(losses, app_losses)
        assert same_bits(trained, app)
    else:
        assert_near(losses, app_losses, dtype)
        assert_near(trained, app, dtype)


@pytest.mark.parametrize("case", TRAININGS[:4], ids=lambda c: f"{c[1]}-{c[2]}-{c[0]}")
def test_fast_training_is_the_same_on_every_rank_and_near_one_process(case):
    block_rows, dtype, kind = case
    losses, trained = train_spread(block_rows, dtype, kind, mode="fast")
    assert all(same_bits(w, trained) for w in COMM.allgather(trained))
    app_losses, app = train_one_process(dtype, kind)
    assert_near(losses, app_losses, dtype)
    assert_near(trained, app, dtype)


def test_training_errors_are_typed_on_every_rank():
    x, labels = nn.make_classification(20, FEATURES, CLASSES, seed=1, dtype="float64")
    trainer = dist_nn.DistTrainer(nn.MLP([FEATURES, 8, CLASSES], seed=2, dtype="float64"),
                                  optimizer("adam"))
    good = dist_nn.distribute(x, labels, block_rows=4)
    with pytest.raises(sy.ShapeError):
        trainer.train_step(dist_nn.DistBatch(good.x, good.x))
    with pytest.raises(sy.DTypeError):
        trainer.train_step(dist_nn.DistBatch(good.x, dist.map(
            lambda v: sy.astype(v, sy.float64), good.labels)))
    with pytest.raises(dist.LayoutError):
        trainer.train_step(dist_nn.DistBatch(
            good.x, dist_nn.distribute(x, labels, block_rows=8).labels))
    everywhere = dist.Layout.replicated(20, COMM.Get_size(), 4)
    with pytest.raises(dist.LayoutError):
        trainer.train_step(dist_nn.DistBatch(dist.DistArray(x, everywhere),
                                             dist.DistArray(labels, everywhere)))
    with pytest.raises(sy.ShapeError):
        trainer.train_step(dist_nn.distribute(x[:, :4], labels, block_rows=4))
    with pytest.raises(sy.ValueError):
        trainer.train_step(dist_nn.distribute(np.zeros((0, FEATURES)), np.zeros(0, np.int64),
                                              block_rows=4))
    assert np.isfinite(trainer.train_step(good))


# (nodes, block_rows, method, coupling), as the C++ tests: blocks of 8 rows, the last of 5, so
# that 4 ranks all hold some.
NETWORKS = [(45, 8, "euler", "matvec"), (45, 8, "rk4", "matvec"), (45, 8, "euler", "direct")]


def oscillator_bound(phases, n, dt, steps, strength):
    """How far the one-process run may be from the distributed one: each step's rates, sums of n
    terms |K_ij| <= 2·strength in another order, differ by up to about 2(n + 1)·ε·2·strength
    (Higham, ch. 4); a difference grows through the steps at most by the rate's Lipschitz
    constant L = 2·2·strength: e^(L·dt·steps). Plus the rounding of θ itself, ε·|θ| per
    step."""
    eps = np.finfo(np.float64).eps
    per_step = dt * 2 * (n + 1) * eps * 2 * strength + eps * np.max(np.abs(phases))
    return steps * per_step * np.exp(4 * strength * dt * steps)


@pytest.mark.parametrize("case", NETWORKS, ids=lambda c: f"{c[2]}-{c[3]}")
def test_oscillators_are_the_same_at_any_rank_count(case):
    nodes, block_rows, method, coupling = case
    network = osc.random_network(nodes, seed=3, coupling_strength=2.0)
    theta0 = osc.random_phases(nodes, seed=4)
    run = {"dt": 0.01, "steps": 40, "method": method, "coupling": coupling, "record_every": 10}
    phases, r, steps = dist_osc.simulate(dist_osc.distribute(network, block_rows=block_rows),
                                         theta0, return_steps=True, **run)
    alone, alone_r = dist_osc.simulate(
        dist_osc.distribute(network, comm=MPI.COMM_SELF, block_rows=block_rows), theta0, **run)
    assert same_bits(phases, alone) and same_bits(r, alone_r)
    assert steps.tolist() == [0, 10, 20, 30, 40]
    assert all(same_bits(p, phases) for p in COMM.allgather(np.asarray(phases)))
    app, app_r = osc.simulate(*network, theta0, **run)
    bound = oscillator_bound(np.asarray(app), nodes, 0.01, 40, 2.0)
    np.testing.assert_allclose(np.asarray(phases), np.asarray(app), rtol=0, atol=bound)
    np.testing.assert_allclose(r, app_r, rtol=0, atol=bound)


def test_oscillator_errors_are_typed_on_every_rank():
    network = dist_osc.distribute(osc.random_network(10, seed=1), block_rows=4)
    with pytest.raises(sy.ShapeError):
        dist_osc.simulate(network, osc.random_phases(11, seed=2))
    with pytest.raises(sy.ValueError, match="dt must be positive"):
        dist_osc.simulate(network, osc.random_phases(10, seed=2), dt=-1)
    with pytest.raises(sy.ValueError, match="method"):
        dist_osc.simulate(network, osc.random_phases(10, seed=2), method="midpoint")
    with pytest.raises(sy.ShapeError, match="square"):
        dist_osc.distribute((sy.zeros((10, 9)), sy.zeros(10)))
    huge = dist_osc.distribute((sy.full((10, 10), 1e308), sy.zeros(10)), block_rows=4)
    with pytest.raises(sy.ValueError, match="NaN by step"):
        dist_osc.simulate(huge, osc.random_phases(10, seed=2), steps=5)

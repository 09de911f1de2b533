"""Data-parallel training of the MLP (switchyard.apps.nn) across the ranks of an MPI job, as
C++'s nn_dist.hpp and with the same bits: each rank holds a run of row blocks of the batch and
the whole model; a step computes the gradients of its own rows, sums them across the ranks, and
every rank applies the same update to its copy.

Summation.REPRODUCIBLE makes the block of rows the unit of the sum: each block's loss and
gradients (its share rows/batch of the mean loss) are read to the host in float64 and added over
the blocks in one fixed pairwise order (neighbours level by level, an odd last carried up), then
rounded once to the model's dtype. Each rank adds the subtrees of that order whose blocks it
holds whole and allgathers those sums; every rank then completes the tree. The trained weights
are bit-identical for any number of ranks, and with one block for the whole batch they are the
one-process Trainer's. Summation.FAST takes each rank's rows in one pass and sums with one
MPI_Allreduce: the last bits then change with the ranks. Bit-identical runs need every process
to run the CPU's kernels the same way: SWITCHYARD_NATIVE=off.

    from switchyard.apps import nn
    from switchyard.dist import nn as dist_nn
    x, labels = nn.make_classification(4096, 784, 10, seed=1)
    batch = dist_nn.distribute(x, labels, block_rows=64)
    trainer = dist_nn.DistTrainer(nn.MLP([784, 256, 10], seed=8), nn.Adam())
    loss = trainer.train_step(batch)          # the same on every rank
"""

from __future__ import annotations

import copy

import numpy as np
from mpi4py import MPI

import switchyard as sy

from .. import _switchyard
from .._dtypes import _numpy_dtype
from ._dist_array import DistArray, require_same_layout
from ._layout import DEFAULT_BLOCK_ROWS, Layout, LayoutError
from ._redistribute import gather
from ._reductions import Summation

__all__ = ["DistBatch", "DistTrainer", "distribute"]

_nn = _switchyard.apps.nn


class DistBatch:
    """This rank's rows of a batch: x (rows, features) and labels (rows) integers, in one
    layout."""

    def __init__(self, x: DistArray, labels: DistArray):
        self.x, self.labels = x, labels


def distribute(x, labels, comm=None, block_rows: int = DEFAULT_BLOCK_ROWS) -> DistBatch:
    """This rank's rows of a batch every rank holds whole, in row blocks of block_rows."""
    comm = MPI.COMM_WORLD if comm is None else comm
    x, labels = sy.asarray(x), sy.asarray(labels)
    layout = Layout.row_blocks(x.shape[0], comm.Get_size(), block_rows)
    return DistBatch(DistArray.distribute(x, layout, comm),
                     DistArray.distribute(labels, layout, comm))


def _flattened(pieces) -> np.ndarray:
    """The loss followed by every gradient, flattened, in float64: what crosses between ranks."""
    return np.concatenate([np.asarray(a, dtype=np.float64).ravel() for a in pieces])


class _BlockTree:
    """The pairwise order over the blocks [0, n) of a row-block layout: node (first, width),
    width a power of two, covers blocks [first, min(first + width, n)) and is its left half plus
    its right half, or its left half alone when the right one starts at or past n."""

    def __init__(self, layout: Layout, comm):
        self._layout, self._comm = layout, comm
        self._n = layout.blocks
        self._root = 1
        while self._root < self._n:
            self._root *= 2

    def _rank_of(self, block: int) -> int:
        r = 0
        while block >= self._layout.first_block(r) + self._layout.blocks_of(r):
            r += 1
        return r

    def _holder(self, first: int, width: int) -> int:
        """The rank that holds every block of the node, or -1 when several ranks do."""
        a, b = self._rank_of(first), self._rank_of(min(first + width, self._n) - 1)
        return a if a == b else -1

    def _has_right(self, first: int, width: int) -> bool:
        return first + width // 2 < self._n

    def _whole(self, first: int, width: int):
        """The nodes whose blocks one rank holds whole, left to right: (first, width, rank)."""
        holder = self._holder(first, width)
        if holder >= 0:
            yield first, width, holder
            return
        yield from self._whole(first, width // 2)
        if self._has_right(first, width):
            yield from self._whole(first + width // 2, width // 2)

    def _subtree(self, first: int, width: int, partial_of) -> np.ndarray:
        if width == 1:
            return partial_of(first)
        left = self._subtree(first, width // 2, partial_of)
        if not self._has_right(first, width):
            return left
        return left + self._subtree(first + width // 2, width // 2, partial_of)

    def _completed(self, first: int, width: int, every: list) -> np.ndarray:
        if self._holder(first, width) >= 0:
            return every.pop(0)
        left = self._completed(first, width // 2, every)
        if not self._has_right(first, width):
            return left
        return left + self._completed(first + width // 2, width // 2, every)

    def sum(self, partial_of, size: int) -> np.ndarray:
        """Every block's partial (size float64) summed in the tree's order, on every rank;
        partial_of(block) is called for this rank's blocks only."""
        rank = self._comm.Get_rank()
        nodes = [0] * self._layout.ranks
        mine = []
        for first, width, holder in self._whole(0, self._root):
            nodes[holder] += 1
            if holder == rank:
                mine.append(self._subtree(first, width, partial_of))
        local = np.asarray(mine, dtype=np.float64).reshape(nodes[rank], size)
        every = np.asarray(gather(DistArray(local, Layout.ragged(nodes), self._comm)))
        return self._completed(0, self._root, list(every))


class DistTrainer:
    """Trains a copy of `model` (switchyard.apps.nn.MLP) with `optimizer` (nn.SGD, nn.Adam) on
    batches spread over the ranks; the trained model is .model, the same on every rank."""

    def __init__(self, model, optimizer, mode: Summation | str = Summation.REPRODUCIBLE):
        if optimizer is None:
            raise sy.ValueError("optimizer: expected an optimizer, given None")
        self._model = copy.copy(model)  # as C++'s DistTrainer, which takes the model by value
        self._optimizer = optimizer
        self._mode = Summation(mode)
        self._state = optimizer.initial_state(list(model.parameters))

    @property
    def model(self):
        return self._model

    def _check(self, batch: DistBatch) -> None:
        require_same_layout("train_step", batch.x, batch.labels)
        layout = batch.x.layout
        layout.require_blocks("train_step")
        if layout.is_replicated:
            raise LayoutError("train_step: expected the batch in row blocks, given a replicated "
                              "one; distribute it")
        features = self._model.sizes[0]
        if batch.x.ndim != 2 or batch.x.shape[1] != features:
            raise sy.ShapeError(f"x: expected shape (batch, {features}), given {batch.x.shape}")
        if batch.labels.ndim != 1:
            raise sy.ShapeError(f"labels: expected shape ({batch.x.shape[0]},), given "
                                f"{batch.labels.shape}")
        if not sy.isdtype(batch.labels.dtype, "integral"):
            raise sy.DTypeError("labels: expected integer class indices, given "
                                f"{batch.labels.dtype}")
        if layout.rows == 0:
            raise sy.ValueError("train_step: expected a batch of >= 1 rows, given 0")

    def train_step(self, batch: DistBatch) -> float:
        """Collective: one step on the batch whose rows the ranks hold; returns the whole
        batch's mean loss before the update, the same on every rank. The batch's errors are
        raised on every rank before any communication."""
        self._check(batch)
        layout, comm = batch.x.layout, batch.x.comm
        rank = comm.Get_rank()
        parameters = list(self._model.parameters)
        x = sy.astype(batch.x.local, self._model.dtype)
        labels = batch.labels.local
        size = 1 + sum(p.size for p in parameters)

        def rows(begin: int, end: int) -> list:
            """The loss and gradients of this rank's rows [begin, end), as their share of the
            batch's, lazy."""
            loss, gradients = _nn.loss_and_gradients(self._model, parameters, x[begin:end],
                                                     labels[begin:end],
                                                     (end - begin) / layout.rows)
            return [loss, *gradients]

        mine = layout.rows_of(rank)
        if self._mode is Summation.REPRODUCIBLE:
            first, block_rows = layout.first_block(rank), layout.block_rows

            def block(b: int) -> np.ndarray:
                begin = (b - first) * block_rows
                return _flattened(rows(begin, min(begin + block_rows, mine)))

            total = _BlockTree(layout, comm).sum(block, size)
        else:
            total = _flattened(rows(0, mine)) if mine else np.zeros(size)
            comm.Allreduce(MPI.IN_PLACE, total, op=MPI.SUM)
        return self._update(total.astype(_numpy_dtype(self._model.dtype)))

    def _update(self, total: np.ndarray) -> float:
        """Applies the summed gradients (rounded to the model's dtype); returns the loss."""
        parameters = list(self._model.parameters)
        gradients, at = [], 1
        for p in parameters:
            gradients.append(sy.asarray(total[at:at + p.size].reshape(p.shape)))
            at += p.size
        out = self._optimizer.update(parameters, gradients, self._state)
        sy.eval(*out)
        self._model.set_parameters(out[:len(parameters)])
        self._state = out[len(parameters):]
        return float(total[0])

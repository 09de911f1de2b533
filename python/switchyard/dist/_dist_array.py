"""A distributed array: this rank's rows of a global array (a local Switchyard array) and the
layout that says which rows every rank holds, as in C++ (dist_array.hpp). Work on the local
rows is ordinary Switchyard work, lazy and fused, on this rank's devices; only the functions of
_redistribute.py and _reductions.py communicate, and each says so."""

from __future__ import annotations

from mpi4py import MPI

import switchyard as sy

from ._layout import Layout, LayoutError


def _require_ranks(function: str, layout: Layout, comm: MPI.Comm) -> None:
    if layout.ranks != comm.Get_size():
        raise LayoutError(
            f"{function}: the layout is for {layout.ranks} ranks, the communicator has "
            f"{comm.Get_size()}; make the layout with comm.Get_size() ranks")


class DistArray:
    def __init__(self, local, layout: Layout, comm: MPI.Comm | None = None):
        """`local` holds this rank's rows: layout.rows_of(comm.rank) along axis 0, the other
        axes whole. LayoutError when the layout is for another number of ranks, ShapeError when
        the local rows do not match it. comm is an mpi4py communicator (COMM_WORLD when None)."""
        self._comm = MPI.COMM_WORLD if comm is None else comm
        _require_ranks("DistArray", layout, self._comm)
        self._local = sy.asarray(local)
        self._layout = layout
        rows = layout.rows_of(self._comm.Get_rank())
        if self._local.ndim == 0 or self._local.shape[0] != rows:
            raise sy.ShapeError(
                f"DistArray: rank {self._comm.Get_rank()} holds {rows} rows of the layout along "
                f"axis 0, given a local array of shape {self._local.shape}")

    @classmethod
    def distribute(cls, global_, layout: Layout, comm: MPI.Comm | None = None) -> DistArray:
        """This rank's rows of `global_`, an array every rank holds whole (read from one file,
        made from one seed): a view, no communication."""
        comm = MPI.COMM_WORLD if comm is None else comm
        _require_ranks("DistArray.distribute", layout, comm)
        global_ = sy.asarray(global_)
        if global_.ndim == 0 or global_.shape[0] != layout.rows:
            raise sy.ShapeError(
                f"DistArray.distribute: the layout has {layout.rows} rows, given a global array "
                f"of shape {global_.shape}")
        first = layout.first_row(comm.Get_rank())
        return cls(global_[first:first + layout.rows_of(comm.Get_rank())], layout, comm)

    @property
    def local(self) -> sy.Array:
        return self._local

    @property
    def layout(self) -> Layout:
        return self._layout

    @property
    def comm(self) -> MPI.Comm:
        return self._comm

    @property
    def dtype(self):
        return self._local.dtype

    @property
    def ndim(self) -> int:
        return self._local.ndim

    @property
    def shape(self) -> tuple[int, ...]:
        """The global shape: layout.rows along axis 0."""
        return (self._layout.rows, *self._local.shape[1:])

    def with_local(self, local) -> DistArray:
        """The same layout over new local rows (the result of local work on these)."""
        return DistArray(local, self._layout, self._comm)


def require_same_layout(function: str, a: DistArray, b: DistArray) -> None:
    if a.comm != b.comm:
        raise LayoutError(f"{function}: the arrays are on different communicators")
    if a.layout != b.layout:
        raise LayoutError(
            f"{function}: the arrays have different layouts (rows, block_rows, or the rows each "
            "rank holds); redistribute one to the other's layout first")


def map(f, first: DistArray, *rest: DistArray) -> DistArray:  # noqa: A001 - dist.map, as in C++
    """Local work on arrays of one layout, as f(first.local, *(r.local for r in rest)):
    elementwise and fused expressions need no communication and stay one kernel per rank. f
    must keep the rows (axis 0) as they are. LayoutError when the layouts or communicators
    differ."""
    for r in rest:
        require_same_layout("map", first, r)
    return first.with_local(f(first.local, *(r.local for r in rest)))

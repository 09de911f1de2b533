"""Saving a distributed array to one file and loading it back, on any number of ranks, as in C++
(include/switchyard/dist/checkpoint.hpp, where the file format is laid out): MPI-IO, each rank
writing and reading its own rows at their place in the file in one collective call. A file
written by either language on any number of ranks loads in the other on any number, with the
same bits. Rank 0 writes the header, and on load reads it and broadcasts it, so a bad file
raises the same error on every rank."""

from __future__ import annotations

import dataclasses
import os
import struct

import numpy as np
from mpi4py import MPI

import switchyard as sy

from ._dist_array import DistArray
from ._layout import DEFAULT_BLOCK_ROWS, Layout

MAGIC = b"SYDIST\0\0"
VERSION = 1
HEADER_BYTES = 128
_MAX_RANK = 8
# magic, version, ndim, dtype name, step, shape: little-endian, zeros up to HEADER_BYTES
_HEADER = struct.Struct(f"<8sII16sq{_MAX_RANK}q")


class CheckpointError(sy.Error):
    """A file that is not a checkpoint this version can load (missing or unreadable, shorter
    than its header says, another format or a later version), or one MPI-IO could not write.
    Raised on every rank at once."""


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    array: DistArray  # in Layout.row_blocks(rows, comm.Get_size(), block_rows)
    step: int


def _agree(comm: MPI.Comm, call: str, run):
    """Runs `run` (MPI-IO, which can fail on some ranks only) and raises on every rank when it
    failed on any, so none goes on to a collective the others have left."""
    failure = None
    try:
        result = run()
    except MPI.Exception as e:
        failure, result = e, None
    if comm.allreduce(failure is not None, op=MPI.LOR):
        if failure is not None:
            raise CheckpointError(f"{call} failed: {failure}") from failure
        raise CheckpointError(f"{call} failed on another rank")
    return result


def _encode(dtype: np.dtype, shape: tuple[int, ...], step: int) -> bytes:
    extents = list(shape) + [0] * (_MAX_RANK - len(shape))
    header = _HEADER.pack(MAGIC, VERSION, len(shape), dtype.name.encode(), step, *extents)
    return header.ljust(HEADER_BYTES, b"\0")


def save(a: DistArray, path, step: int = 0) -> None:
    """Writes a's global array, and `step`, to `path` (replaced if it exists). Rank 0 writes the
    header; each rank writes its own rows (rank 0 all of them when a is replicated). Any
    layout."""
    comm, layout, me = a.comm, a.layout, a.comm.Get_rank()
    rows = np.ascontiguousarray(np.asarray(a.local))
    row_bytes = int(np.prod(a.shape[1:], dtype=np.int64)) * rows.dtype.itemsize
    if layout.is_replicated and me != 0:
        rows = rows[:0]  # every rank holds every row: rank 0 writes them
    at = HEADER_BYTES + layout.first_row(me) * row_bytes
    path = os.fspath(path)
    file = _agree(comm, f"MPI.File.Open of {path}",
                  lambda: MPI.File.Open(comm, path, MPI.MODE_CREATE | MPI.MODE_WRONLY))
    try:
        # The exact size: a longer file it replaces would otherwise keep its tail.
        _agree(comm, "MPI.File.Set_size",
               lambda: file.Set_size(HEADER_BYTES + layout.rows * row_bytes))
        header = _encode(rows.dtype, a.shape, step)
        _agree(comm, "MPI.File.Write_at of the header",
               lambda: file.Write_at(0, header) if me == 0 else None)
        _agree(comm, "MPI.File.Write_at_all", lambda: file.Write_at_all(at, rows))
    finally:
        file.Close()


def _read_on_rank_0(path: str, comm: MPI.Comm) -> tuple[int, bytes]:
    """(file size, its first HEADER_BYTES bytes) on every rank, read by rank 0; size -1 when the
    file cannot be opened."""
    found = None
    if comm.Get_rank() == 0:
        try:
            with open(path, "rb") as file:
                found = (os.fstat(file.fileno()).st_size, file.read(HEADER_BYTES))
        except OSError:
            found = (-1, b"")
    return comm.bcast(found, root=0)


def _decode(path: str, size: int, header: bytes) -> tuple[np.dtype, tuple[int, ...], int]:
    def bad(why: str) -> CheckpointError:
        return CheckpointError(f"dist.load: {path} {why}")

    if size < 0:
        raise bad("cannot be opened: it is missing or unreadable")
    if size < HEADER_BYTES:
        raise bad(f"is truncated: {size} bytes, shorter than the {HEADER_BYTES}-byte header")
    magic, version, ndim, dtype_name, step, *extents = _HEADER.unpack_from(header)
    if magic != MAGIC:
        raise bad("is not a switchyard::dist checkpoint (its first bytes are not SYDIST)")
    if version != VERSION:
        raise bad(f"has format version {version}; this build reads {VERSION}")
    if not 1 <= ndim <= _MAX_RANK:
        raise bad(f"has a header with {ndim} dimensions")
    try:
        dtype = np.dtype(dtype_name.rstrip(b"\0").decode())
    except (TypeError, UnicodeDecodeError) as e:
        raise bad(f"has a header with an unknown dtype: {dtype_name!r}") from e
    shape = tuple(extents[:ndim])
    if any(e < 0 for e in shape):
        raise bad(f"has a header with a negative extent: {shape}")
    want = HEADER_BYTES + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if size != want:
        raise bad(f"is {'truncated' if size < want else 'too long'}: {size} bytes, where its "
                  f"header ({dtype.name} {shape}) says {want}")
    return dtype, shape, step


def _numpy_dtype(dtype) -> np.dtype:
    """NumPy's spellings, or a switchyard dtype, whose str is its name."""
    try:
        return np.dtype(dtype)
    except TypeError:
        return np.dtype(str(dtype))


def load(path, comm: MPI.Comm | None = None, block_rows: int = DEFAULT_BLOCK_ROWS,
         dtype=None, shape=None) -> Checkpoint:
    """The array saved at `path` (by C++ or Python, on any number of ranks), each rank reading
    its own rows, in row blocks of block_rows. CheckpointError for a missing, truncated or
    foreign file; DTypeError or ShapeError when it holds other than `dtype` or `shape`, when
    given. The same error on every rank."""
    comm = MPI.COMM_WORLD if comm is None else comm
    path = os.fspath(path)
    held, extents, step = _decode(path, *_read_on_rank_0(path, comm))
    expected = None if dtype is None else _numpy_dtype(dtype)
    if expected is not None and expected != held:
        raise sy.DTypeError(f"dist.load: {path} holds {held.name}, expected {expected.name}")
    if shape is not None and tuple(shape) != extents:
        raise sy.ShapeError(f"dist.load: {path} holds shape {extents}, expected {tuple(shape)}")
    layout = Layout.row_blocks(extents[0], comm.Get_size(), block_rows)
    me = comm.Get_rank()
    rows = np.empty((layout.rows_of(me), *extents[1:]), dtype=held)
    at = HEADER_BYTES + layout.first_row(me) * (rows.itemsize * int(np.prod(extents[1:])))
    file = _agree(comm, f"MPI.File.Open of {path}",
                  lambda: MPI.File.Open(comm, path, MPI.MODE_RDONLY))
    try:
        _agree(comm, "MPI.File.Read_at_all", lambda: file.Read_at_all(at, rows))
    finally:
        file.Close()
    return Checkpoint(DistArray(sy.asarray(rows), layout, comm), step)

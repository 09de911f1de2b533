"""How a distributed array's rows (axis 0) are spread over the ranks of a communicator, as in
C++ (include/switchyard/dist/layout.hpp): blocks of block_rows rows (the last may be shorter),
each rank a run of whole blocks in rank order; every row on every rank; or ragged, each rank a
run of any number of rows in rank order (what `compress` leaves). The blocks, not the ranks, are
the unit of the reproducible sums and scans: a result depends on block_rows, never on the number
of ranks; a ragged layout's ranks hold parts of blocks, so those refuse it."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

import switchyard as sy

# One float64 partial per 256 rows stays small beside the data; many blocks leave room to
# balance ranks. The C++ default too.
DEFAULT_BLOCK_ROWS = 256


class LayoutError(sy.ValueError):
    """Distributed arrays that cannot be combined as given: different layouts or communicators,
    a layout made for another number of ranks, or one the operation does not take."""


def _require_sizes(function: str, rows: int, ranks: int, block_rows: int) -> None:
    checks = (("rows", rows, 0), ("ranks", ranks, 1), ("block_rows", block_rows, 1))
    for name, value, least in checks:
        if value < least:
            raise sy.ValueError(f"{function}: {name} must be >= {least}, given {value}")


def _block_count(rows: int, block_rows: int) -> int:
    return -(-rows // block_rows)


@dataclasses.dataclass(frozen=True)
class Layout:
    rows: int
    block_rows: int
    kind: str  # "row_blocks", "replicated" or "ragged"
    # ranks + 1 entries: rank r holds [starts[r], starts[r + 1]), blocks in row blocks, rows when
    # ragged; all 0 when replicated
    starts: tuple[int, ...]

    @classmethod
    def row_blocks(cls, rows: int, ranks: int | Sequence[int],
                   block_rows: int = DEFAULT_BLOCK_ROWS) -> Layout:
        """Blocks spread as evenly as whole blocks allow (rank r holds blocks [r·B/R, (r+1)·B/R)
        of B) when `ranks` is a count; or the given block count per rank, in rank order."""
        counts = None if isinstance(ranks, int) else [int(c) for c in ranks]
        _require_sizes("Layout.row_blocks", rows, ranks if counts is None else len(counts),
                       block_rows)
        blocks = _block_count(rows, block_rows)
        if counts is None:
            return cls(rows, block_rows, "row_blocks",
                       tuple(r * blocks // ranks for r in range(ranks + 1)))
        if any(c < 0 for c in counts):
            raise sy.ValueError("Layout.row_blocks: every rank's block count must be >= 0")
        if sum(counts) != blocks:
            raise sy.ValueError(
                f"Layout.row_blocks: the block counts must add up to the {blocks} blocks of "
                f"{rows} rows in blocks of {block_rows}, given {sum(counts)}")
        return cls(rows, block_rows, "row_blocks", (0, *itertools.accumulate(counts)))

    @classmethod
    def replicated(cls, rows: int, ranks: int, block_rows: int = DEFAULT_BLOCK_ROWS) -> Layout:
        _require_sizes("Layout.replicated", rows, ranks, block_rows)
        return cls(rows, block_rows, "replicated", (0,) * (ranks + 1))

    @classmethod
    def ragged(cls, rows_per_rank: Sequence[int], block_rows: int = DEFAULT_BLOCK_ROWS) -> Layout:
        """Chosen row counts per rank, in rank order, whatever the blocks; block_rows is kept for
        the row blocks it is redistributed to."""
        counts = [int(c) for c in rows_per_rank]
        if any(c < 0 for c in counts):
            raise sy.ValueError("Layout.ragged: every rank's row count must be >= 0")
        _require_sizes("Layout.ragged", sum(counts), len(counts), block_rows)
        return cls(sum(counts), block_rows, "ragged", (0, *itertools.accumulate(counts)))

    @property
    def is_replicated(self) -> bool:
        return self.kind == "replicated"

    @property
    def is_ragged(self) -> bool:
        return self.kind == "ragged"

    @property
    def blocks(self) -> int:
        return _block_count(self.rows, self.block_rows)

    @property
    def ranks(self) -> int:
        return len(self.starts) - 1

    def require_blocks(self, function: str) -> None:
        """LayoutError naming `function` when the layout is ragged: for work done by blocks."""
        if self.is_ragged:
            raise LayoutError(f"{function}: a ragged layout's ranks hold rows, not whole blocks; "
                              "redistribute the array to Layout.row_blocks first")

    def first_block(self, rank: int) -> int:
        self.require_blocks("Layout.first_block")
        return 0 if self.is_replicated else self.starts[rank]

    def blocks_of(self, rank: int) -> int:
        self.require_blocks("Layout.blocks_of")
        return self.blocks if self.is_replicated else self.starts[rank + 1] - self.starts[rank]

    def first_row(self, rank: int) -> int:
        if self.is_ragged:
            return self.starts[rank]
        return min(self.rows, self.first_block(rank) * self.block_rows)

    def rows_of(self, rank: int) -> int:
        if self.is_ragged:
            return self.starts[rank + 1] - self.starts[rank]
        end = min(self.rows, (self.first_block(rank) + self.blocks_of(rank)) * self.block_rows)
        return end - self.first_row(rank)

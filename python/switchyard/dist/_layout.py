"""How a distributed array's rows (axis 0) are spread over the ranks of a communicator, as in
C++ (include/switchyard/dist/layout.hpp): blocks of block_rows rows (the last may be shorter),
each rank a run of whole blocks in rank order, or every row on every rank. The blocks, not the
ranks, are the unit of the reproducible sums: a result depends on block_rows, never on the
number of ranks."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

import switchyard as sy

# One float64 partial per 256 rows stays small beside the data; many blocks leave room to
# balance ranks. The C++ default too.
DEFAULT_BLOCK_ROWS = 256


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
    is_replicated: bool
    # ranks + 1 entries: rank r holds blocks [block_starts[r], block_starts[r + 1]) (row blocks)
    block_starts: tuple[int, ...]

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
            return cls(rows, block_rows, False,
                       tuple(r * blocks // ranks for r in range(ranks + 1)))
        if any(c < 0 for c in counts):
            raise sy.ValueError("Layout.row_blocks: every rank's block count must be >= 0")
        if sum(counts) != blocks:
            raise sy.ValueError(
                f"Layout.row_blocks: the block counts must add up to the {blocks} blocks of "
                f"{rows} rows in blocks of {block_rows}, given {sum(counts)}")
        return cls(rows, block_rows, False, (0, *itertools.accumulate(counts)))

    @classmethod
    def replicated(cls, rows: int, ranks: int, block_rows: int = DEFAULT_BLOCK_ROWS) -> Layout:
        _require_sizes("Layout.replicated", rows, ranks, block_rows)
        return cls(rows, block_rows, True, (0,) * (ranks + 1))

    @property
    def blocks(self) -> int:
        return _block_count(self.rows, self.block_rows)

    @property
    def ranks(self) -> int:
        return len(self.block_starts) - 1

    def first_block(self, rank: int) -> int:
        return 0 if self.is_replicated else self.block_starts[rank]

    def blocks_of(self, rank: int) -> int:
        if self.is_replicated:
            return self.blocks
        return self.block_starts[rank + 1] - self.block_starts[rank]

    def first_row(self, rank: int) -> int:
        return min(self.rows, self.first_block(rank) * self.block_rows)

    def rows_of(self, rank: int) -> int:
        end = min(self.rows, (self.first_block(rank) + self.blocks_of(rank)) * self.block_rows)
        return end - self.first_row(rank)

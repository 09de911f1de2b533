// How a distributed array's rows (axis 0) are spread over the ranks of a communicator.
//
// Rows are grouped in blocks of block_rows (the last block may be shorter). A row-block layout
// gives each rank a run of whole blocks, in rank order; a replicated one gives every rank every
// row. The blocks, not the ranks, are the unit of the reproducible reductions (reductions.hpp):
// a result depends on block_rows, never on the number of ranks.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace switchyard::dist {

// Rows per block when none is given: partials per block stay few beside the data (one float64
// per 256 rows) and many blocks leave room to balance ranks.
inline constexpr std::int64_t kDefaultBlockRows = 256;

class Layout {
 public:
  // Blocks spread as evenly as whole blocks allow: rank r holds blocks [r·B/R, (r+1)·B/R) of B.
  static Layout row_blocks(std::int64_t rows, int ranks,
                           std::int64_t block_rows = kDefaultBlockRows);
  // Chosen block counts per rank, in rank order (a rebalance); they must add up to every block.
  static Layout row_blocks(std::int64_t rows, std::span<const std::int64_t> blocks_per_rank,
                           std::int64_t block_rows = kDefaultBlockRows);
  static Layout replicated(std::int64_t rows, int ranks,
                           std::int64_t block_rows = kDefaultBlockRows);

  bool is_replicated() const { return replicated_; }
  std::int64_t rows() const { return rows_; }
  std::int64_t block_rows() const { return block_rows_; }
  std::int64_t blocks() const;  // ceil(rows / block_rows)
  int ranks() const { return static_cast<int>(block_starts_.size()) - 1; }

  // What rank r holds: blocks [first_block(r), first_block(r) + blocks_of(r)), which are rows
  // [first_row(r), first_row(r) + rows_of(r)); every block and row when replicated.
  std::int64_t first_block(int rank) const;
  std::int64_t blocks_of(int rank) const;
  std::int64_t first_row(int rank) const;
  std::int64_t rows_of(int rank) const;

  friend bool operator==(const Layout&, const Layout&) = default;

 private:
  Layout(std::int64_t rows, std::int64_t block_rows, bool replicated,
         std::vector<std::int64_t> block_starts);

  std::int64_t rows_;
  std::int64_t block_rows_;
  bool replicated_;
  // ranks + 1 entries: rank r holds blocks [block_starts_[r], block_starts_[r + 1]) (row blocks)
  std::vector<std::int64_t> block_starts_;
};

}  // namespace switchyard::dist

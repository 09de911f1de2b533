// How a distributed array's rows (axis 0) are spread over the ranks of a communicator.
//
// Rows are grouped in blocks of block_rows (the last block may be shorter). A row-block layout
// gives each rank a run of whole blocks, in rank order; a replicated one gives every rank every
// row; a ragged one gives each rank a run of any number of rows, in rank order (what keeping some
// rows leaves, compress.hpp). The blocks, not the ranks, are the unit of the reproducible
// reductions and scans (reductions.hpp, scans.hpp): a result depends on block_rows, never on the
// number of ranks; a ragged layout's ranks hold parts of blocks, so those refuse it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "switchyard/error.hpp"

namespace switchyard::dist {

// Distributed arrays that cannot be combined as given: different layouts or communicators, a
// layout made for another number of ranks, or one the operation does not take.
class LayoutError : public ValueError {
 public:
  using ValueError::ValueError;
};

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
  // Chosen row counts per rank, in rank order, whatever the blocks; block_rows is kept for the
  // row blocks it is redistributed to.
  static Layout ragged(std::span<const std::int64_t> rows_per_rank,
                       std::int64_t block_rows = kDefaultBlockRows);

  bool is_replicated() const { return kind_ == Kind::Replicated; }
  bool is_ragged() const { return kind_ == Kind::Ragged; }
  std::int64_t rows() const { return rows_; }
  std::int64_t block_rows() const { return block_rows_; }
  std::int64_t blocks() const;  // ceil(rows / block_rows)
  int ranks() const { return static_cast<int>(starts_.size()) - 1; }

  // What rank r holds: blocks [first_block(r), first_block(r) + blocks_of(r)), which are rows
  // [first_row(r), first_row(r) + rows_of(r)); every block and row when replicated. A ragged
  // layout's ranks hold rows, not whole blocks: first_block and blocks_of throw LayoutError.
  std::int64_t first_block(int rank) const;
  std::int64_t blocks_of(int rank) const;
  std::int64_t first_row(int rank) const;
  std::int64_t rows_of(int rank) const;
  // Throws LayoutError naming `function` when the layout is ragged: for work done by blocks.
  void require_blocks(std::string_view function) const;

  friend bool operator==(const Layout&, const Layout&) = default;

 private:
  enum class Kind : std::uint8_t { RowBlocks, Replicated, Ragged };

  Layout(std::int64_t rows, std::int64_t block_rows, Kind kind, std::vector<std::int64_t> starts);

  std::int64_t rows_;
  std::int64_t block_rows_;
  Kind kind_;
  // ranks + 1 entries: rank r holds [starts_[r], starts_[r + 1]), blocks in row blocks, rows when
  // ragged; all 0 when replicated
  std::vector<std::int64_t> starts_;
};

}  // namespace switchyard::dist

#include "switchyard/dist/layout.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "switchyard/error.hpp"

namespace switchyard::dist {
namespace {

void require_sizes(const char* function, std::int64_t rows, int ranks, std::int64_t block_rows) {
  if (rows < 0)
    throw ValueError(std::string(function) + ": rows must be >= 0, given " + std::to_string(rows));
  if (ranks <= 0)
    throw ValueError(std::string(function) + ": ranks must be positive, given " +
                     std::to_string(ranks));
  if (block_rows <= 0)
    throw ValueError(std::string(function) + ": block_rows must be positive, given " +
                     std::to_string(block_rows));
}

std::int64_t block_count(std::int64_t rows, std::int64_t block_rows) {
  return (rows + block_rows - 1) / block_rows;
}

}  // namespace

Layout::Layout(std::int64_t rows, std::int64_t block_rows, Kind kind,
               std::vector<std::int64_t> starts)
    : rows_(rows), block_rows_(block_rows), kind_(kind), starts_(std::move(starts)) {}

Layout Layout::row_blocks(std::int64_t rows, int ranks, std::int64_t block_rows) {
  require_sizes("Layout::row_blocks", rows, ranks, block_rows);
  const std::int64_t blocks = block_count(rows, block_rows);
  std::vector<std::int64_t> starts(static_cast<std::size_t>(ranks) + 1);
  for (int r = 0; r <= ranks; ++r) starts[r] = r * blocks / ranks;
  return Layout(rows, block_rows, Kind::RowBlocks, std::move(starts));
}

Layout Layout::row_blocks(std::int64_t rows, std::span<const std::int64_t> blocks_per_rank,
                          std::int64_t block_rows) {
  require_sizes("Layout::row_blocks", rows, static_cast<int>(blocks_per_rank.size()), block_rows);
  if (std::any_of(blocks_per_rank.begin(), blocks_per_rank.end(),
                  [](std::int64_t b) { return b < 0; }))
    throw ValueError("Layout::row_blocks: every rank's block count must be >= 0");
  const std::int64_t blocks = block_count(rows, block_rows);
  const std::int64_t given =
      std::accumulate(blocks_per_rank.begin(), blocks_per_rank.end(), std::int64_t{0});
  if (given != blocks)
    throw ValueError("Layout::row_blocks: the block counts must add up to the " +
                     std::to_string(blocks) + " blocks of " + std::to_string(rows) +
                     " rows in blocks of " + std::to_string(block_rows) + ", given " +
                     std::to_string(given));
  std::vector<std::int64_t> starts(blocks_per_rank.size() + 1, 0);
  std::inclusive_scan(blocks_per_rank.begin(), blocks_per_rank.end(), starts.begin() + 1);
  return Layout(rows, block_rows, Kind::RowBlocks, std::move(starts));
}

Layout Layout::replicated(std::int64_t rows, int ranks, std::int64_t block_rows) {
  require_sizes("Layout::replicated", rows, ranks, block_rows);
  return Layout(rows, block_rows, Kind::Replicated, std::vector<std::int64_t>(ranks + 1, 0));
}

Layout Layout::ragged(std::span<const std::int64_t> rows_per_rank, std::int64_t block_rows) {
  if (std::any_of(rows_per_rank.begin(), rows_per_rank.end(), [](std::int64_t n) { return n < 0; }))
    throw ValueError("Layout::ragged: every rank's row count must be >= 0");
  const std::int64_t rows =
      std::accumulate(rows_per_rank.begin(), rows_per_rank.end(), std::int64_t{0});
  require_sizes("Layout::ragged", rows, static_cast<int>(rows_per_rank.size()), block_rows);
  std::vector<std::int64_t> starts(rows_per_rank.size() + 1, 0);
  std::inclusive_scan(rows_per_rank.begin(), rows_per_rank.end(), starts.begin() + 1);
  return Layout(rows, block_rows, Kind::Ragged, std::move(starts));
}

std::int64_t Layout::blocks() const {
  return block_count(rows_, block_rows_);
}

void Layout::require_blocks(std::string_view function) const {
  if (is_ragged())
    throw LayoutError(std::string(function) +
                      ": a ragged layout's ranks hold rows, not whole blocks; redistribute the "
                      "array to Layout::row_blocks first");
}

std::int64_t Layout::first_block(int rank) const {
  require_blocks("Layout::first_block");
  return is_replicated() ? 0 : starts_.at(rank);
}

std::int64_t Layout::blocks_of(int rank) const {
  require_blocks("Layout::blocks_of");
  return is_replicated() ? blocks() : starts_.at(rank + 1) - starts_.at(rank);
}

std::int64_t Layout::first_row(int rank) const {
  if (is_ragged()) return starts_.at(rank);
  return std::min(rows_, first_block(rank) * block_rows_);
}

std::int64_t Layout::rows_of(int rank) const {
  if (is_ragged()) return starts_.at(rank + 1) - starts_.at(rank);
  return std::min(rows_, (first_block(rank) + blocks_of(rank)) * block_rows_) - first_row(rank);
}

}  // namespace switchyard::dist

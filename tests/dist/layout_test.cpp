#include <gtest/gtest.h>

#include <vector>

#include "switchyard/dist/layout.hpp"
#include "switchyard/error.hpp"

namespace switchyard::dist {
namespace {

// Every row once, in rank order, each rank a run of whole blocks.
void expect_rows_covered_in_blocks(const Layout& layout) {
  std::int64_t next_row = 0;
  for (int r = 0; r < layout.ranks(); ++r) {
    EXPECT_EQ(layout.first_row(r), next_row) << "rank " << r;
    EXPECT_EQ(layout.first_row(r) % layout.block_rows(), 0) << "rank " << r;
    next_row += layout.rows_of(r);
  }
  EXPECT_EQ(next_row, layout.rows());
}

TEST(DistLayout, RowBlocksSpreadWholeBlocksEvenly) {
  for (int ranks = 1; ranks <= 5; ++ranks) {
    const Layout layout = Layout::row_blocks(1000, ranks, 7);  // 143 blocks, the last of 6 rows
    EXPECT_EQ(layout.blocks(), 143);
    expect_rows_covered_in_blocks(layout);
    for (int r = 0; r < ranks; ++r) {
      EXPECT_GE(layout.blocks_of(r), 143 / ranks);
      EXPECT_LE(layout.blocks_of(r), 143 / ranks + 1);
    }
    EXPECT_EQ(layout.rows_of(ranks - 1) % 7, 6);
  }
}

TEST(DistLayout, MoreRanksThanBlocksLeavesSomeEmpty) {
  const Layout layout = Layout::row_blocks(10, 4, 4);  // blocks of 4, 4 and 2 rows
  expect_rows_covered_in_blocks(layout);
  EXPECT_EQ(layout.rows_of(0), 0);
  EXPECT_EQ(layout.rows_of(3), 2);
}

TEST(DistLayout, ChosenBlockCounts) {
  const std::vector<std::int64_t> counts = {0, 3, 1};
  const Layout layout = Layout::row_blocks(30, counts, 8);
  expect_rows_covered_in_blocks(layout);
  EXPECT_EQ(layout.rows_of(1), 24);
  EXPECT_EQ(layout.rows_of(2), 6);
  const std::vector<std::int64_t> too_few = {1, 1, 1};
  EXPECT_THROW(Layout::row_blocks(30, too_few, 8), ValueError);
}

TEST(DistLayout, ReplicatedGivesEveryRankEveryRow) {
  const Layout layout = Layout::replicated(50, 3, 16);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(layout.first_row(r), 0);
    EXPECT_EQ(layout.rows_of(r), 50);
    EXPECT_EQ(layout.blocks_of(r), 4);
  }
}

TEST(DistLayout, RaggedGivesEachRankItsChosenRows) {
  const std::vector<std::int64_t> counts = {3, 0, 5, 1};
  const Layout layout = Layout::ragged(counts, 4);
  EXPECT_TRUE(layout.is_ragged());
  EXPECT_EQ(layout.rows(), 9);
  EXPECT_EQ(layout.ranks(), 4);
  std::int64_t next_row = 0;
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(layout.first_row(r), next_row) << "rank " << r;
    EXPECT_EQ(layout.rows_of(r), counts[r]) << "rank " << r;
    next_row += counts[r];
  }
  EXPECT_THROW(layout.first_block(0), LayoutError);
  EXPECT_THROW(layout.blocks_of(0), LayoutError);
  EXPECT_NE(layout, Layout::row_blocks(9, 4, 4));
  const std::vector<std::int64_t> negative = {3, -1};
  EXPECT_THROW(Layout::ragged(negative), ValueError);
}

TEST(DistLayout, BadSizesAreValueErrors) {
  EXPECT_THROW(Layout::row_blocks(-1, 2), ValueError);
  EXPECT_THROW(Layout::row_blocks(10, 0), ValueError);
  EXPECT_THROW(Layout::row_blocks(10, 2, 0), ValueError);
  EXPECT_THROW(Layout::replicated(10, 2, -3), ValueError);
}

}  // namespace
}  // namespace switchyard::dist

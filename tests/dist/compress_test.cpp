// Keeping rows: the kept rows against a selection made in this process over the whole array, the
// ragged layout they are left in, and the work that takes it or refuses it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dist_support.hpp"

namespace switchyard::dist {
namespace {

using testing::global_array;
using testing::same_bits;

struct Selection {
  Array rows;  // the kept rows of the whole array
  Array keep;  // the mask, one bool per row of the whole array
};

// Keeps the rows whose first element exceeds 0.3, selected by a loop here.
Selection rows_over(const Array& global) {
  const Array keep = global.ndim() == 1 ? global > 0.3 : global.slice(1, 0, 1).squeeze(1) > 0.3;
  const std::vector<bool> kept = keep.to_vector<bool>();
  std::vector<std::int64_t> positions;
  for (std::size_t i = 0; i < kept.size(); ++i)
    if (kept[i]) positions.push_back(static_cast<std::int64_t>(i));
  std::vector<double> rows;
  for (const std::int64_t i : positions) {
    const std::vector<double> row = global.slice(0, i, i + 1).to_vector<double>();
    rows.insert(rows.end(), row.begin(), row.end());
  }
  Shape shape = global.shape();
  shape[0] = static_cast<std::int64_t>(positions.size());
  return {Array::from_vector(rows, shape).astype(global.dtype()), keep};
}

struct Spread {
  std::int64_t rows, columns, block_rows;
};

class DistCompress : public ::testing::TestWithParam<Spread> {};

TEST_P(DistCompress, KeepsTheSelectedRowsInARaggedLayout) {
  const auto [rows, columns, block_rows] = GetParam();
  const Communicator comm;
  const Array global = global_array(rows, columns, DType::Float32);
  const Selection want = rows_over(global);
  const Layout layout = Layout::row_blocks(rows, comm.size(), block_rows);
  const DistArray kept =
      compress(DistArray::distribute(global, layout), DistArray::distribute(want.keep, layout));
  ASSERT_TRUE(kept.layout().is_ragged());
  EXPECT_EQ(kept.layout().block_rows(), block_rows);
  EXPECT_EQ(kept.shape(), want.rows.shape());
  const std::vector<bool> mask = want.keep.to_vector<bool>();
  const std::int64_t first = layout.first_row(comm.rank());
  EXPECT_EQ(
      kept.layout().rows_of(comm.rank()),
      std::count(mask.begin() + first, mask.begin() + first + layout.rows_of(comm.rank()), true));
  EXPECT_EQ(gather(kept).to_vector<float>(), want.rows.to_vector<float>());
}

TEST_P(DistCompress, RaggedGoesBackToRowBlocksForTheReproducibleWork) {
  const auto [rows, columns, block_rows] = GetParam();
  const Communicator comm;
  const Array global = global_array(rows, columns, DType::Float64);
  const Selection want = rows_over(global);
  const Layout layout = Layout::row_blocks(rows, comm.size(), block_rows);
  const DistArray kept =
      compress(DistArray::distribute(global, layout), DistArray::distribute(want.keep, layout));
  const std::int64_t n = want.rows.shape()[0];
  const Layout blocks = Layout::row_blocks(n, comm.size(), block_rows);
  const DistArray balanced = redistribute(kept, blocks);
  const DistArray direct = DistArray::distribute(want.rows, blocks);
  EXPECT_EQ(balanced.local().to_vector<double>(), direct.local().to_vector<double>());
  EXPECT_TRUE(same_bits(sum(balanced), sum(direct)));
  EXPECT_EQ(gather(cumsum(balanced)).to_vector<double>(),
            gather(cumsum(direct)).to_vector<double>());

  EXPECT_THROW(sum(kept), LayoutError);
  EXPECT_THROW(norm(kept), LayoutError);
  EXPECT_THROW(cumsum(kept), LayoutError);
  const std::vector<double> values = want.rows.to_vector<double>();
  double plain = 0, magnitude = 0;
  for (const double v : values) plain += v, magnitude += std::abs(v);
  const double bound =
      static_cast<double>(values.size() + 1) * std::numeric_limits<double>::epsilon() * magnitude;
  EXPECT_NEAR(sum(kept, Summation::Fast), plain, bound);
  const std::vector<double> fast = gather(cumsum(kept, Summation::Fast)).to_vector<double>(),
                            exact = gather(cumsum(direct)).to_vector<double>();
  ASSERT_EQ(fast.size(), exact.size());
  for (std::size_t i = 0; i < fast.size(); ++i) EXPECT_NEAR(fast[i], exact[i], bound);
  if (n > 0) {
    const auto top = std::max_element(values.begin(), values.end());
    EXPECT_EQ(max(kept), *top);
    EXPECT_EQ(argmax(kept), top - values.begin());
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, DistCompress,
                         ::testing::Values(Spread{101, 3, 8},  // ranks keep different counts
                                           Spread{10, 0, 4},   // at 4 ranks, one has no rows
                                           Spread{0, 2, 4}));

TEST(DistCompressReplicated, StaysReplicated) {
  const Communicator comm;
  const Array global = global_array(30, 2, DType::Float64);
  const Selection want = rows_over(global);
  const Layout everywhere = Layout::replicated(30, comm.size(), 4);
  const DistArray kept = compress(DistArray(global, everywhere), DistArray(want.keep, everywhere));
  EXPECT_TRUE(kept.layout().is_replicated());
  EXPECT_EQ(kept.layout(), Layout::replicated(want.rows.shape()[0], comm.size(), 4));
  EXPECT_EQ(kept.local().to_vector<double>(), want.rows.to_vector<double>());
}

TEST(DistCompressErrors, AreTyped) {
  const Communicator comm;
  const Layout layout = Layout::row_blocks(12, comm.size(), 4);
  const DistArray a = DistArray::distribute(global_array(12, 2, DType::Float64), layout);
  const DistArray not_bool = DistArray::distribute(Array::ones({12}, DType::Float32), layout);
  EXPECT_THROW(compress(a, not_bool), DTypeError);
  const DistArray per_element = DistArray::distribute(Array::ones({12, 2}, DType::Bool), layout);
  EXPECT_THROW(compress(a, per_element), ShapeError);
  const DistArray other_blocks =
      DistArray::distribute(Array::ones({12}, DType::Bool), Layout::row_blocks(12, comm.size(), 3));
  EXPECT_THROW(compress(a, other_blocks), LayoutError);
}

}  // namespace
}  // namespace switchyard::dist

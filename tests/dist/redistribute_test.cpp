#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dist_support.hpp"

namespace switchyard::dist {
namespace {

using testing::global_array;

// The rows [first, first + rows) of `global`, as float64 values in C order.
std::vector<double> rows_of(const Array& global, std::int64_t first, std::int64_t rows) {
  return global.slice(0, first, first + rows).to_vector<double>();
}

void expect_holds_its_rows(const DistArray& a, const Array& global) {
  const int me = a.communicator().rank();
  EXPECT_EQ(a.local().to_vector<double>(),
            rows_of(global, a.layout().first_row(me), a.layout().rows_of(me)));
}

TEST(DistRedistribute, DistributeAndGatherGiveTheArrayBack) {
  const Communicator comm;
  const Array global = global_array(101, 3, DType::Float32);
  const DistArray a = DistArray::distribute(global, Layout::row_blocks(101, comm.size(), 8));
  expect_holds_its_rows(a, global);
  const Array whole = gather(a);
  EXPECT_EQ(whole.shape(), global.shape());
  EXPECT_EQ(whole.dtype(), DType::Float32);
  EXPECT_EQ(whole.to_vector<float>(), global.to_vector<float>());
}

TEST(DistRedistribute, RowBlocksToOtherRowBlocksMovesRowsBetweenRanks) {
  const Communicator comm;
  const Array global = global_array(90, 0, DType::Float64);
  const DistArray a = DistArray::distribute(global, Layout::row_blocks(90, comm.size(), 5));
  // Every block on the last rank: a rebalance as lopsided as it gets.
  std::vector<std::int64_t> counts(comm.size(), 0);
  counts.back() = 18;
  const DistArray lopsided = redistribute(a, Layout::row_blocks(90, counts, 5));
  expect_holds_its_rows(lopsided, global);
  // Another block size, which changes which rows each rank holds.
  const DistArray rebalanced = redistribute(lopsided, Layout::row_blocks(90, comm.size(), 7));
  expect_holds_its_rows(rebalanced, global);
}

TEST(DistRedistribute, ReplicatedToRowBlocksAndBack) {
  const Communicator comm;
  const Array global = global_array(33, 4, DType::Float64);
  const DistArray everywhere(global, Layout::replicated(33, comm.size(), 4));
  const DistArray blocks = redistribute(everywhere, Layout::row_blocks(33, comm.size(), 4));
  expect_holds_its_rows(blocks, global);
  const DistArray back = redistribute(blocks, Layout::replicated(33, comm.size(), 4));
  EXPECT_EQ(back.local().to_vector<double>(), global.to_vector<double>());
}

TEST(DistRedistribute, LocalWorkKeepsTheLayout) {
  const Communicator comm;
  const Array x = global_array(64, 2, DType::Float32, 1),
              y = global_array(64, 2, DType::Float32, 2);
  const Layout layout = Layout::row_blocks(64, comm.size(), 8);
  const DistArray a = DistArray::distribute(x, layout), b = DistArray::distribute(y, layout);
  const DistArray c = map([](const Array& p, const Array& q) { return p * q + sin(p); }, a, b);
  EXPECT_EQ(c.layout(), layout);
  EXPECT_TRUE(c.local().pending()) << "map ran its work instead of leaving it to fuse";
  // Elementwise, so within float32 rounding of the whole array's result (the device the
  // scheduler picks, and its sin, may differ with the size of the local part).
  const std::vector<float> got = gather(c).to_vector<float>();
  const std::vector<float> want = (x * y + sin(x)).to_vector<float>();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i],
                4 * std::numeric_limits<float>::epsilon() * (1 + std::abs(want[i])));
}

TEST(DistRedistribute, MismatchesAreTypedErrors) {
  const Communicator comm;
  const Array x = global_array(40, 2, DType::Float32);
  const DistArray a = DistArray::distribute(x, Layout::row_blocks(40, comm.size(), 8));
  const DistArray b = DistArray::distribute(x, Layout::row_blocks(40, comm.size(), 4));
  const auto add = [](const Array& p, const Array& q) { return p + q; };
  EXPECT_THROW(map(add, a, b), LayoutError);
  EXPECT_THROW(redistribute(a, Layout::row_blocks(41, comm.size(), 8)), LayoutError);
  EXPECT_THROW(DistArray(x, Layout::row_blocks(40, comm.size() + 1, 8)), LayoutError);
  EXPECT_THROW(DistArray(x.slice(0, 0, 39), Layout::replicated(40, comm.size())), ShapeError);
  EXPECT_THROW(DistArray::distribute(x, Layout::row_blocks(20, comm.size())), ShapeError);
}

}  // namespace
}  // namespace switchyard::dist

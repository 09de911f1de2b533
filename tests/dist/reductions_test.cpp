// The reductions against references computed in this process over the whole array: bit-identical
// in the reproducible mode (so identical for every number of ranks ctest runs this with), and
// within a bound derived from the dtype's epsilon against a plain float64 sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "dist_support.hpp"

namespace switchyard::dist {
namespace {

using testing::Case;
using testing::from_every_rank;
using testing::global_array;
using testing::kCases;
using testing::same_bits;

// The reproducible sum's definition, computed again over the whole array in this process: each
// block's elements in float64, then the block partials, added neighbour to neighbour level by
// level with an odd last value carried up.
double by_levels(std::vector<double> level) {
  if (level.empty()) return 0;
  while (level.size() > 1) {
    std::vector<double> next;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(level[i] + level[i + 1]);
    if (level.size() % 2 == 1) next.push_back(level.back());
    level = std::move(next);
  }
  return level[0];
}

double reference_block_sum(const Array& global, std::int64_t block_rows, bool squares) {
  const std::vector<double> x = global.to_vector<double>();
  const auto per_block = static_cast<std::size_t>(block_rows * (global.size() / global.shape()[0]));
  std::vector<double> partials;
  for (std::size_t first = 0; first < x.size(); first += per_block) {
    std::vector<double> block(x.begin() + first, x.begin() + std::min(first + per_block, x.size()));
    if (squares)
      for (double& v : block) v *= v;
    partials.push_back(by_levels(block));
  }
  return by_levels(partials);
}

struct PlainSum {
  double total = 0, magnitude = 0;  // Σ x and Σ |x|, in long double then rounded
};

PlainSum plain_sum(const Array& global, bool squares) {
  long double total = 0, magnitude = 0;
  for (const double x : global.to_vector<double>()) {
    const long double term = squares ? static_cast<long double>(x) * x : x;
    total += term;
    magnitude += std::abs(term);
  }
  return {static_cast<double>(total), static_cast<double>(magnitude)};
}

// Summing n float64 terms in any order errs by at most (n - 1)·ε·Σ|x| (Higham, ch. 4).
double sum_bound(const Array& global, double magnitude) {
  return static_cast<double>(global.size()) * std::numeric_limits<double>::epsilon() * magnitude;
}

// Not pinned to a device: the reproducible mode must give the same bits wherever the scheduler
// puts the work.
class DistReductions : public ::testing::TestWithParam<Case> {};

TEST_P(DistReductions, ReproducibleSumIsTheBlockOrderSumOnEveryRank) {
  const Case c = GetParam();
  const Communicator comm;
  const Array global = global_array(c.rows, c.columns, c.dtype);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  for (const bool squares : {false, true}) {
    const double got = squares ? norm(a) : sum(a);
    const double want_sum = reference_block_sum(global, c.block_rows, squares);
    const double want = squares ? std::sqrt(want_sum) : want_sum;
    EXPECT_TRUE(same_bits(got, want)) << (squares ? "norm " : "sum ") << got << " != " << want;
    for (const double on_rank : from_every_rank(got)) EXPECT_TRUE(same_bits(on_rank, got));
    const PlainSum plain = plain_sum(global, squares);
    EXPECT_NEAR(squares ? got * got : got, plain.total, sum_bound(global, plain.magnitude));
  }
  EXPECT_TRUE(same_bits(mean(a), sum(a) / static_cast<double>(global.size())));
}

// The local rows made (doubled: exact everywhere) and read on each device in turn, and on the
// CPU's one-thread and all-core paths: the reproducible results must not change in any bit.
std::vector<std::string> every_place_work_runs() {
  std::vector<std::string> ids = {"cpu:0/inline", "cpu:0/parallel"};
  for (const DeviceInfo& d : devices()) ids.push_back(d.id());
  return ids;
}

TEST_P(DistReductions, ReproducibleSumIsTheSameWhereverTheWorkRuns) {
  const Case c = GetParam();
  const Communicator comm;
  const Array global = global_array(c.rows, c.columns, c.dtype);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const Array twice = global * 2.0;
  const double want_sum = reference_block_sum(twice, c.block_rows, false);
  const double want_norm = std::sqrt(reference_block_sum(twice, c.block_rows, true));
  for (const std::string& id : every_place_work_runs()) {
    DeviceScope on(id);
    const DistArray doubled = map([](const Array& x) { return x * 2.0; }, a);
    EXPECT_TRUE(same_bits(sum(doubled), want_sum)) << "on " << id;
    EXPECT_TRUE(same_bits(norm(doubled), want_norm)) << "on " << id;
  }
}

TEST_P(DistReductions, FastSumIsWithinTheBound) {
  const Case c = GetParam();
  const Communicator comm;
  const Array global = global_array(c.rows, c.columns, c.dtype);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const PlainSum plain = plain_sum(global, false), squares = plain_sum(global, true);
  EXPECT_NEAR(sum(a, Summation::Fast), plain.total, sum_bound(global, plain.magnitude));
  EXPECT_NEAR(std::pow(norm(a, Summation::Fast), 2), squares.total,
              sum_bound(global, squares.magnitude));
}

TEST_P(DistReductions, ReplicatedGivesTheRowBlocksResult) {
  const Case c = GetParam();
  const Communicator comm;
  const Array global = global_array(c.rows, c.columns, c.dtype);
  const DistArray blocks =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const DistArray everywhere(global, Layout::replicated(c.rows, comm.size(), c.block_rows));
  EXPECT_TRUE(same_bits(sum(everywhere), sum(blocks)));
  EXPECT_TRUE(same_bits(norm(everywhere), norm(blocks)));
  EXPECT_EQ(argmax(everywhere), argmax(blocks));
}

TEST_P(DistReductions, ExtremesAreTheWholeArrays) {
  const Case c = GetParam();
  const Communicator comm;
  const Array global = global_array(c.rows, c.columns, c.dtype);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const std::vector<double> values = global.to_vector<double>();
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  EXPECT_EQ(min(a), *lo);
  EXPECT_EQ(max(a), *hi);
  EXPECT_EQ(argmin(a), lo - values.begin());
  EXPECT_EQ(argmax(a), hi - values.begin());
}

INSTANTIATE_TEST_SUITE_P(Sizes, DistReductions, ::testing::ValuesIn(kCases));

TEST(DistExtremes, TiesGiveTheFirstOccurrenceAndNaNPropagates) {
  const Communicator comm;
  // 0, 1, ..., 9, 0, 1, ...: the maximum 9 on many ranks' rows, first at index 9.
  std::vector<double> values(200);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 10);
  const Layout layout = Layout::row_blocks(200, comm.size(), 3);
  const DistArray a = DistArray::distribute(Array::from_vector(values), layout);
  EXPECT_EQ(argmax(a), 9);
  EXPECT_EQ(argmin(a), 0);
  values[150] = values[170] = std::numeric_limits<double>::quiet_NaN();
  const DistArray with_nan = DistArray::distribute(Array::from_vector(values), layout);
  EXPECT_TRUE(std::isnan(max(with_nan)));
  EXPECT_TRUE(std::isnan(min(with_nan)));
  EXPECT_EQ(argmax(with_nan), 150);
  EXPECT_EQ(argmin(with_nan), 150);
}

TEST(DistReductionErrors, AreTyped) {
  const Communicator comm;
  const DistArray ints = DistArray::distribute(Array::arange(std::int64_t{12}),
                                               Layout::row_blocks(12, comm.size(), 4));
  EXPECT_THROW(sum(ints), DTypeError);
  EXPECT_THROW(max(ints), DTypeError);
  const DistArray empty =
      DistArray::distribute(Array::zeros({0, 3}), Layout::row_blocks(0, comm.size()));
  EXPECT_THROW(max(empty), ValueError);
  EXPECT_THROW(argmax(empty), ValueError);
  EXPECT_EQ(sum(empty), 0.0);
  EXPECT_TRUE(std::isnan(mean(empty)));
}

}  // namespace
}  // namespace switchyard::dist

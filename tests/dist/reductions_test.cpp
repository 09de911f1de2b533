// The reductions against references computed in this process over the whole array: bit-identical
// in the reproducible mode (so identical for every number of ranks ctest runs this with), and
// within a bound derived from the dtype's epsilon against a plain float64 sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <span>
#include <vector>

#include "dist_support.hpp"

namespace switchyard::dist {
namespace {

using testing::from_every_rank;
using testing::global_array;
using testing::same_bits;

struct Case {
  std::int64_t rows, columns, block_rows;
  DType dtype;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.rows << "x" << c.columns << " " << name(c.dtype) << " in blocks of " << c.block_rows;
}

const Case kCases[] = {
    {1000, 3, 7, DType::Float32},       // the last block short (6 rows)
    {1000, 3, 7, DType::Float64},       // the same in float64
    {4099, 0, 64, DType::Float32},      // a vector, the last block of 3
    {10, 0, 4, DType::Float64},         // 3 blocks: at 4 ranks, one has no rows
    {99005, 0, 33000, DType::Float32},  // blocks longer than a CPU reduction chunk (32768)
};

// The reproducible sum's definition, computed independently: each block of the whole array
// summed in float64 by a kernel of its own, the partials added by halves in block order.
double pairwise(std::span<const double> v) {
  if (v.size() == 1) return v[0];
  return pairwise(v.first(v.size() / 2)) + pairwise(v.subspan(v.size() / 2));
}

double reference_block_sum(const Array& global, std::int64_t block_rows, bool squares) {
  std::vector<double> partials;
  for (std::int64_t first = 0; first < global.shape()[0]; first += block_rows) {
    const Array block = global.slice(0, first, std::min(first + block_rows, global.shape()[0]))
                            .astype(DType::Float64);
    partials.push_back(sum(squares ? block * block : block).item<double>());
  }
  return pairwise(partials);
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

// The partials must come from one kind of device for the bits to match: a CPU and an OpenCL
// device add a block's elements in different orders, and the scheduler may choose differently
// for a rank's part than for the whole array. So this test pins its work to the CPU.
class DistReductions : public ::testing::TestWithParam<Case> {
  DeviceScope cpu_{"cpu:0"};
};

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

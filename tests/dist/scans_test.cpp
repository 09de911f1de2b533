// The scans against references computed in this process over the whole array: the reproducible
// mode bit-identical to its definition and to the same scan on one process (so identical for
// every number of ranks ctest runs this with), both modes within a bound derived from the
// dtype's epsilon of the exact scan.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dist_support.hpp"

namespace switchyard::dist {
namespace {

using testing::Case;
using testing::global_array;
using testing::kCases;
using testing::same_bits;

DistArray scanned(const DistArray& a, Accumulate op, Summation mode) {
  return op == Accumulate::Prod ? cumprod(a, mode) : cumsum(a, mode);
}

// Data for op: normal values to add, values within 5% of 1 to multiply (whose products over
// 10^5 rows stay far from overflow and underflow).
Array data_for(Accumulate op, const Case& c) {
  Array x = global_array(c.rows, c.columns, c.dtype);
  if (op == Accumulate::Prod) x = x * 0.01 + 1.0;
  eval(x);
  return x;
}

struct Columns {
  std::int64_t rows, per_row;
};

Columns columns_of(const Array& global) {
  const std::int64_t rows = global.shape()[0];
  return {rows, rows == 0 ? 0 : global.size() / rows};
}

// The reproducible scan's definition, written again column by column: each block scanned on its
// own, row after row in float64, each of its rows combined with the fold of the earlier blocks'
// last rows in block order (starting from -0.0 or 1), rounded once to the dtype.
std::vector<double> block_definition(const Array& global, std::int64_t block_rows, Accumulate op) {
  const auto f = [op](double x, double y) { return op == Accumulate::Prod ? x * y : x + y; };
  const std::vector<double> x = global.to_vector<double>();
  const auto [rows, per_row] = columns_of(global);
  std::vector<double> out(x.size());
  for (std::int64_t j = 0; j < per_row; ++j) {
    double offset = op == Accumulate::Prod ? 1.0 : -0.0;
    for (std::int64_t first = 0; first < rows; first += block_rows) {
      double running = 0;
      for (std::int64_t i = first; i < std::min(first + block_rows, rows); ++i) {
        const double v = x[i * per_row + j];
        running = i == first ? v : f(running, v);
        out[i * per_row + j] = f(offset, running);
      }
      offset = f(offset, running);
    }
  }
  if (global.dtype() == DType::Float32)
    for (double& v : out) v = static_cast<float>(v);
  return out;
}

void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t differ = 0, first = 0;
  for (std::size_t i = got.size(); i-- > 0;)
    if (!same_bits(got[i], want[i])) ++differ, first = i;
  EXPECT_EQ(differ, 0u) << "first at " << first << ": " << got[first] << " != " << want[first];
}

// Any order of i additions (multiplications) of rows 0..i errs by at most i·u·Σ|x| (i·u·|Π x|
// to first order, Higham ch. 3-4) with u = ε/2 of the dtype the work is done in; the float32
// reproducible scan works in float64 and rounds once. (i + 1)·ε bounds both.
void expect_within_bound(const std::vector<double>& got, const Array& global, Accumulate op) {
  const std::vector<double> x = global.to_vector<double>();
  const auto [rows, per_row] = columns_of(global);
  const double eps = global.dtype() == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                                      : std::numeric_limits<double>::epsilon();
  ASSERT_EQ(got.size(), x.size());
  for (std::int64_t j = 0; j < per_row; ++j) {
    long double exact = op == Accumulate::Prod ? 1 : 0, magnitude = 0;
    for (std::int64_t i = 0; i < rows; ++i) {
      const double v = x[i * per_row + j];
      exact = op == Accumulate::Prod ? exact * v : exact + v;
      magnitude = op == Accumulate::Prod ? std::abs(exact) : magnitude + std::abs(v);
      const double bound = static_cast<double>(i + 1) * eps * static_cast<double>(magnitude);
      ASSERT_NEAR(got[i * per_row + j], static_cast<double>(exact), bound)
          << "at row " << i << ", column " << j;
    }
  }
}

struct ScanCase {
  Case size;
  Accumulate op;
};

void PrintTo(const ScanCase& c, std::ostream* out) {
  *out << (c.op == Accumulate::Prod ? "cumprod " : "cumsum ");
  testing::PrintTo(c.size, out);
}

std::vector<ScanCase> scan_cases() {
  std::vector<ScanCase> cases;
  for (const Accumulate op : {Accumulate::Sum, Accumulate::Prod})
    for (const Case& c : kCases) cases.push_back({c, op});
  return cases;
}

// Not pinned to a device: the reproducible mode must give the same bits wherever the scheduler
// puts the work.
class DistScans : public ::testing::TestWithParam<ScanCase> {};

TEST_P(DistScans, ReproducibleIsTheBlockDefinitionAndTheOneProcessScan) {
  const auto [c, op] = GetParam();
  const Communicator comm;
  const Array global = data_for(op, c);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const DistArray got = scanned(a, op, Summation::Reproducible);
  EXPECT_EQ(got.layout(), a.layout());
  EXPECT_EQ(got.dtype(), c.dtype);
  const std::vector<double> spread = gather(got).to_vector<double>();
  expect_same_bits(spread, block_definition(global, c.block_rows, op));

  const Communicator alone(MPI_COMM_SELF);
  const DistArray one_rank =
      DistArray::distribute(global, Layout::row_blocks(c.rows, 1, c.block_rows), alone);
  expect_same_bits(spread,
                   scanned(one_rank, op, Summation::Reproducible).local().to_vector<double>());
  expect_within_bound(spread, global, op);
}

TEST_P(DistScans, FastIsWithinTheBound) {
  const auto [c, op] = GetParam();
  const Communicator comm;
  const Array global = data_for(op, c);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const DistArray got = scanned(a, op, Summation::Fast);
  EXPECT_EQ(got.layout(), a.layout());
  EXPECT_EQ(got.dtype(), c.dtype);
  expect_within_bound(gather(got).to_vector<double>(), global, op);
}

TEST_P(DistScans, ReplicatedGivesTheRowBlocksResultWithoutCommunication) {
  const auto [c, op] = GetParam();
  const Communicator comm;
  const Array global = data_for(op, c);
  const DistArray blocks =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const DistArray everywhere(global, Layout::replicated(c.rows, comm.size(), c.block_rows));
  const DistArray got = scanned(everywhere, op, Summation::Reproducible);
  EXPECT_EQ(got.layout(), everywhere.layout());
  expect_same_bits(got.local().to_vector<double>(),
                   gather(scanned(blocks, op, Summation::Reproducible)).to_vector<double>());
  expect_within_bound(scanned(everywhere, op, Summation::Fast).local().to_vector<double>(), global,
                      op);
}

// The local rows made (negated: exact everywhere, and products stay finite) and read on each
// device in turn, and on the CPU's one-thread and all-core paths: the reproducible scan must not
// change in any bit.
TEST_P(DistScans, ReproducibleIsTheSameWhereverTheWorkRuns) {
  const auto [c, op] = GetParam();
  const Communicator comm;
  const Array global = data_for(op, c);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const std::vector<double> want = block_definition(-global, c.block_rows, op);
  std::vector<std::string> ids = {"cpu:0/inline", "cpu:0/parallel"};
  for (const DeviceInfo& d : devices()) ids.push_back(d.id());
  for (const std::string& id : ids) {
    DeviceScope on(id);
    const DistArray negated = map([](const Array& x) { return -x; }, a);
    SCOPED_TRACE("on " + id);
    expect_same_bits(gather(scanned(negated, op, Summation::Reproducible)).to_vector<double>(),
                     want);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, DistScans, ::testing::ValuesIn(scan_cases()));

TEST(DistScanInt64, IsExactInBothModes) {
  const Communicator comm;
  // Products that change sign and grow to about 10^8, far from overflow.
  const std::int64_t pattern[] = {-1, 2, 1, 3, -2};
  std::vector<std::int64_t> values(2 * 37);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = pattern[i % 5];
  const Layout layout = Layout::row_blocks(37, comm.size(), 5);
  const DistArray a = DistArray::distribute(Array::from_vector(values, {37, 2}), layout);
  std::vector<std::int64_t> sums = values, products = values;
  for (std::size_t i = 2; i < values.size(); ++i) {
    sums[i] += sums[i - 2];
    products[i] *= products[i - 2];
  }
  for (const Summation mode : {Summation::Reproducible, Summation::Fast}) {
    EXPECT_EQ(gather(cumsum(a, mode)).to_vector<std::int64_t>(), sums);
    EXPECT_EQ(gather(cumprod(a, mode)).to_vector<std::int64_t>(), products);
  }
}

TEST(DistScanEdges, EmptyArraysAndNegativeZero) {
  const Communicator comm;
  for (const Shape& shape : {Shape{0}, Shape{0, 3}})
    for (const Summation mode : {Summation::Reproducible, Summation::Fast}) {
      const DistArray empty = DistArray::distribute(Array::zeros(shape, DType::Float64),
                                                    Layout::row_blocks(0, comm.size(), 4));
      EXPECT_EQ(cumsum(empty, mode).shape(), shape);
      EXPECT_EQ(cumprod(empty, mode).shape(), shape);
    }
  // NumPy's cumsum keeps a leading -0.0; so does the reproducible mode.
  const DistArray zeros = DistArray::distribute(Array::full({9}, -0.0, DType::Float64),
                                                Layout::row_blocks(9, comm.size(), 2));
  for (const double v : gather(cumsum(zeros)).to_vector<double>()) EXPECT_TRUE(std::signbit(v));
}

TEST(DistScanErrors, AreTyped) {
  const Communicator comm;
  const Layout layout = Layout::row_blocks(12, comm.size(), 4);
  for (const DType dtype : {DType::Bool, DType::Int32, DType::Complex64}) {
    const DistArray a = DistArray::distribute(Array::zeros({12}, dtype), layout);
    EXPECT_THROW(cumsum(a), DTypeError) << name(dtype);
    EXPECT_THROW(cumprod(a, Summation::Fast), DTypeError) << name(dtype);
  }
}

}  // namespace
}  // namespace switchyard::dist

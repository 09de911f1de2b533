// The field across the job's ranks against the same program on one process (this rank alone,
// MPI_COMM_SELF) and against the one-process field of field.hpp: every rank's rows of a frame
// are the one-process frame's bit for bit; the reproducible statistics are bit-identical at any
// rank count, and within the sums' error bound of the one-process statistics, which add in
// another order.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dist_support.hpp"
#include "switchyard/apps/field_dist.hpp"

namespace switchyard::apps::field {
namespace {

using dist::testing::from_every_rank;
using dist::testing::same_bits;

struct FieldCase {
  std::int64_t width, height, block_rows;
  DType dtype;
};

void PrintTo(const FieldCase& c, std::ostream* out) {
  *out << c.width << "x" << c.height << " " << name(c.dtype) << " in blocks of " << c.block_rows
       << " rows";
}

double epsilon(DType dtype) {
  return dtype == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                 : std::numeric_limits<double>::epsilon();
}

void expect_same_bits(const Stats& got, const Stats& want) {
  EXPECT_TRUE(same_bits(got.mean, want.mean)) << got.mean << " != " << want.mean;
  EXPECT_TRUE(same_bits(got.energy, want.energy)) << got.energy << " != " << want.energy;
  EXPECT_TRUE(same_bits(got.coherence, want.coherence))
      << got.coherence << " != " << want.coherence;
}

// Two sums of the same n terms in different orders are each within about n·ε·Σ|term| of the
// exact one (Higham, ch. 4), ε of the dtype the one-process kernel adds in; the coherence
// |Σf| / Σ|f| moves by at most (|ΔΣf| + coherence·|ΔΣ|f||) / Σ|f|.
void expect_within_bound(const Stats& got, const Stats& want, const Grid& grid, double t,
                         const Params& params) {
  const std::vector<double> f = frame(grid, params, t).to_vector<double>();
  double magnitude = 0, power = 0;
  for (const double v : f) {
    magnitude += std::abs(v);
    power += v * v;
  }
  const auto n = static_cast<double>(f.size());
  const double bound = 2 * (n + 1) * epsilon(grid.dtype);
  EXPECT_NEAR(got.mean, want.mean, bound * magnitude / n);
  EXPECT_NEAR(got.energy, want.energy, bound * power / n);
  EXPECT_NEAR(got.coherence, want.coherence, bound * (1 + want.coherence));
}

// The field's sin, exp, hypot and atan2 are Switchyard kernels: the bits match only when every
// rank computes on the device the one-process run uses, so this pins the CPU.
class DistField : public ::testing::TestWithParam<FieldCase> {
 protected:
  Grid grid() const {
    const FieldCase c = GetParam();
    return {.width = c.width, .height = c.height, .dtype = c.dtype};
  }
  DistGrid spread() const {
    return distribute(grid(), dist::Communicator(), GetParam().block_rows);
  }
  DistGrid alone() const {
    return distribute(grid(), dist::Communicator(MPI_COMM_SELF), GetParam().block_rows);
  }

 private:
  DeviceScope cpu_{"cpu:0"};
};

TEST_P(DistField, EveryRankHoldsItsRowsOfTheOneProcessFrame) {
  const Params params;
  const dist::DistArray rows = frame(spread(), params, 0.25);
  const std::vector<double> got = dist::gather(rows).to_vector<double>();
  const std::vector<double> want = field::frame(grid(), params, 0.25).to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(same_bits(got[i], want[i])) << "at " << i << ": " << got[i] << " != " << want[i];
}

TEST_P(DistField, StatisticsAreTheSameAtAnyRankCount) {
  const Params params{.twist = 2, .center_x = -0.1};
  const Stats got = statistics(spread(), params, 0.5);
  expect_same_bits(got, statistics(alone(), params, 0.5));
  for (const double v : from_every_rank(got.energy)) EXPECT_TRUE(same_bits(v, got.energy));
  expect_within_bound(got, field::statistics(grid(), params, 0.5), grid(), 0.5, params);
}

TEST_P(DistField, AnimateIsEachFrameOfTheOneProcessAnimate) {
  const Params params;
  const std::vector<Stats> got = animate(spread(), params, 3, 0.1, 0.2);
  const std::vector<Stats> alone_run = animate(alone(), params, 3, 0.1, 0.2);
  const std::vector<Stats> app = field::animate(grid(), params, 3, 0.1, 0.2);
  ASSERT_EQ(got.size(), 3u);
  ASSERT_EQ(alone_run.size(), 3u);
  ASSERT_EQ(app.size(), 3u);
  for (std::size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(i);
    expect_same_bits(got[i], alone_run[i]);
    expect_within_bound(got[i], app[i], grid(), 0.1 * static_cast<double>(i) + 0.2, params);
  }
}

TEST_P(DistField, FastStatisticsAreWithinTheBound) {
  const Params params;
  const Stats got = statistics(spread(), params, 0.75, dist::Summation::Fast);
  for (const double v : from_every_rank(got.mean)) EXPECT_TRUE(same_bits(v, got.mean));
  expect_within_bound(got, field::statistics(grid(), params, 0.75), grid(), 0.75, params);
}

INSTANTIATE_TEST_SUITE_P(Grids, DistField,
                         ::testing::Values(FieldCase{37, 45, 4, DType::Float32},  // last block 1
                                           FieldCase{64, 30, 8, DType::Float64},
                                           FieldCase{16, 10, 4, DType::Float64},  // 3 blocks
                                           FieldCase{300, 200, 16, DType::Float32}));

// Every rank raises the error before any communication; a reduction after them finds them in
// step.
TEST(DistFieldErrors, AreTypedOnEveryRank) {
  const dist::Communicator comm;
  EXPECT_THROW(distribute({.width = 8, .height = 8}, comm, 0), ValueError);
  EXPECT_THROW(distribute({.width = 0, .height = 8}, comm, 4), ValueError);
  EXPECT_THROW(distribute({.width = 8, .height = 8, .dtype = DType::Int32}, comm, 4), DTypeError);
  const DistGrid grid = distribute({.width = 8, .height = 12, .dtype = DType::Float64}, comm, 4);
  EXPECT_THROW(statistics(grid, {}, std::nan("")), ValueError);
  EXPECT_THROW(statistics(grid, {.damping = std::numeric_limits<double>::infinity()}, 0),
               ValueError);
  EXPECT_THROW(animate(grid, {}, -1, 0.1), ValueError);
  EXPECT_THROW(animate(grid, {}, 2, std::nan("")), ValueError);
  EXPECT_TRUE(animate(grid, {}, 0, 0.1).empty());
  EXPECT_THROW(field::frame(grid.grid, {}, 0, 10, 3), ValueError);
  EXPECT_THROW(field::frame(grid.grid, {}, 0, -1, 3), ValueError);
  EXPECT_NEAR(statistics(grid, {}, 0).energy, field::statistics(grid.grid, {}, 0).energy, 1e-12);
}

}  // namespace
}  // namespace switchyard::apps::field

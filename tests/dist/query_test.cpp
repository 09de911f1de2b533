// The events query across the job's ranks against the same program on one process (this rank
// alone, MPI_COMM_SELF) and against the one-process query of query.hpp: the count and top-k
// equal, the reproducible total and running total bit-identical at any rank count and within a
// bound from the dtype's epsilon of the one-process query's.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dist_support.hpp"
#include "switchyard/apps/query_dist.hpp"

namespace switchyard::apps::query {
namespace {

using dist::testing::same_bits;

struct QueryCase {
  std::int64_t events, block_rows;
  DType dtype;
  double threshold;
  std::int64_t top_k;
  bool ties;  // values on a grid of 1/4 and weights 1: many revenues equal
};

void PrintTo(const QueryCase& c, std::ostream* out) {
  *out << c.events << " " << name(c.dtype) << " events in blocks of " << c.block_rows
       << ", threshold " << c.threshold << ", top " << c.top_k << (c.ties ? ", ties" : "");
}

Events events_for(const QueryCase& c) {
  Events e = synthetic_events(c.events, /*seed=*/5, c.dtype);
  if (c.ties) e = {floor(e.values * 4.0) * 0.25, Array::ones({c.events}, c.dtype)};
  eval(e.values, e.weights);
  return e;
}

double epsilon(DType dtype) {
  return dtype == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                 : std::numeric_limits<double>::epsilon();
}

// Σ|revenue| over the kept events, from the events on the host.
double kept_magnitude(const Events& e, const Query& q) {
  const std::vector<double> v = e.values.to_vector<double>(), w = e.weights.to_vector<double>();
  double total = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] > q.threshold) total += std::abs(v[i] * w[i] * q.scale);
  return total;
}

class DistQuery : public ::testing::TestWithParam<QueryCase> {};

TEST_P(DistQuery, AnyRankCountGivesTheOneProcessAnswers) {
  const QueryCase c = GetParam();
  const Events events = events_for(c);
  const Query q{.threshold = c.threshold, .scale = 2.5, .top_k = c.top_k};
  const DistResult spread = run(distribute(events, dist::Communicator(), c.block_rows), q);
  const DistResult alone =
      run(distribute(events, dist::Communicator(MPI_COMM_SELF), c.block_rows), q);
  const Result app = query::run(events, q);

  EXPECT_EQ(spread.count, app.count);
  EXPECT_EQ(spread.top_revenue, app.top_revenue);
  EXPECT_EQ(spread.top_events, app.top_events);

  EXPECT_TRUE(same_bits(spread.total, alone.total)) << spread.total << " != " << alone.total;
  const std::vector<double> running = dist::gather(spread.running_total).to_vector<double>();
  const std::vector<double> running_alone = dist::gather(alone.running_total).to_vector<double>();
  ASSERT_EQ(running.size(), running_alone.size());
  for (std::size_t i = 0; i < running.size(); ++i)
    EXPECT_TRUE(same_bits(running[i], running_alone[i])) << "at " << i;

  // Both add the same rounded revenues in different orders, each within n·ε·Σ|x| of the exact sum.
  const double magnitude = kept_magnitude(events, q), eps = epsilon(c.dtype);
  const auto n = static_cast<double>(app.count);
  EXPECT_NEAR(spread.total, app.total, 2 * (n + 1) * eps * magnitude);
  const std::vector<double> want = app.running_total.to_vector<double>();
  ASSERT_EQ(running.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(running[i], want[i], 2 * (static_cast<double>(i) + 2) * eps * magnitude)
        << "at " << i;
}

INSTANTIATE_TEST_SUITE_P(
    Queries, DistQuery,
    ::testing::Values(QueryCase{1000, 16, DType::Float32, 0.5, 10, false},
                      QueryCase{1000, 16, DType::Float64, 0.5, 10, false},
                      // enough float64 sums that another order of adding changes the last bits
                      QueryCase{20000, 64, DType::Float64, -1.0, 10, false},
                      QueryCase{777, 8, DType::Float64, -0.2, 25, true},  // tied revenues
                      QueryCase{300, 8, DType::Float32, 2.5, 50, false},  // fewer kept than k
                      QueryCase{10, 4, DType::Float64, 0.0, 3, false},  // at 4 ranks, one has none
                      QueryCase{200, 8, DType::Float32, 100.0, 5, false},  // nothing kept
                      QueryCase{0, 8, DType::Float64, 0.5, 10, false},
                      QueryCase{500, 8, DType::Float64, 0.5, 0, false}));

// Every rank raises the error before any communication; a query after them finds them in step.
TEST(DistQueryErrors, AreTypedOnEveryRank) {
  const dist::Communicator comm;
  const Events events = synthetic_events(40, 1, DType::Float64);
  const DistEvents good = distribute(events, comm, 4);
  EXPECT_THROW(run(good, {.top_k = -1}), ValueError);
  EXPECT_THROW(run(good, {.threshold = std::nan("")}), ValueError);
  const DistEvents other_blocks{good.values, distribute(events, comm, 8).weights};
  EXPECT_THROW(run(other_blocks), dist::LayoutError);
  const DistEvents integers{good.values.with_local(good.values.local().astype(DType::Int64)),
                            good.weights};
  EXPECT_THROW(run(integers), DTypeError);
  const DistEvents matrix =
      distribute({events.values.reshape({20, 2}), events.weights.reshape({20, 2})}, comm, 4);
  EXPECT_THROW(run(matrix), ShapeError);
  EXPECT_EQ(run(good, {.top_k = 3}).count, query::run(events, {.top_k = 3}).count);
}

}  // namespace
}  // namespace switchyard::apps::query

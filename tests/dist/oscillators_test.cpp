// The oscillator network across the job's ranks against the same program on one process (this
// rank alone, MPI_COMM_SELF): bit-identical; and against the single-process app, whose step is
// computed differently (K with a row of ones, captured replays), within a bound.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dist_support.hpp"
#include "switchyard/apps/oscillators_dist.hpp"

namespace switchyard::apps::oscillators {
namespace {

using dist::testing::same_bits;

constexpr std::int64_t kNodes = 45;  // blocks of 8 rows: the last has 5; 4 ranks all hold some
constexpr std::int64_t kBlockRows = 8;

void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(same_bits(got[i], want[i])) << "at " << i << ": " << got[i] << " != " << want[i];
}

struct Run {
  Method method;
  Coupling coupling;
};

// The step's products and row sums are Switchyard kernels, whose order of adding depends on the
// device that runs them: the bits match only when every rank computes on the device the
// one-process run uses, so this pins the CPU.
class DistOscillators : public ::testing::TestWithParam<Run> {
  DeviceScope cpu_{"cpu:0"};
};

TEST_P(DistOscillators, AnyRankCountGivesTheOneProcessResult) {
  const Network net = random_network(kNodes, /*seed=*/3, /*coupling_strength=*/2);
  const Array theta0 = random_phases(kNodes, 4);
  const Options options{.dt = 0.01,
                        .steps = 40,
                        .method = GetParam().method,
                        .coupling = GetParam().coupling,
                        .record_every = 10};
  const Result spread =
      simulate(distribute(net, dist::Communicator(), kBlockRows), theta0, options);
  const Result alone =
      simulate(distribute(net, dist::Communicator(MPI_COMM_SELF), kBlockRows), theta0, options);
  expect_same_bits(spread.phases.to_vector<double>(), alone.phases.to_vector<double>());
  expect_same_bits(spread.order, alone.order);
  EXPECT_EQ(spread.order_steps, (std::vector<std::int64_t>{0, 10, 20, 30, 40}));

  const Result app = oscillators::simulate(net, theta0, options);
  const std::vector<double> got = spread.phases.to_vector<double>();
  const std::vector<double> want = app.phases.to_vector<double>();
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-10) << "at " << i;
  ASSERT_EQ(spread.order.size(), app.order.size());
  for (std::size_t i = 0; i < app.order.size(); ++i)
    EXPECT_NEAR(spread.order[i], app.order[i], 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Methods, DistOscillators,
                         ::testing::Values(Run{Method::Euler, Coupling::MatVec},
                                           Run{Method::RK4, Coupling::MatVec},
                                           Run{Method::Euler, Coupling::Direct}));

TEST(DistOscillatorErrors, AreTyped) {
  const DistNetwork net = distribute(random_network(10, 1), dist::Communicator(), 4);
  EXPECT_THROW(simulate(net, random_phases(11, 2)), ShapeError);
  EXPECT_THROW(simulate(net, random_phases(10, 2), {.dt = -1}), ValueError);
  const Network not_square{Array::zeros({10, 9}, DType::Float64), Array::zeros({10})};
  EXPECT_THROW(distribute(not_square), ShapeError);
}

}  // namespace
}  // namespace switchyard::apps::oscillators

// Data-parallel MLP training across the job's ranks against the same program on one process
// (this rank alone, MPI_COMM_SELF) and against the one-process Trainer of nn.hpp: reproducible
// weights and losses bit-identical at any rank count, the one-process Trainer's bit for bit when
// one block holds the whole batch, and within a bound of them otherwise (another order of adding
// the rows' gradients) and in the fast mode.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "dist_support.hpp"
#include "switchyard/apps/nn_dist.hpp"

namespace switchyard::apps::nn {
namespace {

using dist::testing::from_every_rank;
using dist::testing::same_bits;

constexpr std::int64_t kBatch = 90, kFeatures = 6, kClasses = 3;
constexpr int kSteps = 3;

struct TrainCase {
  std::int64_t block_rows;
  DType dtype;
  bool adam;
};

void PrintTo(const TrainCase& c, std::ostream* out) {
  *out << name(c.dtype) << " " << (c.adam ? "Adam" : "SGD") << ", blocks of " << c.block_rows
       << " rows";
}

std::shared_ptr<const Optimizer> optimizer(bool adam) {
  if (adam) return std::make_shared<Adam>(0.01);
  return std::make_shared<SGD>(0.1, 0.9);
}

MLP model(DType dtype) {
  return MLP({kFeatures, 8, kClasses}, /*seed=*/2, dtype);
}

struct Trained {
  std::vector<double> losses, weights;  // every parameter's elements, in order
};

std::vector<double> weights_of(const MLP& m) {
  std::vector<double> all;
  for (const Array& p : m.parameters()) {
    const std::vector<double> v = p.to_vector<double>();
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

Trained train_spread(const TrainCase& c, const dist::Communicator& comm,
                     dist::Summation mode = dist::Summation::Reproducible) {
  const Dataset data = make_classification(kBatch, kFeatures, kClasses, /*seed=*/1, c.dtype);
  const DistBatch batch = distribute(data, comm, c.block_rows);
  DistTrainer trainer(model(c.dtype), optimizer(c.adam), mode);
  Trained out;
  for (int s = 0; s < kSteps; ++s) out.losses.push_back(trainer.train_step(batch));
  out.weights = weights_of(trainer.model());
  return out;
}

Trained train_one_process(const TrainCase& c) {
  const Dataset data = make_classification(kBatch, kFeatures, kClasses, /*seed=*/1, c.dtype);
  Trainer trainer(model(c.dtype), optimizer(c.adam));
  Trained out;
  for (int s = 0; s < kSteps; ++s) out.losses.push_back(trainer.train_step(data.x, data.labels));
  out.weights = weights_of(trainer.model());
  return out;
}

void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(same_bits(got[i], want[i])) << "at " << i << ": " << got[i] << " != " << want[i];
}

// A step's gradient adds kBatch rows' terms in another order, off by about kBatch·ε relative;
// three steps of lr ≤ 0.1 carry that into the weights and losses far below this bound.
void expect_near(const std::vector<double>& got, const std::vector<double>& want, DType dtype) {
  const double tolerance = dtype == DType::Float32 ? 1e-4 : 1e-11;
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tolerance * (1 + std::abs(want[i]))) << "at " << i;
}

// A block's gradients are Switchyard kernels (matmuls, exp, log): the bits match only when every
// rank computes on the device the one-process run uses, so this pins the CPU.
class DistTraining : public ::testing::TestWithParam<TrainCase> {
  DeviceScope cpu_{"cpu:0"};
};

TEST_P(DistTraining, AnyRankCountTrainsTheSameWeights) {
  const TrainCase c = GetParam();
  const Trained spread = train_spread(c, dist::Communicator());
  const Trained alone = train_spread(c, dist::Communicator(MPI_COMM_SELF));
  expect_same_bits(spread.losses, alone.losses);
  expect_same_bits(spread.weights, alone.weights);
  for (const double w : from_every_rank(spread.weights.back()))
    EXPECT_TRUE(same_bits(w, spread.weights.back()));

  const Trained app = train_one_process(c);
  if (c.block_rows >= kBatch) {  // one block: the one-process step's own sums
    expect_same_bits(spread.losses, app.losses);
    expect_same_bits(spread.weights, app.weights);
  } else {
    expect_near(spread.losses, app.losses, c.dtype);
    expect_near(spread.weights, app.weights, c.dtype);
  }
}

TEST_P(DistTraining, FastModeIsTheSameOnEveryRankAndNearTheOneProcessRun) {
  const TrainCase c = GetParam();
  const Trained fast = train_spread(c, dist::Communicator(), dist::Summation::Fast);
  for (const double w : from_every_rank(fast.weights.front()))
    EXPECT_TRUE(same_bits(w, fast.weights.front()));
  const Trained app = train_one_process(c);
  expect_near(fast.losses, app.losses, c.dtype);
  expect_near(fast.weights, app.weights, c.dtype);
}

INSTANTIATE_TEST_SUITE_P(
    Batches, DistTraining,
    ::testing::Values(TrainCase{8, DType::Float64, true},    // 12 blocks, the last of 2 rows
                      TrainCase{8, DType::Float32, false},   // SGD with momentum
                      TrainCase{30, DType::Float64, false},  // 3 blocks: at 4 ranks, one idle
                      TrainCase{7, DType::Float32, true},    // 13 blocks: odd counts carried up
                      TrainCase{128, DType::Float64, true},  // one block: the Trainer's bits
                      TrainCase{128, DType::Float32, true}));

// Every rank raises the error before any communication; a step after them finds them in step.
TEST(DistTrainingErrors, AreTypedOnEveryRank) {
  const dist::Communicator comm;
  const Dataset data = make_classification(20, kFeatures, kClasses, 1, DType::Float64);
  DistTrainer trainer(model(DType::Float64), optimizer(true));
  const DistBatch good = distribute(data, comm, 4);
  EXPECT_THROW(trainer.train_step({good.x, good.x}), ShapeError);
  const DistBatch float_labels{good.x,
                               good.labels.with_local(good.labels.local().astype(DType::Float64))};
  EXPECT_THROW(trainer.train_step(float_labels), DTypeError);
  EXPECT_THROW(trainer.train_step({good.x, distribute(data, comm, 8).labels}), dist::LayoutError);
  const dist::Layout everywhere = dist::Layout::replicated(20, comm.size(), 4);
  EXPECT_THROW(trainer.train_step({dist::DistArray(data.x, everywhere, comm),
                                   dist::DistArray(data.labels, everywhere, comm)}),
               dist::LayoutError);
  const Dataset narrow{data.x.slice(1, 0, 4), data.labels};
  EXPECT_THROW(trainer.train_step(distribute(narrow, comm, 4)), ShapeError);
  const Dataset empty{Array::zeros({0, kFeatures}, DType::Float64),
                      Array::zeros({0}, DType::Int64)};
  EXPECT_THROW(trainer.train_step(distribute(empty, comm, 4)), ValueError);
  EXPECT_THROW(DistTrainer(model(DType::Float64), nullptr), ValueError);
  EXPECT_THROW(distribute(Dataset{}, comm, 4), ValueError);
  EXPECT_TRUE(std::isfinite(trainer.train_step(good)));
}

}  // namespace
}  // namespace switchyard::apps::nn

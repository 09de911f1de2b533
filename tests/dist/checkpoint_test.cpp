// Checkpoints on every rank count: an array saved and loaded back has its bits, in the same block
// size or another; a simulation stopped at step k and resumed from its checkpoint ends as one that
// never stopped; and a bad file raises its typed error on every rank. A file written on one rank
// count and read on another is checked by CMakeLists.txt's DistCheckpointRestart, on 3 and 2 ranks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dist_support.hpp"
#include "switchyard/apps/oscillators_dist.hpp"

namespace switchyard::dist {
namespace {

using testing::Case;
using testing::global_array;
using testing::kCases;

// A path every rank of the job names alike (rank 0's process id), removed at the end.
class SharedPath {
 public:
  explicit SharedPath(const std::string& name) {
    long id = static_cast<long>(getpid());
    MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    path_ = std::filesystem::temp_directory_path() /
            ("switchyard_" + name + "_" + std::to_string(id) + ".sydist");
  }
  ~SharedPath() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (Communicator().rank() == 0) std::filesystem::remove(path_);
  }
  const std::filesystem::path& operator()() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::vector<std::byte> bytes_of(const Array& a) {
  std::vector<std::byte> bytes(a.nbytes());
  a.to_host(bytes.data(), bytes.size());
  return bytes;
}

void expect_same_array(const Array& got, const Array& want) {
  EXPECT_EQ(got.dtype(), want.dtype());
  EXPECT_EQ(to_string(got.shape()), to_string(want.shape()));
  EXPECT_TRUE(bytes_of(got) == bytes_of(want)) << "the elements differ";
}

class Checkpoints : public ::testing::TestWithParam<Case> {};

TEST_P(Checkpoints, LoadBackTheSameRowsAndStep) {
  const Case c = GetParam();
  const Communicator comm;
  const Array global = global_array(c.rows, c.columns, c.dtype);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows), comm);
  const SharedPath path("same");
  save(a, path(), /*step=*/123);
  const Checkpoint loaded = load(path(), comm, {.block_rows = c.block_rows});
  EXPECT_EQ(loaded.step, 123);
  EXPECT_TRUE(loaded.array.layout() == a.layout());
  expect_same_array(loaded.array.local(), a.local());
}

TEST_P(Checkpoints, LoadInAnotherBlockSize) {
  const Case c = GetParam();
  const Communicator comm;
  const Array global = global_array(c.rows, c.columns, c.dtype);
  const SharedPath path("blocks");
  save(DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows), comm),
       path());
  for (const std::int64_t block_rows : {std::int64_t{1}, std::int64_t{5}, c.rows + 1}) {
    const Checkpoint loaded = load(path(), comm, {.block_rows = block_rows});
    EXPECT_EQ(loaded.array.layout().block_rows(), block_rows);
    expect_same_array(gather(loaded.array), global);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, Checkpoints, ::testing::ValuesIn(kCases));

TEST(CheckpointLayouts, ReplicatedRaggedAndIntegers) {
  const Communicator comm;
  const Array global = Array::arange(0, 60).reshape({20, 3});  // int64
  const DistArray replicated =
      DistArray::distribute(global, Layout::replicated(20, comm.size(), 4), comm);
  const SharedPath path("layouts");
  save(replicated, path());
  expect_same_array(gather(load(path(), comm, {.block_rows = 4}).array), global);

  // The last 11 rows kept: the ranks hold different counts, a ragged layout.
  const Layout blocks = Layout::row_blocks(20, comm.size(), 4);
  const Array keep = global.slice(1, 0, 1).squeeze(1) > 25.0;
  const DistArray ragged = compress(DistArray::distribute(global, blocks, comm),
                                    DistArray::distribute(keep, blocks, comm));
  ASSERT_TRUE(ragged.layout().is_ragged());
  save(ragged, path());
  expect_same_array(gather(load(path(), comm, {.block_rows = 2}).array), gather(ragged));
}

// Rank 0 damages the file that every rank then loads.
template <class Damage>
void damage(const std::filesystem::path& path, Damage&& how) {
  if (Communicator().rank() == 0) how(path);
  MPI_Barrier(MPI_COMM_WORLD);
}

void overwrite(const std::filesystem::path& path, std::streamoff at, const std::string& bytes) {
  std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
  file.seekp(at);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

class BadCheckpoints : public ::testing::Test {
 protected:
  void SetUp() override {
    save(DistArray::distribute(global_, Layout::row_blocks(10, comm_.size(), 4), comm_), path_());
  }

  const Communicator comm_;
  const Array global_ = global_array(10, 0, DType::Float64);
  const SharedPath path_{"bad"};
};

TEST_F(BadCheckpoints, MissingFile) {
  damage(path_(), [](const std::filesystem::path& p) { std::filesystem::remove(p); });
  EXPECT_THROW(load(path_(), comm_), CheckpointError);
}

TEST_F(BadCheckpoints, TruncatedData) {
  damage(path_(), [](const std::filesystem::path& p) {
    std::filesystem::resize_file(p, std::filesystem::file_size(p) - 1);
  });
  EXPECT_THROW(load(path_(), comm_), CheckpointError);
}

TEST_F(BadCheckpoints, TruncatedHeader) {
  damage(path_(), [](const std::filesystem::path& p) { std::filesystem::resize_file(p, 20); });
  EXPECT_THROW(load(path_(), comm_), CheckpointError);
}

TEST_F(BadCheckpoints, WrongMagic) {
  damage(path_(), [](const std::filesystem::path& p) { overwrite(p, 0, "NPY"); });
  EXPECT_THROW(load(path_(), comm_), CheckpointError);
}

TEST_F(BadCheckpoints, LaterVersion) {
  damage(path_(), [](const std::filesystem::path& p) { overwrite(p, 8, std::string(1, '\2')); });
  EXPECT_THROW(load(path_(), comm_), CheckpointError);
}

TEST_F(BadCheckpoints, UnexpectedDTypeOrShape) {
  EXPECT_THROW(load(path_(), comm_, {.dtype = DType::Float32}), DTypeError);
  EXPECT_THROW(load(path_(), comm_, {.shape = Shape{10, 1}}), ShapeError);
  const Checkpoint expected = load(path_(), comm_, {.dtype = DType::Float64, .shape = Shape{10}});
  expect_same_array(gather(expected.array), global_);
}

}  // namespace
}  // namespace switchyard::dist

namespace switchyard::apps::oscillators {
namespace {

// The step runs on the CPU on every rank, for bits that do not depend on the device.
class ResumedOscillators : public ::testing::TestWithParam<Method> {
  DeviceScope cpu_{"cpu:0"};
};

TEST_P(ResumedOscillators, EndAsARunThatNeverStopped) {
  constexpr std::int64_t kNodes = 45, kHalf = 20;
  const DistNetwork net =
      distribute(random_network(kNodes, /*seed=*/3, /*coupling_strength=*/2), {}, 8);
  const Array theta0 = random_phases(kNodes, 4);
  const Options whole{.dt = 0.01, .steps = 2 * kHalf, .method = GetParam(), .record_every = 3};
  const Result uninterrupted = simulate(net, theta0, whole);

  Options first = whole;
  first.steps = kHalf;
  const dist::SharedPath path("oscillators");
  save_checkpoint(path(), net, simulate(net, theta0, first), kHalf);
  const Resume from = load_checkpoint(path(), net);
  EXPECT_EQ(from.step, kHalf);
  Options rest = whole;
  rest.first_step = from.step;
  const Result resumed = simulate(net, from.theta, rest);

  dist::expect_same_array(resumed.phases, uninterrupted.phases);
  // r from step kHalf on, on the uninterrupted run's schedule (21, 24, ...: multiples of 3).
  std::vector<std::int64_t> want_steps;
  std::vector<double> want_order;
  for (std::size_t i = 0; i < uninterrupted.order_steps.size(); ++i)
    if (uninterrupted.order_steps[i] >= kHalf) {
      want_steps.push_back(uninterrupted.order_steps[i]);
      want_order.push_back(uninterrupted.order[i]);
    }
  EXPECT_EQ(resumed.order_steps, want_steps);
  ASSERT_EQ(resumed.order.size(), want_order.size());
  for (std::size_t i = 0; i < want_order.size(); ++i)
    EXPECT_TRUE(dist::testing::same_bits(resumed.order[i], want_order[i])) << "at " << i;
}

INSTANTIATE_TEST_SUITE_P(Methods, ResumedOscillators,
                         ::testing::Values(Method::Euler, Method::RK4));

TEST(ResumedOscillatorErrors, FirstStepBeyondTheEnd) {
  const DistNetwork net = distribute(random_network(10, 1), {}, 4);
  EXPECT_THROW(simulate(net, random_phases(10, 2), {.steps = 5, .first_step = 6}), ValueError);
}

}  // namespace
}  // namespace switchyard::apps::oscillators

// Placement by the process's scheduler, end to end: data read again and again moves to the device
// that is faster with it there (scheduler::Rent), data read once stays where it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "runtime/buffer.hpp"
#include "runtime/placement.hpp"
#include "runtime/result_destination.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace {

using namespace switchyard;
using namespace switchyard::testing_support;

constexpr std::int64_t kElements = std::int64_t{1} << 20;

// Host data (not a pending fill, which would fuse into the work reading it).
Array filled(float value) {
  return Array::from_vector(std::vector<float>(kElements, value));
}

// History, restored before every run so that real runs do not move it, makes the first device that
// is not the host the faster device for `a * b` once its inputs are there (1 µs to execute) and the
// host the faster one while they are on the host (5 ms there; moving them into the first device
// that is not the host takes 20 ms). Every other device takes 10 s. Each run left on the host then
// loses about 5 ms (less the result's way back), which adds up until moving the inputs pays.
class ReusedData : public ::testing::Test {
 protected:
  static constexpr double kHost_s = 5e-3, kMoveIn_s = 20e-3;

  void SetUp() override {
    // The device data moves to: the first one, by the registry's priority, that is not the host.
    for (const Device* d : Registry::instance().devices())
      if (!d->info().host_addressable && away_.empty()) away_ = d->info().id();
    if (away_.empty()) GTEST_SKIP() << "no device but the host: moving data needs a second one";
    ASSERT_TRUE(scheduler_knows_every_device()) << "a device was not calibrated within 30 s";
    // The signature, and the kernel compiled on the first device that is not the host, from runs at
    // another size (of two arrays in memory: a pending operand would fuse into the kernel and
    // change it).
    const Array x = Array::from_vector(std::vector<float>(16, 1.0f)),
                y = Array::from_vector(std::vector<float>(16, 2.0f));
    {
      DeviceScope compile_there(away_);
      eval(x * y);
    }
    eval(x * y);
    ASSERT_EQ(metrics().recent.back().label, "mul float32");
    const std::uint64_t signature = std::stoull(metrics().recent.back().signature, nullptr, 16);

    scheduler::Scheduler& s = *runtime::Placement::instance().scheduler();
    saved_ = s.history();
    // Models are named by device ("cpu:0/inline", "opencl:0"); id.device indexes the registry.
    const auto model_named = [&](const std::string& prefix) {
      for (const auto& m : s.models())
        if (m.name.rfind(prefix, 0) == 0) return m;
      throw std::runtime_error("no model named " + prefix);
    };
    // Host data is valid on the host device too (Buffer::placement).
    const std::uint32_t on_host_mask = 1u << model_named(host_).id.device;
    const std::uint32_t on_away_mask = 1u << model_named(away_).id.device;
    const auto input = [&](bool on_away) {
      return scheduler::InputPlacement{kElements * sizeof(float), true,
                                       on_host_mask | (on_away ? on_away_mask : 0u)};
    };
    for (const bool on_away : {false, true}) {
      scheduler::Workload w;
      w.signature = signature;
      w.elements = kElements;
      w.inputs = {input(on_away), input(on_away)};
      for (std::size_t c = 0; c < s.models().size(); ++c) {
        const auto& m = s.models()[c];
        const bool host = m.name.rfind(host_, 0) == 0, away = m.name == away_;
        const double execute_s = host ? kHost_s : away ? 1e-6 : 10;
        const double move_in_s = away && !on_away ? kMoveIn_s : 0;
        for (int i = 0; i < scheduler::History::kWindow; ++i)
          s.record(w, static_cast<int>(c), execute_s, move_in_s);
      }
    }
    primed_ = s.history();
    reset_metrics();
  }
  void TearDown() override {
    if (!away_.empty()) runtime::Placement::instance().scheduler()->history() = saved_;
  }
  // Where `a * b` ran and why, decided on the primed history.
  ExecutionRecord run_multiply(const Array& a, const Array& b) {
    runtime::Placement::instance().scheduler()->history() = primed_;
    eval(a * b);
    return metrics().recent.back();
  }

  const std::string host_ = Registry::instance().cpu().info().id();
  std::string away_;
  scheduler::History saved_, primed_;
};

TEST_F(ReusedData, InputsReadAgainAndAgainMoveOnceTheTimeLostReachesTheCostOfMoving) {
  const Array a = filled(3), b = filled(4);
  std::vector<std::string> ran_on;
  int moved_at = -1;
  for (int run = 0; run < 12 && moved_at < 0; ++run) {
    const ExecutionRecord r = run_multiply(a, b);
    ran_on.push_back(r.device);
    if (r.chosen_reason.find("kept coming back") != std::string::npos) {
      moved_at = run;
      EXPECT_EQ(r.device, away_);
    } else {
      EXPECT_EQ(r.device, host_) << "run " << run << ": " << r.chosen_reason;
    }
  }
  // Each run on the host loses its 5 ms less the result's way back from opencl:0 (under 2.5 ms
  // for 4 MB on any device here): at most 8 runs pay for the 20 ms move.
  ASSERT_GE(moved_at, 1) << "the first run has lost nothing yet";
  ASSERT_LE(moved_at, 8);
  EXPECT_NE(std::find(a.locations().begin(), a.locations().end(), away_), a.locations().end());
  // Once there, they stay: the work follows them, and the values hold.
  const ExecutionRecord after = run_multiply(a, b);
  EXPECT_EQ(after.device, away_) << after.chosen_reason;
  EXPECT_EQ((a * b).to_vector<float>(), std::vector<float>(kElements, 12.0f));
}

TEST_F(ReusedData, InputsReadOnceNeverMove) {
  for (int run = 0; run < 12; ++run) {
    const ExecutionRecord r = run_multiply(filled(3), filled(4));
    EXPECT_EQ(r.device, host_) << "run " << run << ": " << r.chosen_reason;
  }
}

// A join's result is written piece by piece into storage that starts out living nowhere: the
// pieces move to the device that writes them, and nothing of the result moves there first.
TEST(JoinPlacement, OnlyThePiecesMoveToTheDeviceThatWritesThem) {
  const auto other = device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host";
  constexpr std::int64_t n = 1 << 16;
  std::vector<float> a_values(n), b_values(n / 2);
  for (std::int64_t i = 0; i < n; ++i) a_values[i] = static_cast<float>(i);
  for (std::int64_t i = 0; i < n / 2; ++i) b_values[i] = -static_cast<float>(i);
  const Array a = Array::from_vector(a_values), b = Array::from_vector(b_values);
  reset_metrics();
  Array joined;
  {
    const DeviceScope there(*other);
    joined = concatenate(std::vector<Array>{a, b});
    eval(joined);
  }
  EXPECT_EQ(metrics().totals.bytes_moved, (a_values.size() + b_values.size()) * sizeof(float));
  EXPECT_EQ(joined.locations(), std::vector<std::string>{*other});
  std::vector<float> expected = a_values;
  expected.insert(expected.end(), b_values.begin(), b_values.end());
  EXPECT_EQ(joined.to_vector<float>(), expected);
}

// Whether eager work's result is expected back on the host (Workload::result_to_host) follows
// where its inputs live: on the host alone, yes; with a copy on a device too, it stays there
// (unless the same work's results were read on the host before: the next test); storage not yet
// written says nothing.
TEST(ResultPlacement, ExpectedOnTheHostOnlyWhenEveryInputLivesOnTheHostAlone) {
  const auto other = device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host";
  const Array host_only = Array::from_vector(std::vector<float>(64, 1.0f));
  const Array both = Array::from_vector(std::vector<float>(64, 2.0f));
  {
    const DeviceScope there(*other);
    eval(both * 3.0f);  // reads `both` there: a copy of it stays there
  }
  ASSERT_EQ(both.locations(), (std::vector<std::string>{"host", *other}));
  const auto unwritten = Buffer::allocate_unwritten(256);
  const auto result_to_host = [](std::vector<const Buffer*> inputs) {
    scheduler::Workload w;
    runtime::add_residency(w, inputs);
    return w.result_to_host;
  };
  EXPECT_TRUE(result_to_host({host_only.buffer().get()}));
  EXPECT_TRUE(result_to_host({host_only.buffer().get(), unwritten.get()}));
  EXPECT_FALSE(result_to_host({host_only.buffer().get(), both.buffer().get()}));
  EXPECT_FALSE(result_to_host({both.buffer().get()}));
}

// Work whose results, written on a device, were read on the host since is expected back on the
// host, whatever its inputs say; reads by work pinned to the device do not count.
TEST(ResultPlacement, ExpectedOnTheHostOnceTheSameWorksResultsWereReadThere) {
  const auto other = device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host";
  const Array data = Array::from_vector(std::vector<float>(64, 4.0f));
  Array result;
  {
    const DeviceScope there(*other);
    result = sqrt(data) * data - 7.0f;  // work no other test runs
    eval(result);
    eval(result * 2.0f);  // read in place, pinned: says nothing
  }
  ASSERT_EQ(data.locations(), (std::vector<std::string>{"host", *other}));
  ASSERT_EQ(result.locations(), std::vector<std::string>{*other});
  scheduler::Workload w;
  w.signature = result.buffer()->provenance().value().signature;
  w.elements = result.size();
  const auto result_to_host = [&] {
    runtime::add_residency(w, std::vector<const Buffer*>{data.buffer().get()});
    return w.result_to_host;
  };
  EXPECT_FALSE(result_to_host());
  EXPECT_EQ(result.to_vector<float>(), std::vector<float>(64, 1.0f));  // 2 * 4 - 7, read here
  EXPECT_TRUE(result_to_host());
}

// The index in the registry's device list of the first device matching `is`, or -1.
template <class Is>
int registry_index(Is is) {
  const auto devices = Registry::instance().devices();
  const auto at = std::find_if(devices.begin(), devices.end(), is);
  return at == devices.end() ? -1 : static_cast<int>(at - devices.begin());
}

// Work whose results, written on the host, were wanted on a device since (read by work the
// scheduler placed there) is expected on that device next, until reads elsewhere outnumber those:
// the device is priced with no copy of the result, the host with one.
TEST(ResultPlacement, ExpectedOnTheDeviceThatWantedTheSameWorksResults) {
  const auto other = device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host";
  const int at = registry_index([&](const Device* d) { return d->info().id() == *other; });
  const int host = registry_index([](const Device* d) { return d->info().host_addressable; });
  ASSERT_GE(at, 0);
  ASSERT_GE(host, 0);
  const auto devices = Registry::instance().devices();
  const Array data = Array::from_vector(std::vector<float>(64, 3.0f));
  Array result;
  {
    const DeviceScope here(devices[static_cast<std::size_t>(host)]->info().id());
    result = data * data + 0.5f;  // work no other test runs
    eval(result);
  }
  scheduler::Workload w;
  w.signature = result.buffer()->provenance().value().signature;
  w.elements = result.size();
  const auto destination = [&] {
    runtime::add_residency(w, std::vector<const Buffer*>{data.buffer().get()});
    return std::pair{w.result_to_host, w.result_to_device};
  };
  EXPECT_EQ(destination(), std::pair(true, -1));  // nothing read yet: the inputs' place
  const auto consumer = [&] { return result * 2.0f - 1.0f; };
  Array compiled_there;
  {
    const DeviceScope there(*other);  // compiled there; pinned reads say nothing
    compiled_there = consumer();
    eval(compiled_there);
  }
  EXPECT_EQ(destination(), std::pair(true, -1));
  {
    const OnlyFastOn steer({compiled_there.buffer()->provenance().value().signature}, 64, *other);
    const Array placed = consumer();
    eval(placed);
    ASSERT_EQ(placed.buffer()->provenance().value().ran_on->info().id(), *other);
  }
  EXPECT_EQ(destination(), std::pair(false, at));
  EXPECT_EQ(result.to_vector<float>(), std::vector<float>(64, 9.5f));  // a read on the host
  EXPECT_EQ(destination(), std::pair(true, -1));
}

// One kernel serves several ends (a copy assembling a large matrix for a product, copies of a few
// values for the host's next step): where its results are wanted is kept per size.
TEST(ResultPlacement, WhereResultsAreWantedIsKeptPerSize) {
  const auto other = device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host";
  const int at = registry_index([&](const Device* d) { return d->info().id() == *other; });
  ASSERT_GE(at, 0);
  const Device* there = Registry::instance().devices()[static_cast<std::size_t>(at)];
  constexpr std::uint64_t kSignature = 0x5e1f'7e57'0000'0001ull;  // no kernel's
  runtime::note_result_wanted(kSignature, std::int64_t{1} << 24, there);
  runtime::note_result_wanted(kSignature, 4096, nullptr);
  EXPECT_EQ(runtime::result_destination(kSignature, std::int64_t{1} << 24), at);
  EXPECT_EQ(runtime::result_destination(kSignature, 4096), runtime::kDestinationHost);
  EXPECT_EQ(runtime::result_destination(kSignature, 64), runtime::kDestinationUnknown);
}

// A strided operand of a product is copied into contiguous storage first. That copy's result is
// read by the product, wherever the product runs: unlike the same copy on its own, it is not
// priced as coming back to the host.
TEST(ResultPlacement, AProductsOperandIsNotExpectedBackOnTheHost) {
  const auto other = device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host";
  ASSERT_TRUE(scheduler_knows_every_device()) << "a device was not calibrated within 30 s";
  const scheduler::DeviceModel* model = nullptr;
  for (const scheduler::DeviceModel& m : runtime::Placement::instance().scheduler()->models())
    if (m.name == *other) model = &m;
  ASSERT_NE(model, nullptr);
  constexpr std::int64_t n = 512;
  const Array y = Array::uniform({n, n}, 2);
  eval(y);
  // Every other column of a fresh (n, 2n) matrix on the host alone: strided, so BLAS cannot read
  // it, and a copy is made first. Fresh each time, so that no run has moved it yet.
  const auto every_other_column = [&](std::uint64_t seed) {
    const Array x = Array::uniform({n, 2 * n}, seed);
    eval(x);
    return x.slice(1, 0, 2 * n, 2);
  };
  // The other device's predicted transfer for the copy kernel (the first one explained).
  const auto copy_transfer_s = [&](const std::function<void()>& work) {
    const Explanation e = explain(work);
    EXPECT_FALSE(e.kernels.empty());
    if (e.kernels.empty()) return 0.0;
    EXPECT_EQ(e.kernels.front().kernel, "copy float32");
    for (const CandidateReport& c : e.kernels.front().candidates)
      if (c.name == *other) return c.transfer_s;
    ADD_FAILURE() << "no candidate " << *other;
    return 0.0;
  };
  const Array alone = every_other_column(1), operand = every_other_column(3);
  const double alone_s = copy_transfer_s([&] { eval(alone.copy()); });
  const double as_operand_s = copy_transfer_s([&] { eval(matmul(operand, y)); });
  // Alone: its input in and its result (n² floats) out; as an operand: the same input in only.
  const double result_back_s = model->d2h_latency_s + double(n * n * 4) / model->d2h_bytes_per_s;
  EXPECT_NEAR(alone_s - as_operand_s, result_back_s, 1e-6 * result_back_s)
      << "alone " << alone_s << " s, operand " << as_operand_s;
}

}  // namespace

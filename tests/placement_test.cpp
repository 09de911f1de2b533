// Placement by the process's scheduler, end to end: data read again and again moves to the device
// that is faster with it there (scheduler::Rent), data read once stays where it is.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/placement.hpp"
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

// History, restored before every run so that real runs do not move it, makes opencl:0 the faster
// device for `a * b` once its inputs are there (1 µs to execute) and the host the faster one
// while they are on the host (5 ms there; moving them into opencl:0 takes 20 ms). Every other
// device takes 10 s. Each run left on the host then loses about 5 ms (less the result's way
// back), which adds up until moving the inputs pays.
class ReusedData : public ::testing::Test {
 protected:
  static constexpr double kHost_s = 5e-3, kMoveIn_s = 20e-3;

  void SetUp() override {
    if (!has_opencl()) GTEST_SKIP() << "no opencl:0: moving data needs a second device";
    ASSERT_TRUE(scheduler_knows_every_device()) << "a device was not calibrated within 30 s";
    // The signature, and the kernel compiled on opencl:0, from runs at another size (of two
    // arrays in memory: a pending operand would fuse into the kernel and change it).
    const Array x = Array::from_vector(std::vector<float>(16, 1.0f)),
                y = Array::from_vector(std::vector<float>(16, 2.0f));
    {
      DeviceScope compile_there("opencl:0");
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
    const std::uint32_t on_host_mask = 1u << model_named("cpu:0").id.device;
    const std::uint32_t on_opencl_mask = 1u << model_named("opencl:0").id.device;
    const auto input = [&](bool on_opencl) {
      return scheduler::InputPlacement{kElements * sizeof(float), true,
                                       on_host_mask | (on_opencl ? on_opencl_mask : 0u)};
    };
    for (const bool on_opencl : {false, true}) {
      scheduler::Workload w;
      w.signature = signature;
      w.elements = kElements;
      w.inputs = {input(on_opencl), input(on_opencl)};
      for (std::size_t c = 0; c < s.models().size(); ++c) {
        const auto& m = s.models()[c];
        const bool host = m.name.rfind("cpu:0", 0) == 0, opencl = m.name == "opencl:0";
        const double execute_s = host ? kHost_s : opencl ? 1e-6 : 10;
        const double move_in_s = opencl && !on_opencl ? kMoveIn_s : 0;
        for (int i = 0; i < scheduler::History::kWindow; ++i)
          s.record(w, static_cast<int>(c), execute_s, move_in_s);
      }
    }
    primed_ = s.history();
    reset_metrics();
  }
  void TearDown() override {
    if (has_opencl()) runtime::Placement::instance().scheduler()->history() = saved_;
  }
  // Where `a * b` ran and why, decided on the primed history.
  ExecutionRecord run_multiply(const Array& a, const Array& b) {
    runtime::Placement::instance().scheduler()->history() = primed_;
    eval(a * b);
    return metrics().recent.back();
  }

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
      EXPECT_EQ(r.device, "opencl:0");
    } else {
      EXPECT_EQ(r.device, "cpu:0") << "run " << run << ": " << r.chosen_reason;
    }
  }
  // Each run on the host loses its 5 ms less the result's way back from opencl:0 (under 2.5 ms
  // for 4 MB on any device here): at most 8 runs pay for the 20 ms move.
  ASSERT_GE(moved_at, 1) << "the first run has lost nothing yet";
  ASSERT_LE(moved_at, 8);
  EXPECT_NE(std::find(a.locations().begin(), a.locations().end(), "opencl:0"), a.locations().end());
  // Once there, they stay: the work follows them, and the values hold.
  const ExecutionRecord after = run_multiply(a, b);
  EXPECT_EQ(after.device, "opencl:0") << after.chosen_reason;
  EXPECT_EQ((a * b).to_vector<float>(), std::vector<float>(kElements, 12.0f));
}

TEST_F(ReusedData, InputsReadOnceNeverMove) {
  for (int run = 0; run < 12; ++run) {
    const ExecutionRecord r = run_multiply(filled(3), filled(4));
    EXPECT_EQ(r.device, "cpu:0") << "run " << run << ": " << r.chosen_reason;
  }
}

}  // namespace

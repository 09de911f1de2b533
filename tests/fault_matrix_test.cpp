// The fault matrix: every fault kind (compile, launch, oom, lost) on every device this machine
// has, against the three things a user runs — an eager op chain, explain, and the CLI's demo and
// explain. Each must give correct results, report the fallback, and keep going (exit status 0)
// while another device remains.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "child_process.hpp"
#include "runtime/attempts.hpp"
#include "runtime/fault_injection.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using testing_support::device_ids;
using testing_support::failures_on;
using testing_support::last_signatures;
using testing_support::OnlyFastOn;
using testing_support::scheduler_knows_every_device;

constexpr const char* kKinds[] = {"compile", "launch", "oom", "lost"};

using Case = std::tuple<std::string, std::string>;  // device id, fault kind

bool is_host(const std::string& device) {
  for (const auto& d : devices())
    if (d.id() == device) return d.host_addressable;
  return false;
}

std::vector<float> pattern(std::int64_t n, float scale, float offset) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 89) * scale + offset;
  return v;
}

// A unary op for each device index, so that a compile fault meets a kernel that device has not
// prepared yet in this process (a kernel in memory skips the compile stage).
Array fresh_unary(std::size_t device_index, const Array& a) {
  switch (device_index % 4) {
    case 0:
      return tanh(a);
    case 1:
      return cos(a);
    case 2:
      return floor(a);
    default:
      return ceil(a);
  }
}
float fresh_unary(std::size_t device_index, float x) {
  switch (device_index % 4) {
    case 0:
      return std::tanh(x);
    case 1:
      return std::cos(x);
    case 2:
      return std::floor(x);
    default:
      return std::ceil(x);
  }
}

class FaultMatrix : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    clear();
    ASSERT_TRUE(scheduler_knows_every_device()) << "a device was not calibrated within 30 s";
    device_ = std::get<0>(GetParam());
    kind_ = std::get<1>(GetParam());
    const auto ids = device_ids();
    if (ids.size() < 2) GTEST_SKIP() << "only " << ids.front() << ": nothing to fall back to";
    index_ = std::find(ids.begin(), ids.end(), device_) - ids.begin();
    // Small host data runs on the host anyway; other devices get large data resident there.
    n_ = is_host(device_) ? 1'000 : 1'000'000;
    ha_ = pattern(n_, 0.03f, -1.2f);
    hb_ = pattern(n_, 0.5f, 0.25f);
    a_ = Array::from_vector(ha_);
    b_ = Array::from_vector(hb_);
  }
  void TearDown() override {
    prefer_.reset();
    clear();
  }
  static void clear() {
    runtime::replace_faults("");
    runtime::device_health().reset();
    reset_metrics();
  }

  // The chain a user writes; compile faults get kernels this device has not prepared yet.
  Array chain() const { return kind_ == "compile" ? fresh_unary(index_, a_) * b_ : a_ * b_ + a_; }
  float expected(std::size_t i) const {
    return kind_ == "compile" ? fresh_unary(index_, ha_[i]) * hb_[i] : ha_[i] * hb_[i] + ha_[i];
  }

  // Makes auto choose the device under test for the chain's kernels: the inputs live there and
  // every other candidate looks slow by history. The signatures are taken from a run on the host,
  // which compiles nothing on the device under test.
  void steer_work_to_the_device() {
    if (is_host(device_)) return;
    {
      DeviceScope host("cpu:0");
      const Array sa = Array::from_vector(pattern(16, 1, 0)), sb = sa + 1.0f;
      eval(sb);  // an input of the chain, as b_ is, not part of its kernel
      reset_metrics();
      eval(kind_ == "compile" ? fresh_unary(index_, sa) * sb : sa * sb + sa);
    }
    prefer_ = std::make_unique<OnlyFastOn>(last_signatures(1), n_, device_);
    DeviceScope there(device_);
    a_ = a_ + 0.0f;
    b_ = b_ + 0.0f;
    eval(a_, b_);
    // Compiled there first, so that the fault meets the work at once rather than after a
    // background compile, while the CPU's real times replace the history that steers it.
    if (kind_ != "compile") eval(chain());
  }

  // Runs `work` until the fault on the device has been met (a compile fault may first fail a
  // background compile, and the next run meets its error), for at most 5 s.
  template <class Work>
  void until_the_fault_is_met(const Work& work) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    do {
      work();
      if (failures_on(device_) > 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (std::chrono::steady_clock::now() < deadline);
  }

  void expect_correct(const Array& out) const {
    const auto got = out.to_vector<float>();
    ASSERT_EQ(got.size(), ha_.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], expected(i), 1e-5f * (1 + std::fabs(expected(i)))) << "at " << i;
  }

  std::string device_, kind_;
  std::size_t index_ = 0;
  std::int64_t n_ = 0;
  std::vector<float> ha_, hb_;
  Array a_, b_;
  std::unique_ptr<OnlyFastOn> prefer_;
};

TEST_P(FaultMatrix, EagerChainFallsBackWithCorrectResults) {
  steer_work_to_the_device();
  reset_metrics();
  runtime::replace_faults(device_ + ":" + kind_);
  until_the_fault_is_met([&] { expect_correct(chain()); });
  runtime::replace_faults("");
  EXPECT_GE(failures_on(device_), 1) << "the fault on " << device_ << " was never met";
  const Metrics m = metrics();
  EXPECT_TRUE(std::any_of(m.recent.begin(), m.recent.end(),
                          [&](const ExecutionRecord& r) {
                            return r.fallbacks >= 1 && r.device.rfind(device_, 0) != 0;
                          }))
      << "no execution reports a fallback away from " << device_;
}

TEST_P(FaultMatrix, ExplainReportsTheFallbackAndWhereTheWorkRan) {
  steer_work_to_the_device();
  runtime::replace_faults(device_ + ":" + kind_);
  Array out;
  Explanation e;
  until_the_fault_is_met([&] {
    e = explain([&] {
      out = chain();
      eval(out);
    });
  });
  runtime::replace_faults("");
  expect_correct(out);
  ASSERT_FALSE(e.kernels.empty());
  EXPECT_TRUE(std::any_of(e.kernels.begin(), e.kernels.end(), [&](const KernelReport& k) {
    return k.fallbacks >= 1 && k.ran_on.rfind(device_, 0) != 0;
  })) << e.to_string();
  EXPECT_NE(e.to_string().find("fallback"), std::string::npos) << e.to_string();
}

// Runs the switchyard program with `fault` injected; returns its exit status and its output
// (stdout, then stderr).
std::pair<int, std::string> run_cli(const std::string& fault,
                                    const std::vector<std::string>& arguments) {
  const testing_support::TempDir dir;
  std::vector<std::string> command = {SWITCHYARD_CLI};
  command.insert(command.end(), arguments.begin(), arguments.end());
  const auto r =
      testing::Child(command, {{"SWITCHYARD_FAULT", fault}}, dir.path() / "switchyard").wait();
  return {r.status, r.out + r.err};
}

TEST_P(FaultMatrix, DemoShowsTheFailedDeviceAndExitsZero) {
  // One workload at one small size keeps the child short; the table is the same for all.
  const testing_support::TempDir dir;
  const std::string json = (dir.path() / "demo.json").string();
  const auto [status, output] =
      run_cli(device_ + ":" + kind_, {"demo", "--workload", "field", "--n", "64", "--json", json});
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("field on " + device_ + " failed: "), std::string::npos)
      << "the failed device's error:\n"
      << output;
  // auto's column: the workload ran (its choice follows the time; a failure would say so).
  EXPECT_EQ(output.find("every device failed"), std::string::npos) << output;
  EXPECT_NE(output.find("% of its time): "), std::string::npos) << output;
  EXPECT_TRUE(std::filesystem::exists(json)) << output;
}

TEST_P(FaultMatrix, ExplainCommandKeepsGoing) {
  const auto [status, output] =
      run_cli(device_ + ":" + kind_,
              {"explain", "--op", "sum(a*b+tanh(c))", "--n", "1e5", "--resident", device_});
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("chosen: "), std::string::npos) << output;
  EXPECT_NE(output.find("result: "), std::string::npos) << output;
}

std::vector<Case> every_case() {
  std::vector<Case> cases;
  for (const auto& id : device_ids())
    for (const char* kind : kKinds) cases.emplace_back(id, kind);
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string s = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  std::replace(s.begin(), s.end(), ':', '_');
  return s;
}

INSTANTIATE_TEST_SUITE_P(EveryDeviceAndFault, FaultMatrix, ::testing::ValuesIn(every_case()),
                         case_name);

}  // namespace
}  // namespace switchyard

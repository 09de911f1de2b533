// Fallback end to end on the real backends (cpu:0, opencl:0 and whatever else this machine has):
// every injected fault kind on cpu:0 and opencl:0 moves the work to another device with a correct
// result and intact inputs, strict
// mode raises the first device's own error, pinned work never falls back, a device that keeps
// failing is disabled and no longer tried, out-of-memory retries after trimming pools, injected
// probabilities repeat exactly, and traces put each stage on its device's track.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "runtime/attempts.hpp"
#include "runtime/fault_injection.hpp"
#include "runtime/placement.hpp"
#include "scheduler/scheduler.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

constexpr std::int64_t kResidentElements = 1'000'000;  // big enough that opencl:0 wins
constexpr std::int64_t kHostElements = 1'000;          // small enough that cpu:0 wins

using testing_support::device_ids;
using testing_support::error_message;
using testing_support::expect_mentions;
using testing_support::failures_on;
using testing_support::fault_on_every_device;
using testing_support::find_device;
using testing_support::has_opencl;
using testing_support::last_signature;
using testing_support::OnlyFastOn;
using testing_support::scheduler_knows_every_device;

// Two float32 inputs with their host values.
struct Inputs {
  Array a, b;
  std::vector<float> ha, hb;
};

Inputs host_inputs(std::int64_t n) {
  Inputs in;
  in.ha.resize(static_cast<std::size_t>(n));
  in.hb.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    in.ha[i] = static_cast<float>(i % 97) * 0.25f - 7.0f;
    in.hb[i] = static_cast<float>(i % 13) + 0.5f;
  }
  in.a = Array::from_vector(in.ha);
  in.b = Array::from_vector(in.hb);
  return in;
}

// The same values with their only valid copy on opencl:0 (made there by a pinned `+ 0`), so
// the scheduler places work on them there. A fallback to the CPU leaves a host copy of its
// inputs, after which the CPU is rightly preferred: tests that need opencl:0 chosen again take
// fresh copies. Set faults only after this.
Inputs only_on_opencl(const Inputs& from) {
  Inputs in = from;
  {
    DeviceScope scope("opencl:0");
    in.a = from.a + 0.0f;
    in.b = from.b + 0.0f;
  }
  EXPECT_EQ(in.a.locations(), std::vector<std::string>{"opencl:0"});
  EXPECT_EQ(in.b.locations(), std::vector<std::string>{"opencl:0"});
  return in;
}

Inputs resident_on_opencl(std::int64_t n) {
  return only_on_opencl(host_inputs(n));
}

// Compiles `a * b` on opencl:0 so that the scheduler does not run it elsewhere while compiling.
void warm_multiply_on_opencl(const Inputs& in) {
  DeviceScope scope("opencl:0");
  eval(in.a * in.b);
}

void expect_values(const Array& out, const std::vector<float>& expected) {
  ASSERT_EQ(out.size(), static_cast<std::int64_t>(expected.size()));
  const auto got = out.to_vector<float>();
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i] && wrong++ == 0) first = i;
  EXPECT_EQ(wrong, 0u) << "first at " << first << ": " << got[first] << " != " << expected[first];
}

std::vector<float> product(const Inputs& in) {
  std::vector<float> r(in.ha.size());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = in.ha[i] * in.hb[i];
  return r;
}

void expect_inputs_intact(const Inputs& in) {
  expect_values(in.a, in.ha);
  expect_values(in.b, in.hb);
}

ExecutionRecord last_execution() {
  const Metrics m = metrics();
  if (m.recent.empty()) {
    ADD_FAILURE() << "no execution was recorded";
    return {};
  }
  return m.recent.back();
}

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.rfind(prefix, 0) == 0;
}

void clear_faults_and_counts() {
  runtime::replace_faults("");
  runtime::device_health().reset();
  reset_metrics();
}

// Failures on every device except `id`.
std::int64_t failures_elsewhere(const std::string& id) {
  std::int64_t n = 0;
  for (const auto& other : device_ids())
    if (other != id) n += failures_on(other);
  return n;
}

// The signature of `a * b` over float32 vectors, whatever their size.
std::uint64_t multiply_signature() {
  const Inputs small = host_inputs(16);
  eval(small.a * small.b);
  return last_signature();
}

class Fallback : public ::testing::Test {
 protected:
  void SetUp() override {
    clear_faults_and_counts();
    if (!has_opencl()) GTEST_SKIP() << "no opencl:0: fallback between backends needs two devices";
    ASSERT_TRUE(scheduler_knows_every_device()) << "a device was not calibrated within 30 s";
    // Work on opencl-resident data is placed on opencl:0 here because the cost model says so;
    // on machines with a faster device the history makes sure of it.
    prefer_opencl_ = std::make_unique<OnlyFastOn>(std::vector{multiply_signature()},
                                                  kResidentElements, "opencl:0");
    reset_metrics();
  }
  void TearDown() override {
    prefer_opencl_.reset();
    clear_faults_and_counts();
  }
  std::unique_ptr<OnlyFastOn> prefer_opencl_;
};

TEST_F(Fallback, EveryRuntimeFaultOnOpenclMovesTheWorkToAnotherDevice) {
  for (const char* kind : {"launch", "oom", "lost"}) {
    SCOPED_TRACE(kind);
    clear_faults_and_counts();
    const Inputs in = resident_on_opencl(kResidentElements);
    warm_multiply_on_opencl(in);
    eval(in.a * in.b);
    ASSERT_EQ(last_execution().device, "opencl:0")
        << "precondition: the scheduler places work on opencl-resident data on opencl:0";

    reset_metrics();
    runtime::replace_faults(std::string("opencl:") + kind);
    const Array out = in.a * in.b;
    expect_values(out, product(in));
    const ExecutionRecord r = last_execution();
    EXPECT_FALSE(starts_with(r.device, "opencl:0")) << r.device;
    EXPECT_GE(r.fallbacks, 1);
    EXPECT_GE(failures_on("opencl:0"), 1);
    EXPECT_EQ(failures_elsewhere("opencl:0"), 0);
    runtime::replace_faults("");
    expect_inputs_intact(in);
  }
}

TEST_F(Fallback, CompileFaultOnOpenclMovesTheWorkToAnotherDevice) {
  // `a - b` runs nowhere else in this file, so it is not compiled on opencl:0. A new kernel's
  // compile time (~0.5 s predicted) keeps real work off opencl:0, so every other device is made
  // to look slow: the first run then goes elsewhere while opencl:0 compiles in the background;
  // once that compile has failed the scheduler picks opencl:0, whose compile error moves the
  // work away again.
  const Inputs in = resident_on_opencl(kResidentElements);
  std::vector<float> expected(in.ha.size());
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = in.ha[i] - in.hb[i];
  const Inputs small = host_inputs(16);
  eval(small.a - small.b);
  const std::uint64_t signature = std::stoull(last_execution().signature, nullptr, 16);
  reset_metrics();
  std::vector<Inputs> fresh;  // only on opencl:0 each time: a CPU run leaves host copies
  for (int i = 0; i < 20; ++i) fresh.push_back(only_on_opencl(in));

  const OnlyFastOn prefer_opencl({signature}, kResidentElements, "opencl:0");
  runtime::replace_faults("opencl:compile");
  for (std::size_t i = 0; i < fresh.size() && failures_on("opencl:0") == 0; ++i) {
    const Array out = fresh[i].a - fresh[i].b;
    expect_values(out, expected);
    EXPECT_FALSE(starts_with(last_execution().device, "opencl:0")) << last_execution().device;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // for the background compile
  }
  EXPECT_EQ(failures_on("opencl:0"), 1);
  EXPECT_EQ(last_execution().fallbacks, 1);
  runtime::replace_faults("");
  expect_inputs_intact(in);
}

TEST_F(Fallback, EveryFaultOnTheCpuMovesTheWorkToAnotherDevice) {
  // Small host data goes to the CPU first; `a / b` is compiled nowhere yet, so the CPU's compile
  // stage runs and its compile fault fires.
  // The other faults fire on a*b, compiled on the CPU first. The CPU's own history of it (slow in
  // an instrumented build, and the runs that failed over elsewhere) may lead the scheduler to
  // measure or prefer another device: the other devices' history of a*b is made slow, so that
  // the faulty CPU is chosen each time.
  const std::uint64_t product_kernel = [] {
    const Inputs in = host_inputs(kHostElements);
    const DeviceScope on_cpu("cpu:0");
    eval(in.a * in.b);
    return std::stoull(last_execution().signature, nullptr, 16);
  }();
  for (const char* kind : {"compile", "launch", "oom", "lost"}) {
    SCOPED_TRACE(kind);
    clear_faults_and_counts();
    const Inputs in = host_inputs(kHostElements);
    const bool compile = std::string(kind) == "compile";
    std::optional<OnlyFastOn> keep_on_cpu;
    if (!compile) {
      keep_on_cpu.emplace(std::vector<std::uint64_t>{product_kernel}, kHostElements, "cpu:0");
      eval(in.a * in.b);
      ASSERT_TRUE(starts_with(last_execution().device, "cpu:0"))
          << "precondition: a*b, made slow elsewhere, runs on the CPU, not "
          << last_execution().device;
      reset_metrics();
    }
    runtime::replace_faults(std::string("cpu:") + kind);
    std::vector<float> expected = product(in);
    Array out;
    if (compile) {
      for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = in.ha[i] / in.hb[i];
      out = in.a / in.b;
    } else {
      out = in.a * in.b;
    }
    eval(out);  // while the fault is set
    runtime::replace_faults("");
    expect_values(out, expected);
    const ExecutionRecord r = last_execution();
    EXPECT_FALSE(starts_with(r.device, "cpu:0")) << r.device;
    EXPECT_GE(r.fallbacks, 1);
    EXPECT_GE(failures_on("cpu:0"), 1);
    EXPECT_EQ(failures_elsewhere("cpu:0"), 0);
    expect_inputs_intact(in);
  }
}

TEST_F(Fallback, WhenEveryDeviceFailsAllDevicesFailedNamesEachAttemptAndCause) {
  const Inputs in = host_inputs(kHostElements);
  runtime::replace_faults(fault_on_every_device("launch"));
  ::testing::internal::CaptureStderr();
  const std::string message = error_message<AllDevicesFailed>([&] { eval(in.a * in.b); });
  const std::string log = ::testing::internal::GetCapturedStderr();
  const std::string attempts = std::to_string(device_ids().size()) + " attempts";
  expect_mentions(log, {"no device left to try"});
  expect_mentions(message, {"mul", attempts.c_str(), "DeviceError", "launch failed",
                            "CL_OUT_OF_RESOURCES", "injected"});
  EXPECT_EQ(log.find("trying \n"), std::string::npos) << log;
  // Each attempt is checked in the error, which always names it: a warning prints once per
  // process (log.hpp), and an earlier test may have printed the same fallback line already.
  for (const auto& id : device_ids()) {
    const std::string at = id + " at launch";
    expect_mentions(message, {at.c_str()});
    EXPECT_EQ(failures_on(id), 1) << id;
  }
  EXPECT_EQ(metrics().totals.count, 0);
  runtime::replace_faults("");
  expect_inputs_intact(in);
}

TEST_F(Fallback, StrictScopeRaisesTheFirstDevicesOwnError) {
  const Inputs resident = resident_on_opencl(kResidentElements);
  warm_multiply_on_opencl(resident);
  const Inputs host = host_inputs(kHostElements);
  runtime::replace_faults(fault_on_every_device("launch"));
  {
    StrictScope strict;
    EXPECT_FALSE(fallback_enabled());
    expect_mentions(error_message<DeviceError>([&] { eval(resident.a * resident.b); }),
                    {"CL_OUT_OF_RESOURCES", "injected", "opencl:0"});
    expect_mentions(error_message<DeviceError>([&] { eval(host.a * host.b); }),
                    {"launch failed", "injected", "cpu:0"});
  }
  // Each failure is counted on its device, though nothing fell back.
  for (const auto& id : device_ids())
    EXPECT_EQ(failures_on(id), id == "opencl:0" || id == "cpu:0" ? 1 : 0) << id;

  // The same work outside the scope falls back (here onto the others, also failing).
  EXPECT_TRUE(fallback_enabled());
  EXPECT_THROW(eval(resident.a * resident.b), AllDevicesFailed);
  runtime::replace_faults("opencl:launch");
  expect_values(resident.a * resident.b, product(resident));
  runtime::replace_faults("");
  expect_inputs_intact(resident);
  expect_inputs_intact(host);
}

// SWITCHYARD_FALLBACK is read once per process, when the runtime starts: this runs in a fresh
// child, and outside the fixture, whose SetUp would start the runtime first.
TEST(FallbackVariable, OffRaisesTheFirstDevicesOwnError) {
  if (!has_opencl()) GTEST_SKIP() << "no opencl:0: fallback between backends needs two devices";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("SWITCHYARD_FALLBACK", "off", 1);
        if (!scheduler_knows_every_device()) std::exit(4);
        const OnlyFastOn prefer_opencl({multiply_signature()}, kResidentElements, "opencl:0");
        const Inputs in = resident_on_opencl(kResidentElements);
        warm_multiply_on_opencl(in);
        runtime::replace_faults("opencl:launch");
        try {
          eval(in.a * in.b);
        } catch (const AllDevicesFailed&) {
          std::exit(3);
        } catch (const DeviceError& e) {
          const bool named = std::string(e.what()).find("CL_OUT_OF_RESOURCES") != std::string::npos;
          std::exit(named && failures_on("opencl:0") == 1 ? 0 : 2);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(Fallback, PinnedWorkRaisesTheDevicesOwnErrorForEveryFaultKind) {
  const Inputs in = resident_on_opencl(kResidentElements);
  warm_multiply_on_opencl(in);
  reset_metrics();
  const auto pinned = [&](const char* spec, auto work) {
    runtime::replace_faults(spec);
    DeviceScope scope("opencl:0");
    work();
  };
  const auto multiply = [&] { eval(in.a * in.b); };
  expect_mentions(error_message<DeviceError>([&] { pinned("opencl:launch", multiply); }),
                  {"CL_OUT_OF_RESOURCES", "opencl:0"});
  expect_mentions(error_message<OutOfMemory>([&] { pinned("opencl:oom", multiply); }),
                  {"CL_MEM_OBJECT_ALLOCATION_FAILURE", "opencl:0"});
  expect_mentions(error_message<DeviceError>([&] { pinned("opencl:lost", multiply); }),
                  {"device lost", "opencl:0"});
  // maximum is compiled nowhere else in this file, so the compile stage runs.
  expect_mentions(error_message<CompileError>(
                      [&] { pinned("opencl:compile", [&] { eval(maximum(in.a, in.b)); }); }),
                  {"CL_BUILD_PROGRAM_FAILURE", "opencl:0"});
  EXPECT_EQ(failures_on("opencl:0"), 4);  // each counted, though nothing fell back
  EXPECT_EQ(metrics().totals.count, 0);
  runtime::replace_faults("");
  expect_inputs_intact(in);
}

TEST_F(Fallback, DeviceFailingThreeTimesInARowIsDisabledAndNotTriedAgain) {
  const Inputs in = resident_on_opencl(kResidentElements);
  warm_multiply_on_opencl(in);
  std::vector<Inputs> fresh;  // made before the faults, which would fail their pinned launches
  for (int i = 0; i < 5; ++i) fresh.push_back(only_on_opencl(in));
  runtime::replace_faults("opencl:launch");
  for (int i = 1; i <= 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_FALSE(runtime::device_health().disabled("opencl:0"));
    expect_values(fresh[i - 1].a * fresh[i - 1].b, product(in));
    EXPECT_EQ(last_execution().fallbacks, 1);
    EXPECT_EQ(failures_on("opencl:0"), i);
  }
  EXPECT_TRUE(runtime::device_health().disabled("opencl:0"));
  EXPECT_EQ(runtime::device_health().disabled_devices(), std::vector<std::string>{"opencl:0"});

  for (int i = 3; i < 5; ++i) {  // data where opencl:0 would be chosen if it were enabled
    expect_values(fresh[i].a * fresh[i].b, product(in));
    const ExecutionRecord r = last_execution();
    EXPECT_FALSE(starts_with(r.device, "opencl:0")) << r.device;
    EXPECT_EQ(r.fallbacks, 0) << "a disabled device must not be tried first";
  }
  EXPECT_EQ(failures_on("opencl:0"), 3);
  runtime::replace_faults("");
  expect_inputs_intact(in);
}

TEST_F(Fallback, InjectedOutOfMemoryMovesAutoWorkAndFailsPinnedWorkAlone) {
  const Inputs in = resident_on_opencl(kResidentElements);
  warm_multiply_on_opencl(in);
  // Auto placement: the allocation keeps failing on opencl:0, so the work moves elsewhere.
  runtime::replace_faults("opencl:oom");
  expect_values(in.a * in.b, product(in));
  EXPECT_FALSE(starts_with(last_execution().device, "opencl:0")) << last_execution().device;
  EXPECT_FALSE(runtime::device_health().disabled("opencl:0"));  // OOM does not count

  // Pinned, with an allocation fault that fires on some draws only. An injected fault is the
  // device having no room after its pool already released what it kept (the pool's one retry,
  // tested in memory_pool_test), so the multiply that draws it fails with OutOfMemory and the
  // next one runs. Each pinned multiply draws once, for its output; the outcomes follow the
  // injector's deterministic sequence, replayed here on a standalone copy.
  const std::string spec = "opencl:oom:0.58";
  const runtime::FaultInjector replay(runtime::parse_fault_spec(spec));
  std::vector<bool> fails;
  for (int i = 0; i < 6; ++i) {
    try {
      replay.inject(*find_device("opencl:0"), runtime::FaultStage::Allocate, 4);
      fails.push_back(false);
    } catch (const OutOfMemory&) {
      fails.push_back(true);
    }
  }
  ASSERT_NE(std::find(fails.begin(), fails.end(), true), fails.end());
  ASSERT_NE(std::find(fails.begin(), fails.end(), false), fails.end())
      << "pick a probability whose sequence has both outcomes";

  runtime::replace_faults(spec);
  DeviceScope scope("opencl:0");
  for (std::size_t i = 0; i < fails.size(); ++i) {
    SCOPED_TRACE(i);
    reset_metrics();
    try {
      expect_values(in.a * in.b, product(in));
      EXPECT_FALSE(fails[i]);
      EXPECT_EQ(last_execution().device, "opencl:0");
      EXPECT_EQ(last_execution().fallbacks, 0);
    } catch (const OutOfMemory&) {
      EXPECT_TRUE(fails[i]);
    }
  }
  runtime::replace_faults("");
  expect_inputs_intact(in);
}

TEST_F(Fallback, ProbabilityFaultsFollowTheSameSequenceOnEveryRun) {
  const Inputs in = resident_on_opencl(kResidentElements);
  warm_multiply_on_opencl(in);
  const std::string spec = "opencl:launch:0.5";
  const auto run_sequence = [&] {
    runtime::replace_faults("");
    std::vector<Inputs> fresh;  // made before the faults, which would fail their pinned launches
    for (int i = 0; i < 8; ++i) fresh.push_back(only_on_opencl(in));
    runtime::replace_faults(spec);
    // Pinned, so every multiply draws on opencl:0 whatever the scheduler would prefer now.
    DeviceScope scope("opencl:0");
    std::vector<bool> failed;
    for (const Inputs& f : fresh) {
      runtime::device_health().reset();  // three faults in a row must not disable opencl:0
      try {
        expect_values(f.a * f.b, product(in));
        failed.push_back(false);
      } catch (const DeviceError&) {
        failed.push_back(true);
      }
    }
    return failed;
  };
  const std::vector<bool> first = run_sequence();
  EXPECT_EQ(run_sequence(), first);

  // The executor's sequence is the injector's: one launch draw per multiply on opencl:0.
  const runtime::FaultInjector replay(runtime::parse_fault_spec(spec));
  std::vector<bool> expected;
  for (std::size_t i = 0; i < first.size(); ++i) {
    try {
      replay.inject(*find_device("opencl:0"), runtime::FaultStage::Launch, 0);
      expected.push_back(false);
    } catch (const DeviceError&) {
      expected.push_back(true);
    }
  }
  EXPECT_EQ(first, expected);
  EXPECT_NE(std::count(first.begin(), first.end(), true), 0);
  EXPECT_NE(std::count(first.begin(), first.end(), false), 0);
}

// tid of the track whose thread_name starts with `device_id`, or -1.
int track_of(const nlohmann::json& trace, const std::string& device_id) {
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name" &&
        starts_with(e["args"]["name"].get<std::string>(), device_id + " "))
      return e["tid"];
  return -1;
}

TEST_F(Fallback, TraceShowsCompileTransferAndExecuteOnEachDevicesTrack) {
  const testing_support::TempDir dir;
  const auto path = dir.path() / "trace.json";
  const Inputs in = host_inputs(kHostElements);
  start_trace(path.string());
  Array on_opencl, on_cpu;
  {
    // minimum and negative run nowhere else in this file: both compile here.
    DeviceScope scope("opencl:0");
    on_opencl = minimum(in.a, in.b);  // host -> opencl:0 transfers
  }
  {
    DeviceScope scope("cpu:0");
    on_cpu = -on_opencl;  // opencl:0 -> host transfer
    eval(on_cpu);
  }
  stop_trace();

  std::ifstream file(path);
  ASSERT_TRUE(file) << path;
  const nlohmann::json trace = nlohmann::json::parse(file);
  const int cl_tid = track_of(trace, "opencl:0");
  const int cpu_tid = track_of(trace, "cpu:0");
  ASSERT_GE(cl_tid, 0);
  ASSERT_GE(cpu_tid, 0);
  EXPECT_NE(cl_tid, cpu_tid);
  std::set<std::string> cl_stages, cpu_stages;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    EXPECT_GE(e["dur"].get<double>(), 0);
    if (e["tid"] == cl_tid) cl_stages.insert(e["cat"].get<std::string>());
    if (e["tid"] == cpu_tid) cpu_stages.insert(e["cat"].get<std::string>());
  }
  // A compile span exactly where metrics say the kernel was compiled: both, the first time in a
  // process (later repetitions, as with --gtest_repeat, find them in memory).
  static int runs = 0;
  const Metrics m = metrics();
  ASSERT_EQ(m.recent.size(), 2u);
  EXPECT_EQ(m.recent[0].device, "opencl:0");
  EXPECT_EQ(m.recent[1].device, "cpu:0");
  if (runs++ == 0) {
    EXPECT_FALSE(m.recent[0].cache_hit);
    EXPECT_FALSE(m.recent[1].cache_hit);
  }
  const auto stages = [](bool compiled) {
    return compiled ? std::set<std::string>{"compile", "transfer", "execute"}
                    : std::set<std::string>{"transfer", "execute"};
  };
  EXPECT_EQ(cl_stages, stages(!m.recent[0].cache_hit));
  EXPECT_EQ(cpu_stages, stages(!m.recent[1].cache_hit));

  std::vector<float> expected(in.ha.size());
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = -std::min(in.ha[i], in.hb[i]);
  expect_values(on_cpu, expected);
}

}  // namespace
}  // namespace switchyard

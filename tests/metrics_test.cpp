// Metrics (per-kernel and per-device aggregates, recent executions, JSON) and Chrome traces
// (valid JSON, one complete event per span on its device's track).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <vector>

#include "runtime/attempts.hpp"
#include "runtime/fault_injection.hpp"
#include "runtime/metrics.hpp"
#include "runtime/trace.hpp"
#include "switchyard/error.hpp"
#include "switchyard/metrics.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard::runtime {
namespace {

ExecutionSample sample(std::string_view device, std::uint64_t signature, double total_s) {
  ExecutionSample s;
  s.device = device;
  s.signature = signature;
  s.label = signature == 0xadd ? "add f32" : "sum f64";
  s.elements = 1000;
  s.bytes_moved = 4000;
  s.compile_s = 0.1 * total_s;
  s.transfer_s = 0.2 * total_s;
  s.execute_s = 0.7 * total_s;
  s.total_s = total_s;
  s.chosen_reason = "lowest predicted";
  return s;
}

TEST(Metrics, AggregatesPerKernelAndPerDevice) {
  reset_metrics();
  ExecutionSample a = sample("opencl:0", 0xadd, 1.0);
  a.predicted_s = 2.0;
  a.fallbacks = 1;
  record_execution(a);
  ExecutionSample b = sample("cpu:0", 0xadd, 3.0);
  b.cache_hit = true;
  b.predicted_s = 2.0;
  record_execution(b);
  record_execution(sample("cpu:0", 0x5, 0.5));
  record_failed_attempt("cuda:0");

  const Metrics m = metrics();
  EXPECT_EQ(m.totals.count, 3);
  EXPECT_DOUBLE_EQ(m.totals.total_s, 4.5);
  EXPECT_EQ(m.totals.bytes_moved, 12000u);

  ASSERT_EQ(m.kernels.size(), 2u);
  const KernelMetrics& add = m.kernels[0];  // largest total time first
  EXPECT_EQ(add.signature, "0000000000000add");
  EXPECT_EQ(add.label, "add f32");
  EXPECT_EQ(add.totals.count, 2);
  EXPECT_DOUBLE_EQ(add.totals.mean_s(), 2.0);
  EXPECT_DOUBLE_EQ(add.totals.compile_s, 0.4);
  EXPECT_EQ(add.totals.elements, 2000);
  EXPECT_EQ(add.totals.fallbacks, 1);
  EXPECT_EQ(add.totals.cache_hits, 1);
  EXPECT_DOUBLE_EQ(add.totals.predicted_over_measured(), 1.0);  // (2 + 2) / (1 + 3)
  EXPECT_EQ(m.kernels[1].totals.predicted_count, 0);
  EXPECT_EQ(m.kernels[1].totals.predicted_over_measured(), 0);

  ASSERT_EQ(m.devices.size(), 3u);  // by id
  EXPECT_EQ(m.devices[0].device, "cpu:0");
  EXPECT_EQ(m.devices[0].totals.count, 2);
  EXPECT_DOUBLE_EQ(m.devices[0].totals.total_s, 3.5);
  EXPECT_EQ(m.devices[1].device, "cuda:0");
  EXPECT_EQ(m.devices[1].totals.count, 0);
  EXPECT_EQ(m.devices[1].failures, 1);
  EXPECT_EQ(m.devices[2].device, "opencl:0");
  EXPECT_EQ(m.devices[2].totals.fallbacks, 1);

  ASSERT_EQ(m.recent.size(), 3u);
  EXPECT_EQ(m.recent[0].device, "opencl:0");
  EXPECT_EQ(m.recent[0].chosen_reason, "lowest predicted");
  EXPECT_DOUBLE_EQ(m.recent[0].predicted_s, 2.0);
  EXPECT_EQ(m.recent[2].signature, "0000000000000005");
}

TEST(Metrics, KeepsOnlyTheLast256ExecutionsOldestFirst) {
  reset_metrics();
  for (int i = 0; i < 300; ++i) record_execution(sample("cpu:0", 0xadd, i));
  const Metrics m = metrics();
  EXPECT_EQ(m.totals.count, 300);
  ASSERT_EQ(m.recent.size(), kRecentExecutions);
  EXPECT_DOUBLE_EQ(m.recent.front().total_s, 300 - kRecentExecutions);
  EXPECT_DOUBLE_EQ(m.recent.back().total_s, 299);
}

TEST(Metrics, ResetForgetsEverything) {
  record_execution(sample("cpu:0", 0xadd, 1));
  reset_metrics();
  const Metrics m = metrics();
  EXPECT_EQ(m.totals.count, 0);
  EXPECT_TRUE(m.kernels.empty());
  EXPECT_TRUE(m.devices.empty());
  EXPECT_TRUE(m.recent.empty());
}

TEST(Metrics, ConcurrentRecordsAreAllCounted) {
  reset_metrics();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 1000; ++i)
        record_execution(sample(t % 2 ? "cpu:0" : "opencl:0", 0xadd, 1));
    });
  for (auto& t : threads) t.join();
  const Metrics m = metrics();
  EXPECT_EQ(m.totals.count, 4000);
  EXPECT_EQ(m.devices[0].totals.count + m.devices[1].totals.count, 4000);
}

// Work pinned to a device has nothing to fall back to: its failure is still that device's.
TEST(Metrics, FailuresOfPinnedWorkAreCounted) {
  const Array a = Array::from_vector(std::vector<float>{1, 2, 3});
  for (const DeviceInfo& d : devices()) {
    SCOPED_TRACE(d.id());
    reset_metrics();
    replace_faults(d.backend + ":" + std::to_string(d.index) + ":launch");
    {
      const DeviceScope pinned(d.id());
      EXPECT_THROW(eval(a * 2.0f + 1.0f), DeviceError);
    }
    replace_faults("");
    const Metrics m = metrics();
    ASSERT_EQ(m.devices.size(), 1u);
    EXPECT_EQ(m.devices[0].device, d.id());
    EXPECT_EQ(m.devices[0].failures, 1);
    EXPECT_EQ(m.totals.count, 0);
  }
  device_health().reset();
  reset_metrics();
}

TEST(Metrics, JsonParsesBackWithTheSameNumbers) {
  reset_metrics();
  ExecutionSample a = sample("opencl:0", 0xadd, 2.0);
  a.predicted_s = 1.0;
  record_execution(a);
  record_execution(sample("cpu:0", 0x5, 1.0));
  record_failed_attempt("opencl:0");

  const auto j = nlohmann::json::parse(metrics_json());
  EXPECT_EQ(j["totals"]["count"], 2);
  EXPECT_DOUBLE_EQ(j["totals"]["total_s"].get<double>(), 3.0);
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][0]["signature"], "0000000000000add");
  EXPECT_EQ(j["kernels"][0]["label"], "add f32");
  EXPECT_DOUBLE_EQ(j["kernels"][0]["mean_s"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["kernels"][0]["predicted_over_measured"].get<double>(), 0.5);
  EXPECT_TRUE(j["kernels"][1]["predicted_over_measured"].is_null());
  ASSERT_EQ(j["devices"].size(), 2u);
  EXPECT_EQ(j["devices"][1]["device"], "opencl:0");
  EXPECT_EQ(j["devices"][1]["failures"], 1);
  EXPECT_EQ(j["devices"][1]["bytes_moved"], 4000);
  ASSERT_EQ(j["recent"].size(), 2u);
  EXPECT_EQ(j["recent"][1]["device"], "cpu:0");
  EXPECT_EQ(j["recent"][0]["cache_hit"], false);
}

DeviceInfo device(std::string backend, std::string name) {
  DeviceInfo d;
  d.backend = std::move(backend);
  d.name = std::move(name);
  return d;
}

// A trace file under a fresh directory, removed with it at the end of the test.
struct TemporaryTrace {
  testing_support::TempDir dir;
  std::filesystem::path path = dir.path() / "trace.json";
};

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);  // throws on invalid JSON
}

// tid of the track whose thread_name starts with `device_id`, or -1.
int track_of(const nlohmann::json& trace, const std::string& device_id) {
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name" &&
        e["args"]["name"].get<std::string>().rfind(device_id, 0) == 0)
      return e["tid"];
  return -1;
}

TEST(Trace, SpansBecomeCompleteEventsOnTheirDevicesTrack) {
  const TemporaryTrace trace_file;
  const auto& path = trace_file.path;
  const DeviceInfo cpu = device("cpu", "Test CPU");
  const DeviceInfo cl = device("opencl", "Test OpenCL");
  start_trace(path.string());
  ASSERT_TRUE(tracing());
  { TraceSpan span(cl, TraceStage::Compile, "add f32"); }
  { TraceSpan span(cl, TraceStage::Transfer, "host to opencl:0, 4000 bytes"); }
  { TraceSpan span(cl, TraceStage::Execute, "add f32"); }
  trace_instant(cl, "fallback: CL_OUT_OF_RESOURCES");
  const auto start = TraceClock::now();
  trace_complete(cpu, TraceStage::Execute, "add f32", start, start + std::chrono::milliseconds(2));
  flush_trace();

  const nlohmann::json trace = read_json(path);
  const int cl_tid = track_of(trace, "opencl:0 (Test OpenCL)");
  const int cpu_tid = track_of(trace, "cpu:0 (Test CPU)");
  ASSERT_GT(cl_tid, 0);
  ASSERT_GT(cpu_tid, 0);
  EXPECT_NE(cl_tid, cpu_tid);

  std::multiset<std::string> cl_categories;
  int instants = 0;
  for (const auto& e : trace["traceEvents"]) {
    EXPECT_EQ(e["pid"], 1);
    if (e["ph"] == "i") {
      ++instants;
      EXPECT_EQ(e["tid"], cl_tid);
      EXPECT_EQ(e["name"], "fallback: CL_OUT_OF_RESOURCES");
    }
    if (e["ph"] != "X") continue;
    EXPECT_GE(e["ts"].get<double>(), 0);
    EXPECT_GE(e["dur"].get<double>(), 0);
    if (e["tid"] == cl_tid) cl_categories.insert(e["cat"].get<std::string>());
    if (e["tid"] == cpu_tid) {
      EXPECT_EQ(e["cat"], "execute");
      EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 2000);  // microseconds
    }
  }
  EXPECT_EQ(cl_categories, (std::multiset<std::string>{"compile", "transfer", "execute"}));
  EXPECT_EQ(instants, 1);

  stop_trace();
  EXPECT_FALSE(tracing());
}

TEST(Trace, ConcurrentSpansAreAllRecorded) {
  const TemporaryTrace trace_file;
  const auto& path = trace_file.path;
  const DeviceInfo cpu = device("cpu", "Test CPU"), cl = device("opencl", "Test OpenCL");
  start_trace(path.string());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) TraceSpan span(t % 2 ? cpu : cl, TraceStage::Execute, "add");
    });
  for (auto& t : threads) t.join();
  flush_trace();
  const nlohmann::json trace = read_json(path);
  int complete = 0;
  for (const auto& e : trace["traceEvents"]) complete += e["ph"] == "X";
  EXPECT_EQ(complete, 400);
  stop_trace();
}

TEST(Trace, NothingIsRecordedWhenOff) {
  const TemporaryTrace trace_file;
  const auto& path = trace_file.path;
  start_trace(path.string());
  stop_trace();
  const DeviceInfo cpu = device("cpu", "Test CPU");
  { TraceSpan span(cpu, TraceStage::Execute, "add f32"); }
  start_trace(path.string());  // a fresh trace: starts empty
  flush_trace();
  const nlohmann::json trace = read_json(path);
  for (const auto& e : trace["traceEvents"]) EXPECT_EQ(e["ph"], "M");
  stop_trace();
}

TEST(Trace, UnwritablePathIsConfigError) {
  EXPECT_THROW(start_trace("/nonexistent-directory/trace.json"), ConfigError);
  EXPECT_FALSE(tracing());
}

TEST(Trace, VariableWritesTheFileAtExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process reads SWITCHYARD_TRACE
  // Named the same in the death test's child, which runs the test body again in a new process.
  const testing_support::RemovedAtScopeEnd trace_file(std::filesystem::temp_directory_path() /
                                                      "switchyard_exit_trace.json");
  const auto& path = trace_file.path();
  EXPECT_EXIT(
      {
        setenv("SWITCHYARD_TRACE", path.c_str(), 1);
        const DeviceInfo cpu = device("cpu", "Test CPU");
        { TraceSpan span(cpu, TraceStage::Execute, "add f32"); }
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  const nlohmann::json trace = read_json(path);
  const int tid = track_of(trace, "cpu:0");
  int executes = 0;
  for (const auto& e : trace["traceEvents"]) executes += e["ph"] == "X" && e["tid"] == tid;
  EXPECT_EQ(executes, 1);
}

}  // namespace
}  // namespace switchyard::runtime

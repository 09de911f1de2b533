// When and where pending arrays run: only what is read is computed, and once; an evaluation
// that failed can be run again; one compiled kernel serves every size; a loop that never reads
// its result stays bounded; work made under a DeviceScope runs there wherever it is read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "conformance/conformance.hpp"
#include "expr/node.hpp"
#include "fusion_support.hpp"
#include "runtime/attempts.hpp"
#include "runtime/fault_injection.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using conformance::expect_close;
using conformance::expect_within;
using conformance::host_array;
using conformance::random_values;
using testing_support::count;
using testing_support::evaluated;
using testing_support::Fusion;
using testing_support::stopped_for;

TEST_F(Fusion, ResultsNobodyReadsAreNotComputed) {
  const auto va = random_values(100, DType::Float32, 71);
  const Array a = host_array(va, {100}, DType::Float32);
  const Array unread = exp(a), y = a + 1.0;
  const Explanation e = evaluated(y);
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(count(e.kernels[0], "exp"), 0) << e.kernels[0].kernel;
  EXPECT_TRUE(unread.pending());
  std::vector<double> expected_y, expected_exp;
  for (double x : va) expected_y.push_back(x + 1), expected_exp.push_back(std::exp(x));
  expect_close(y, expected_y, false, "a + 1");
  expect_close(unread, expected_exp, true, "exp(a), read later");
}

TEST_F(Fusion, APendingArrayRunsOnceHoweverOftenItIsRead) {
  const auto va = random_values(100, DType::Float32, 72);
  const Array a = host_array(va, {100}, DType::Float32);
  const Array y = a * 4.0 - 1.0;
  const Array same = y;  // copies of a pending array share its one result
  reset_metrics();
  eval(y);
  EXPECT_EQ(metrics().totals.count, 1);
  const Explanation again = explain([&] {
    eval(y);
    eval(same);
    y.to_vector<float>();
    same.to_vector<float>();
  });
  EXPECT_TRUE(again.kernels.empty()) << again.to_string();
  EXPECT_EQ(metrics().totals.count, 1);
  std::vector<double> expected;
  for (double x : va) expected.push_back(x * 4 - 1);
  expect_close(same, expected, false, "a * 4 - 1");
}

TEST_F(Fusion, AnEvaluationThatFailedCanRunAgain) {
  const auto va = random_values(100, DType::Float32, 73),
             vb = random_values(100, DType::Float32, 74);
  const Array a = host_array(va, {100}, DType::Float32), b = host_array(vb, {100}, DType::Float32);
  const Array y = a * b - 3.0;
  runtime::replace_faults("cpu:launch");  // pinned work never falls back: the first eval throws
  EXPECT_THROW(eval(y), DeviceError);
  runtime::replace_faults("");
  runtime::device_health().reset();
  EXPECT_TRUE(y.pending());
  std::vector<double> expected;
  for (std::size_t i = 0; i < va.size(); ++i) expected.push_back(va[i] * vb[i] - 3);
  expect_close(y, expected, false, "a * b - 3 after a failed launch");
  expect_close(a, va, false, "a, unchanged");
  expect_close(b, vb, false, "b, unchanged");
}

TEST_F(Fusion, OneCompiledKernelServesEverySize) {
  std::vector<ExecutionRecord> runs;
  for (const std::int64_t n : {10, 1000, 100000}) {
    const auto va = random_values(n, DType::Float32, 75);
    const Array a = host_array(va, {n}, DType::Float32);
    // An expression no other test here compiles, so the first run compiles it.
    const Array y = floor(a * 0.25) - tan(a * 0.125);
    eval(y);
    runs.push_back(metrics().recent.back());
    std::vector<double> expected;
    for (double x : va) expected.push_back(std::floor(x * 0.25) - std::tan(x * 0.125));
    expect_close(y, expected, true, "floor(a / 4) - tan(a / 8), n = " + std::to_string(n));
  }
  for (const ExecutionRecord& r : runs) {
    SCOPED_TRACE(r.elements);
    EXPECT_EQ(r.signature, runs[0].signature);
    EXPECT_EQ(r.device.rfind("cpu:0", 0), 0u) << r.device;
  }
  EXPECT_EQ(runs[0].elements, 10);
  EXPECT_FALSE(runs[0].cache_hit);
  EXPECT_TRUE(runs[1].cache_hit);
  EXPECT_TRUE(runs[2].cache_hit);
  EXPECT_EQ(runs[1].compile_s, 0);
  EXPECT_EQ(runs[2].compile_s, 0);
}

TEST_F(Fusion, ALoopThatNeverReadsItsResultStaysBounded) {
  const std::int64_t n = 257;
  const auto va = random_values(n, DType::Float32, 76, 0, 1);
  const Array a = host_array(va, {n}, DType::Float32);
  Array x = a;
  std::int32_t largest_graph = 0;
  const Explanation e = explain([&] {
    for (int i = 0; i < 1000; ++i) {
      x = x * 1.0001f + 0.5f;
      largest_graph = std::max(largest_graph, x.node()->graph_size);
    }
    eval(x);
  });
  EXPECT_LE(largest_graph, expr::kMaxGraphSize);
  // Each bound reached realises what was pending (a stop and a kernel), and eval the rest.
  EXPECT_GT(e.kernels.size(), 1u);
  EXPECT_LE(e.kernels.size(), 2000u / 10) << "kernels should hold many steps each";
  EXPECT_EQ(e.fusion_stops.size(), e.kernels.size() - 1) << e.to_string();
  for (const std::string& stop : e.fusion_stops)
    EXPECT_EQ(stop.rfind("graph-bound:", 0), 0u) << stop;
  std::vector<double> expected = va, tolerances;
  for (double& v : expected)
    for (int i = 0; i < 1000; ++i) v = v * static_cast<double>(1.0001f) + 0.5;
  // 2000 float32 roundings of half an ulp (2^-24 relative) each, the earliest amplified by at
  // most 1.0001^1000 < 1.2.
  for (double v : expected) tolerances.push_back(2000 * std::ldexp(1.0, -24) * 1.2 * std::abs(v));
  expect_within(x, expected, tolerances, "x = x * 1.0001 + 0.5, 1000 times");
}

// The first device that is (or is not) the host, or "" when there is none.
std::string first_device(bool host) {
  for (const DeviceInfo& d : devices())
    if (d.host_addressable == host) return d.id();
  return "";
}

TEST(DeviceScopedWork, RunsOnItsDeviceWhenReadOutsideTheScope) {
  const std::string device = first_device(false), host = first_device(true);
  if (device.empty()) GTEST_SKIP() << "only host devices among devices()";
  const auto va = random_values(1000, DType::Float32, 77);
  const Array a = host_array(va, {1000}, DType::Float32);
  Array y, z;
  {
    DeviceScope scope(device);
    y = sin(a) * 2.0;
    z = a - 1.0;
  }
  const Explanation e = evaluated(y);
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(e.kernels[0].ran_on, device);
  // Work made under another scope (the host's) realises z on `device` first.
  const Explanation mixed = explain([&] {
    DeviceScope on_host(host);
    eval(z + 2.0);
  });
  ASSERT_EQ(mixed.kernels.size(), 2u) << mixed.to_string();
  EXPECT_EQ(mixed.kernels[0].ran_on, device);
  EXPECT_EQ(mixed.kernels[1].ran_on.rfind(host, 0), 0u) << mixed.kernels[1].ran_on;
  EXPECT_TRUE(stopped_for(mixed, "device-scope")) << mixed.to_string();
  std::vector<double> ey, ez;
  for (double x : va) ey.push_back(2 * std::sin(x)), ez.push_back(x - 1);
  expect_close(y, ey, true, "sin(a) * 2 made under " + device);
  expect_close(z, ez, false, "a - 1 made under " + device);
}

}  // namespace
}  // namespace switchyard

// switchyard::explain end to end on the real backends: every kernel of some work is reported
// with each candidate's predicted breakdown, the choice and its reason, where it actually ran,
// and advice (fuse, keep data resident, batch, break-even), and the text names every candidate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "runtime/attempts.hpp"
#include "runtime/fault_injection.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using testing_support::has_opencl;
using testing_support::last_signature;
using testing_support::OnlyFastOn;
using testing_support::scheduler_knows_every_device;

// Every candidate the scheduler ranks on this machine: host devices inline and in parallel.
std::set<std::string> expected_candidates() {
  std::set<std::string> names;
  for (const auto& d : devices()) {
    if (d.kind == DeviceKind::CPU && d.backend == "cpu") {
      names.insert(d.id() + "/inline");
      names.insert(d.id() + "/parallel");
    } else {
      names.insert(d.id());
    }
  }
  return names;
}

// Whether a device other than the host and opencl:0 is here (an NVIDIA GPU, a second OpenCL
// device) that may rightly win work this file expects on opencl:0.
bool another_accelerator() {
  for (const auto& d : devices())
    if (d.backend != "cpu" && d.id() != "opencl:0") return true;
  return false;
}

std::vector<float> values(std::int64_t n, float scale, float offset) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 101) * scale + offset;
  return v;
}

const CandidateReport* candidate(const KernelReport& k, const std::string& name) {
  for (const auto& c : k.candidates)
    if (c.name == name) return &c;
  return nullptr;
}

bool mentions(const std::vector<std::string>& advice, const std::string& fragment) {
  return std::any_of(advice.begin(), advice.end(),
                     [&](const std::string& a) { return a.find(fragment) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

void expect_well_formed(const KernelReport& k, std::int64_t elements) {
  SCOPED_TRACE(k.kernel);
  EXPECT_EQ(k.elements, elements);
  std::set<std::string> names;
  for (const auto& c : k.candidates) {
    names.insert(c.name);
    EXPECT_GE(c.compile_s, 0) << c.name;
    EXPECT_GE(c.transfer_s, 0) << c.name;
    EXPECT_GE(c.launch_s, 0) << c.name;
    EXPECT_GT(c.compute_s, 0) << c.name;
    EXPECT_NEAR(c.predicted_s, c.compile_s + c.transfer_s + c.launch_s + c.compute_s,
                1e-9 + 1e-9 * c.predicted_s)
        << c.name;
    EXPECT_GT(c.expected_s, 0) << c.name;
  }
  EXPECT_EQ(names, expected_candidates());
  EXPECT_EQ(k.candidates.size(), names.size());
  for (std::size_t i = 1; i < k.candidates.size(); ++i) {  // best first among those that fit
    if (k.candidates[i].fits) {
      EXPECT_LE(k.candidates[i - 1].expected_s, k.candidates[i].expected_s);
    }
  }
  EXPECT_TRUE(names.count(k.chosen)) << k.chosen;
  EXPECT_FALSE(k.reason.empty());
  EXPECT_EQ(k.ran_on, k.chosen);  // no fault: it ran where it was placed
  EXPECT_EQ(k.fallbacks, 0);
  EXPECT_GT(k.actual_s, 0);
}

class Explain : public ::testing::Test {
 protected:
  void SetUp() override {
    clear_faults();
    ASSERT_TRUE(scheduler_knows_every_device()) << "a device was not calibrated in 30 s";
  }
  void TearDown() override { clear_faults(); }
  static void clear_faults() {
    runtime::replace_faults("");
    runtime::device_health().reset();
  }
};

TEST_F(Explain, ReportsTheFusedKernelWithItsOperatorsAndEveryCandidate) {
  constexpr std::int64_t n = 1'000'000;
  const auto ha = values(n, 0.5f, -3), hb = values(n, 0.25f, 1), hc = values(n, 0.03f, -1.5f);
  const Array a = Array::from_vector(ha), b = Array::from_vector(hb), c = Array::from_vector(hc);
  Array r;
  const Explanation e = explain([&] {
    r = a * b + sin(c);
    eval(r);
  });

  ASSERT_EQ(e.kernels.size(), 1u);
  const KernelReport& k = e.kernels[0];
  expect_well_formed(k, n);
  EXPECT_EQ(std::multiset<std::string>(k.operators.begin(), k.operators.end()),
            (std::multiset<std::string>{"mul", "sin", "add"}));
  EXPECT_TRUE(e.fusion_stops.empty());
  EXPECT_FALSE(mentions(e.advice, "elementwise kernels")) << joined(e.advice);

  const std::string text = e.to_string();
  for (const auto& name : expected_candidates())
    EXPECT_NE(text.find(name), std::string::npos) << name << " missing from:\n" << text;
  EXPECT_NE(text.find("kernel " + k.kernel), std::string::npos) << text;
  EXPECT_NE(text.find("3 operators fused"), std::string::npos) << text;
  EXPECT_NE(text.find("chosen: "), std::string::npos) << text;

  const auto got = r.to_vector<float>();
  for (std::int64_t i = 0; i < n; i += 997)
    ASSERT_NEAR(got[i], ha[i] * hb[i] + std::sin(hc[i]), 1e-4f * (1 + std::fabs(ha[i] * hb[i])))
        << i;
}

TEST_F(Explain, ShowsWhereFusionStoppedAndWhy) {
  const Array a = Array::from_vector(values(1000, 1, 0));
  const Explanation e = explain([&] { eval(a - sum(a) / 1000.0f); });
  ASSERT_EQ(e.kernels.size(), 2u) << e.to_string();
  EXPECT_EQ(e.kernels[0].operators, std::vector<std::string>{"sum"});
  ASSERT_EQ(e.fusion_stops.size(), 1u) << e.to_string();
  EXPECT_EQ(e.fusion_stops[0].rfind("reduction-consumed: sum", 0), 0u) << e.fusion_stops[0];
  EXPECT_NE(e.to_string().find("fusion stopped:"), std::string::npos) << e.to_string();
  EXPECT_TRUE(mentions(e.advice, "2 elementwise kernels")) << joined(e.advice);
}

// A pipeline's terminal records its own kernels for its report; inside the caller's explain,
// they are in the caller's report too, with every candidate's figures.
TEST_F(Explain, ReportsThePipelinesKernelsToo) {
  const Array a = Array::from_vector(values(1000, 1, -500));
  const pipeline::Query kept = pipeline::from(a).where([](const Array& v) { return v > 0.0f; });
  const Explanation e = explain([&] { eval(kept.sum()); });
  const std::vector<pipeline::StageReport>& stages = kept.report().stages;
  ASSERT_FALSE(stages.empty());
  ASSERT_EQ(e.kernels.size(), stages.size()) << e.to_string();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    EXPECT_EQ(e.kernels[i].kernel, stages[i].work) << i;
    EXPECT_EQ(e.kernels[i].candidates.size(), expected_candidates().size()) << e.to_string();
  }
}

TEST_F(Explain, OneKernelIsNotAdvisedToFuse) {
  const Array a = Array::from_vector(values(1000, 1, 0));
  const Explanation e = explain([&] { eval(a * a); });
  ASSERT_EQ(e.kernels.size(), 1u);
  EXPECT_FALSE(mentions(e.advice, "fuse")) << joined(e.advice);
}

TEST_F(Explain, TinyHostWorkStaysOffOpenclWhoseLaunchLatencyDominates) {
  if (!has_opencl()) GTEST_SKIP() << "no opencl:0 to compare the CPU with";
  const Array a = Array::from_vector(values(16, 1, 0)), b = Array::from_vector(values(16, 2, 1));
  const Explanation e = explain([&] { eval(a * b); });
  ASSERT_EQ(e.kernels.size(), 1u);
  const KernelReport& k = e.kernels[0];
  expect_well_formed(k, 16);
  EXPECT_NE(k.chosen, "opencl:0");
  const CandidateReport* cl = candidate(k, "opencl:0");
  const CandidateReport* inline_cpu = candidate(k, "cpu:0/inline");
  ASSERT_TRUE(cl && inline_cpu);
  EXPECT_GT(cl->transfer_s, 0);  // host data would have to move there
  EXPECT_EQ(inline_cpu->transfer_s, 0);
  EXPECT_GT(cl->launch_s, inline_cpu->launch_s);
  EXPECT_GT(cl->launch_s + cl->transfer_s, cl->compute_s)
      << "at 16 elements opencl:0's fixed costs dominate its compute";
  EXPECT_GT(cl->expected_s, k.candidates.front().expected_s);
  EXPECT_TRUE(mentions(e.advice, "batch small work")) << joined(e.advice);
}

TEST_F(Explain, DataResidentOnOpenclCostsTransfersOnlyOnTheCpu) {
  if (!has_opencl()) GTEST_SKIP() << "no opencl:0 to keep data on";
  constexpr std::int64_t n = 1'000'000;
  Array a = Array::from_vector(values(n, 1, 0)), b = Array::from_vector(values(n, 2, 1));
  {
    DeviceScope scope("opencl:0");
    a = a + 0.0f;
    b = b + 0.0f;
    eval(a, b);   // made there: their only copies live on opencl:0
    eval(a * b);  // compiled there, so the choice below is not made while compiling
  }
  ASSERT_EQ(a.locations(), std::vector<std::string>{"opencl:0"});
  const Explanation e = explain([&] { eval(a * b); });
  ASSERT_EQ(e.kernels.size(), 1u);
  const KernelReport& k = e.kernels[0];
  expect_well_formed(k, n);
  for (const auto& c : k.candidates) {
    if (c.name == "opencl:0") {
      EXPECT_EQ(c.transfer_s, 0);
      EXPECT_TRUE(c.compiled);
    } else {
      EXPECT_GT(c.transfer_s, 0) << c.name;
    }
  }
  if (!another_accelerator()) {
    EXPECT_EQ(k.chosen, "opencl:0") << e.to_string();
  }
}

TEST_F(Explain, SizeSweepFindsABreakEvenWhereTheChoiceChanges) {
  int with_break_even = 0;
  for (const std::int64_t n : {100, 10'000, 1'000'000}) {
    SCOPED_TRACE(n);
    const Array a = Array::from_vector(values(n, 1, 0)), b = Array::from_vector(values(n, 2, 1));
    eval(a * b);  // compiled on the CPU before it is explained
    const Explanation e = explain([&] { eval(a * b); });
    ASSERT_EQ(e.kernels.size(), 1u);
    const KernelReport& k = e.kernels[0];
    expect_well_formed(k, n);
    if (!k.break_even_elements) continue;
    ++with_break_even;
    EXPECT_GT(*k.break_even_elements, 0);
    EXPECT_NE(*k.break_even_elements, n);
    EXPECT_TRUE(expected_candidates().count(k.break_even_choice)) << k.break_even_choice;
    // The ranking's best (what the break-even search starts from) is not what it flips to.
    EXPECT_NE(k.break_even_choice, k.candidates.front().name);
    if (k.chosen == k.candidates.front().name) {
      EXPECT_NE(k.break_even_choice, k.chosen);
    }
    EXPECT_TRUE(mentions(e.advice, "break-even")) << joined(e.advice);
    EXPECT_TRUE(mentions(e.advice, k.break_even_choice)) << joined(e.advice);
    EXPECT_NE(e.to_string().find("break-even"), std::string::npos);
  }
  EXPECT_GE(with_break_even, 1);
}

TEST_F(Explain, FallbackIsReportedWithWhereTheWorkActuallyRan) {
  if (!has_opencl()) GTEST_SKIP() << "no opencl:0 to fail";
  constexpr std::int64_t n = 1'000'000;
  Array a = Array::from_vector(values(n, 1, 0)), b = Array::from_vector(values(n, 2, 1));
  {
    DeviceScope scope("opencl:0");
    a = a + 0.0f;
    b = b + 0.0f;
    eval(a, b);  // made there: their only copies live on opencl:0
    eval(a * b);
  }
  const OnlyFastOn prefer_opencl({last_signature()}, n, "opencl:0");
  runtime::replace_faults("opencl:launch");
  const Explanation e = explain([&] { eval(a * b); });
  ASSERT_EQ(e.kernels.size(), 1u);
  const KernelReport& k = e.kernels[0];
  EXPECT_EQ(k.chosen, "opencl:0");
  EXPECT_EQ(k.fallbacks, 1);
  EXPECT_NE(k.ran_on, "opencl:0");
  EXPECT_FALSE(k.ran_on.empty());
  EXPECT_TRUE(mentions(e.advice, "failed first")) << joined(e.advice);
  EXPECT_NE(e.to_string().find("after 1 fallback(s)"), std::string::npos) << e.to_string();
}

// A tiny op run again and again reuses its last choice without asking the scheduler; history
// that moves must still move it, at once.
TEST_F(Explain, ATinyOpInALoopFollowsHistoryThatMoves) {
  const auto other = testing_support::device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host";
  constexpr std::int64_t n = 100;
  const Array a = Array::from_vector(values(n, 1, 0)), b = Array::from_vector(values(n, 2, 1));
  {
    const DeviceScope there(*other);  // compiled there: readiness does not decide
    eval(a + b);
  }
  const auto ran_on = [&] {
    const Explanation e = explain([&] { eval(a + b); });
    return e.kernels.size() == 1 ? e.kernels[0].ran_on : "";
  };
  {
    // Measured nowhere but there, and the host made dreadful: it runs there, again and again.
    const OnlyFastOn steer({last_signature()}, n, *other);
    for (int i = 0; i < 200; ++i) eval(a + b);
    ASSERT_EQ(ran_on(), *other) << "precondition: steered there";
  }
  // History as it was (the host unmeasured, its model far ahead for 100 elements): the very next
  // run is placed anew.
  EXPECT_TRUE(ran_on().starts_with("cpu:"));
}

// sy.explain(y) after y was read: the kernel that wrote it, where and why, not a blank.
TEST_F(Explain, AnArrayAlreadyComputedReportsTheKernelThatWroteIt) {
  const Array a = Array::from_vector(values(1000, 1, 0));
  const Array y = sin(a) * 2.0f + 1.0f;
  const Explanation live = explain(y);  // pending: computed now, every candidate ranked
  ASSERT_EQ(live.kernels.size(), 1u);
  EXPECT_FALSE(live.kernels[0].candidates.empty());
  ASSERT_FALSE(y.pending());
  const Explanation later = explain(y);  // computed: what its storage kept of the kernel
  ASSERT_EQ(later.kernels.size(), 1u);
  const KernelReport& k = later.kernels[0];
  const KernelReport& then = live.kernels[0];
  EXPECT_EQ(k.kernel, then.kernel);
  EXPECT_EQ(k.operators, then.operators);
  EXPECT_EQ(k.elements, 1000);
  EXPECT_EQ(k.chosen, then.chosen);
  EXPECT_EQ(k.reason, then.reason);
  EXPECT_EQ(k.ran_on, then.ran_on);
  EXPECT_EQ(k.actual_s, then.actual_s);
  EXPECT_EQ(k.execute_s, then.execute_s);
  EXPECT_EQ(k.predicted_s, then.predicted_s);
  EXPECT_TRUE(k.candidates.empty());
  const std::string text = later.to_string();
  EXPECT_NE(text.find("computed before this call"), std::string::npos) << text;
  EXPECT_NE(text.find("ran on: " + k.ran_on), std::string::npos) << text;
  // Values from the host were computed by no kernel: a note says so.
  const Explanation host = explain(a);
  EXPECT_TRUE(host.kernels.empty());
  EXPECT_NE(host.to_string().find("written from the host"), std::string::npos) << host.to_string();
  EXPECT_THROW(explain(Array()), ValueError);
}

TEST_F(Explain, PinnedWorkSaysSo) {
  const Array a = Array::from_vector(values(1000, 1, 0));
  Explanation e;
  {
    DeviceScope scope("cpu:0/inline");
    e = explain([&] { eval(a * a); });
  }
  ASSERT_EQ(e.kernels.size(), 1u);
  EXPECT_EQ(e.kernels[0].chosen, "cpu:0/inline");
  EXPECT_EQ(e.kernels[0].ran_on, "cpu:0/inline");
  EXPECT_NE(e.kernels[0].reason.find("pinned"), std::string::npos) << e.kernels[0].reason;
  EXPECT_TRUE(e.kernels[0].candidates.empty());
}

TEST_F(Explain, TheHostPinnedWithoutAModeRunsAsTheCandidateTheSchedulerPicksThere) {
  // So that its time is learnt under a modelled candidate (the demo's cpu:0 column teaches auto).
  const Array a = Array::from_vector(values(1000, 1, 0));
  Explanation e;
  {
    DeviceScope scope("cpu:0");
    e = explain([&] { eval(a * a + 1); });
  }
  ASSERT_EQ(e.kernels.size(), 1u);
  const std::string& ran = e.kernels[0].ran_on;
  EXPECT_TRUE(ran == "cpu:0/inline" || ran == "cpu:0/parallel") << ran;
}

}  // namespace
}  // namespace switchyard

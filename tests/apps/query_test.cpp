// The events query on every device (and on "auto"): count, total, running total and top-k
// against host loops over the same float32 values, the stages' reports, and bad input.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "conformance/conformance.hpp"
#include "switchyard/apps/query.hpp"

namespace switchyard::apps::query {
namespace {

using conformance::host_array;
using conformance::random_values;
using Vec = std::vector<double>;

struct HostResult {
  Vec revenue;                       // kept, in event order
  std::vector<std::int64_t> events;  // their positions
};

// The kept revenues, rounded as the device's float32 multiplications round them.
HostResult host_query(const Vec& v, const Vec& w, const Query& q) {
  HostResult r;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (static_cast<float>(v[i]) > q.threshold) {
      r.revenue.push_back(static_cast<float>(static_cast<float>(v[i] * w[i]) * q.scale));
      r.events.push_back(static_cast<std::int64_t>(i));
    }
  return r;
}

// Values uniform in [-2, 2) and weights in [0.5, 1.5); with `ties`, values the integers -2..1
// and weights 1, so the top k is decided among many equal revenues.
void check_against_host(std::int64_t n, const Query& q, const std::string& device,
                        bool ties = false) {
  const Vec v = random_values(n, ties ? DType::Int32 : DType::Float32, 3, -2, 2);
  const Vec w = ties ? Vec(n, 1.0) : random_values(n, DType::Float32, 4, 0.5, 1.5);
  const Events events{host_array(v, {n}, DType::Float32), host_array(w, {n}, DType::Float32)};
  const Result r = run(events, q);
  const HostResult want = host_query(v, w, q);
  const std::string what = "n = " + std::to_string(n) + " threshold " + std::to_string(q.threshold);

  ASSERT_EQ(r.count, static_cast<std::int64_t>(want.revenue.size())) << what;
  const double tol = conformance::sum_tolerance(DType::Float32, false, want.revenue);
  EXPECT_NEAR(r.total, std::accumulate(want.revenue.begin(), want.revenue.end(), 0.0), tol) << what;

  // A float32 scan adds one rounding of the running sum per element (in whatever order the
  // device combines blocks): at element i at most 2^-24 · Σ_{j<=i} |S_j|, S the exact prefixes.
  Vec running(want.revenue.size()), scan_tol(want.revenue.size());
  std::partial_sum(want.revenue.begin(), want.revenue.end(), running.begin());
  double rounding = 0;
  for (std::size_t i = 0; i < running.size(); ++i) {
    rounding += std::abs(running[i]) * 0x1p-24;
    scan_tol[i] = rounding + tol;
  }
  conformance::expect_within(r.running_total, running, scan_tol, what + " scan");

  // Largest first; among ties the later event first.
  std::vector<std::size_t> order(want.revenue.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return want.revenue[a] != want.revenue[b] ? want.revenue[a] > want.revenue[b] : a > b;
  });
  const std::size_t k = std::min<std::size_t>(q.top_k, order.size());
  ASSERT_EQ(r.top_revenue.size(), k) << what;
  ASSERT_EQ(r.top_events.size(), k) << what;
  for (std::size_t i = 0; i < k; ++i) {
    EXPECT_EQ(r.top_revenue[i], want.revenue[order[i]]) << what << " top " << i;
    EXPECT_EQ(r.top_events[i], want.events[order[i]]) << what << " top " << i;
  }

  std::vector<std::string> names;
  for (const Stage& s : r.stages) names.push_back(s.name);
  // top_k_cut (a sorted sample) runs when there are events enough to sample; neither top-k stage
  // when no event is asked for or kept.
  std::vector<std::string> expected = {"total", "running_total"};
  if (names.size() == 4) expected.push_back("top_k_cut");
  if (k > 0) expected.push_back("top_k");
  EXPECT_EQ(names, expected) << what;
  if (n == 0 || q.top_k == 0) return;
  EXPECT_EQ(r.stages[0].report.stages.size(), 1u) << r.stages[0].report.to_string();
  for (const Stage& s : r.stages) {
    if (s.name == "top_k_cut") {
      EXPECT_GT(s.report.elements, 0) << s.name;  // every stride-th event
      EXPECT_LT(s.report.elements, n) << s.name;
    } else {
      EXPECT_EQ(s.report.elements, n) << s.name;
    }
    EXPECT_GE(s.report.stages.size(), 1u) << s.name << s.report.to_string();
    EXPECT_GT(s.report.total_s, 0) << s.name;
    if (device.empty()) continue;  // "auto": wherever the scheduler put it
    for (const pipeline::StageReport& stage : s.report.stages)
      EXPECT_EQ(stage.device.rfind(device, 0), 0u) << s.name << ": " << stage.device;
  }
}

class EventsQuery : public conformance::OnEveryDevice {};

TEST_P(EventsQuery, MatchesHostLoops) {
  for (const std::int64_t n : {0, 1, 7, 1000, 100003})
    check_against_host(n, {.threshold = 0.25, .scale = 1.5, .top_k = 10}, GetParam());
  // Nothing kept; every event kept with k beyond the count.
  check_against_host(1000, {.threshold = 5}, GetParam());
  check_against_host(50, {.threshold = -5, .top_k = 80}, GetParam());
  check_against_host(20000, {.threshold = -1.5, .top_k = 25}, GetParam(), /*ties=*/true);
  check_against_host(1000, {.top_k = 0}, GetParam());
}

TEST(EventsQueryAuto, MatchesHostLoops) {
  check_against_host(100003, {.threshold = 0.5, .scale = 2, .top_k = 5}, "");
}

TEST(EventsQuery, SyntheticEventsAreSeeded) {
  const Events a = synthetic_events(1000, 7), b = synthetic_events(1000, 7);
  EXPECT_EQ(a.values.to_vector<float>(), b.values.to_vector<float>());
  const auto w = a.weights.to_vector<float>();
  EXPECT_TRUE(std::all_of(w.begin(), w.end(), [](float x) { return x >= 0.5f && x < 1.5f; }));
  EXPECT_EQ(synthetic_events(10, 1, DType::Float64).values.dtype(), DType::Float64);
}

TEST(EventsQueryErrors, BadInputIsATypedErrorNamingTheParameter) {
  const Events e = synthetic_events(10, 1);
  const auto expect_error = [](const auto& f, const std::string& word) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one naming " << word;
    } catch (const Error& err) {
      EXPECT_NE(std::string(err.what()).find(word), std::string::npos) << err.what();
    }
  };
  EXPECT_THROW(run({e.values, synthetic_events(11, 1).weights}), ShapeError);
  EXPECT_THROW(run({e.values.reshape({2, 5}), e.weights.reshape({2, 5})}), ShapeError);
  EXPECT_THROW(run({e.values.astype(DType::Int32), e.weights}), DTypeError);
  EXPECT_THROW(synthetic_events(-1, 1), ValueError);
  expect_error([&] { run(e, {.threshold = NAN}); }, "threshold");
  expect_error([&] { run(e, {.scale = INFINITY}); }, "scale");
  expect_error([&] { run(e, {.top_k = -1}); }, "top_k");
  expect_error([&] { run({e.values, Array()}); }, "weights");
}

SWITCHYARD_ON_EVERY_DEVICE(EventsQuery);

}  // namespace
}  // namespace switchyard::apps::query

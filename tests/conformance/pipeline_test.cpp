// Query pipelines on every device: values against host loops, how many kernels each terminal
// runs (map → where → fold is one), the report it leaves, and bad stages.
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"
#include "switchyard/pipeline.hpp"

namespace switchyard::conformance {
namespace {

namespace q = switchyard::pipeline;
using q::_1;

class Pipeline : public OnEveryDevice {
 protected:
  // The kept values of map(2x + 1) → where(> 0), computed on the host in float32 as the
  // pipeline computes them.
  static std::vector<double> kept(const std::vector<double>& x) {
    std::vector<double> out;
    for (const double v : x) {
      const float y = static_cast<float>(v) * 2.0f + 1.0f;
      if (y > 0) out.push_back(y);
    }
    return out;
  }

  void expect_on_this_device(const q::Report& r) const {
    for (const q::StageReport& s : r.stages)
      EXPECT_EQ(s.device.rfind(GetParam(), 0), 0u) << s.device;
  }
};

TEST_P(Pipeline, MapWhereFoldsAreOnePass) {
  for (const std::int64_t n : kSizes) {
    const auto x = random_values(n, DType::Float32, 5);
    const Array a = host_array(x, {n}, DType::Float32);
    const auto query = q::from(a).map(_1 * 2 + 1).where(_1 > 0);
    const auto want = kept(x);
    const std::string what = "n = " + std::to_string(n);

    const double sum = query.sum().item<double>();
    EXPECT_EQ(query.report().stages.size(), n == 0 ? 0u : 1u) << query.report().to_string();
    expect_on_this_device(query.report());
    const double expected_sum = std::accumulate(want.begin(), want.end(), 0.0);
    EXPECT_NEAR(sum, expected_sum, sum_tolerance(DType::Float32, false, want)) << what;

    EXPECT_EQ(query.count().item<std::int64_t>(), static_cast<std::int64_t>(want.size())) << what;
    EXPECT_LE(query.report().stages.size(), 1u);
    if (want.empty()) {
      EXPECT_THROW(query.min(), ValueError) << what;
      continue;
    }
    EXPECT_EQ(query.min().item<double>(), *std::min_element(want.begin(), want.end())) << what;
    EXPECT_EQ(query.report().stages.size(), 1u) << query.report().to_string();
    EXPECT_EQ(query.max().item<double>(), *std::max_element(want.begin(), want.end())) << what;
  }
}

// The largest sum above is about 2.65e6, where one float32 ulp is 0.25; its tolerance was once
// 0.153, so a device rounding correctly failed (PoCL on AVX-512). A tolerance is never finer
// than one ulp of the result, and covers what pairwise summation in any order may add.
TEST_P(Pipeline, SumToleranceIsNeverFinerThanTheResultsRounding) {
  const std::int64_t n = kSizes.back();
  const auto want = kept(random_values(n, DType::Float32, 5));
  double sum = 0, sum_abs = 0;
  for (double v : want) sum += v, sum_abs += std::abs(v);
  const double tol = sum_tolerance(DType::Float32, false, want);
  EXPECT_GE(tol, ulp(sum, DType::Float32));
  EXPECT_GE(tol,
            sum_error_bound(DType::Float32, static_cast<std::int64_t>(want.size()), sum_abs, sum));
}

TEST_P(Pipeline, IntegerAggregatesUseTheFoldIdentity) {
  const std::vector<double> x = {5, -3, 7, 0, -8, 2, 9, -1};
  const Array a = host_array(x, {8}, DType::Int32);
  const auto odd = q::from(a).where(_1 % 2 != 0);  // 5, -3, 7, 9, -1
  EXPECT_EQ(odd.aggregate(Accumulate::Prod).item<std::int64_t>(), 5 * -3 * 7 * 9 * -1);
  EXPECT_EQ(odd.aggregate(Accumulate::Min).item<std::int64_t>(), -3);
  EXPECT_EQ(odd.aggregate(Accumulate::Max).item<std::int64_t>(), 9);
  EXPECT_EQ(odd.sum().dtype(), DType::Int64);  // NumPy: sums of int32 are int64
  EXPECT_EQ(odd.sum().item<std::int64_t>(), 17);
  // Nothing filtered: the folds of the whole array.
  EXPECT_EQ(q::from(a).max().item<std::int64_t>(), 9);
  EXPECT_EQ(q::from(a).count().item<std::int64_t>(), 8);
}

TEST_P(Pipeline, CompactingTerminalsKeepOrder) {
  for (const std::int64_t n : kSmallSizes) {
    const auto x = random_values(n, DType::Float32, 9);
    // A 2-D source is read in row-major order.
    const Array a = host_array(x, {1, n}, DType::Float32);
    const auto query = q::from(a).map(_1 * 2 + 1).where(_1 > 0);
    const auto want = kept(x);
    const std::string what = "n = " + std::to_string(n);

    expect_close(query.to_array(), want, false, "to_array " + what);
    auto sorted = want;
    std::stable_sort(sorted.begin(), sorted.end());
    expect_close(query.sort(), sorted, false, "sort " + what);
    std::vector<double> scanned(want.size());
    std::partial_sum(want.begin(), want.end(), scanned.begin());
    expect_within(query.scan(), scanned,
                  std::vector<double>(want.size(), sum_tolerance(DType::Float32, false, want)),
                  "scan " + what);

    // argsort: source positions of the kept elements, by value, ties in source order.
    std::vector<std::int64_t> positions;
    for (std::int64_t i = 0; i < n; ++i)
      if (static_cast<float>(x[i]) * 2.0f + 1.0f > 0) positions.push_back(i);
    std::stable_sort(positions.begin(), positions.end(),
                     [&](std::int64_t p, std::int64_t r) { return x[p] < x[r]; });
    EXPECT_EQ(query.argsort().to_vector<std::int64_t>(), positions) << what;
    expect_on_this_device(query.report());
  }
}

TEST_P(Pipeline, ReportsTimesDevicesAndThroughput) {
  const std::int64_t n = 100000;
  const Array a = host_array(random_values(n, DType::Float32, 3), {n}, DType::Float32);
  const auto query = q::from(a).map(_1 * _1).where(_1 < 1);
  query.sum();
  const q::Report& r = query.report();
  EXPECT_EQ(r.terminal, "sum");
  EXPECT_EQ(r.elements, n);
  ASSERT_EQ(r.stages.size(), 1u);
  EXPECT_FALSE(r.stages[0].reason.empty());
  EXPECT_GT(r.stages[0].execute_s, 0);
  EXPECT_GE(r.total_s, r.stages[0].execute_s);
  EXPECT_GT(r.elements_per_s(), 0);
  // Run again: the same kernel is compiled already.
  query.sum();
  EXPECT_TRUE(query.report().cache_hit) << query.report().to_string();
  EXPECT_EQ(query.report().compile_s, 0);
  EXPECT_NE(query.report().to_string().find(GetParam()), std::string::npos);
}

TEST_P(Pipeline, BadStagesAreTypedErrors) {
  const Array a = host_array(random_values(10, DType::Float32, 1), {10}, DType::Float32);
  EXPECT_THROW(q::from(a).where(_1 * 2), DTypeError);  // not a predicate
  EXPECT_THROW(q::from(a).map([](const Array& x) { return sum(x); }), ShapeError);
  EXPECT_THROW(q::from(Array()), ValueError);
  EXPECT_THROW(q::from(a).where(_1 > 100).max(), ValueError);  // nothing kept
}

SWITCHYARD_ON_EVERY_DEVICE(Pipeline);

}  // namespace
}  // namespace switchyard::conformance

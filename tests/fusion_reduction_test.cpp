// Reductions counted: each runs in one kernel with the expression it reduces, over all elements
// or one axis; a reduction whose result feeds another node is realised first (mean is a sum,
// then a division); and sums realised together share a kernel. Values against host loops.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "conformance/conformance.hpp"
#include "fusion_support.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard {
namespace {

using conformance::expect_within;
using conformance::host_array;
using conformance::random_values;
using conformance::sum_tolerance;
using testing_support::evaluated;
using testing_support::Fusion;
using testing_support::requested;
using testing_support::sorted;
using testing_support::stopped_for;

void expect_sum(const Array& total, const std::vector<double>& terms, bool transcendental,
                const std::string& what) {
  long double exact = 0;
  for (double t : terms) exact += t;
  expect_within(total, {static_cast<double>(exact)},
                {sum_tolerance(total.dtype(), transcendental, terms)}, what);
}

struct Three {
  std::vector<double> a, b, c;
  Array fa, fb, fc;
};

Three float_inputs(const Shape& shape, std::uint64_t seed) {
  const std::int64_t n = element_count(shape);
  Three in;
  in.a = random_values(n, DType::Float32, seed);
  in.b = random_values(n, DType::Float32, seed + 1);
  in.c = random_values(n, DType::Float32, seed + 2);
  in.fa = host_array(in.a, shape, DType::Float32);
  in.fb = host_array(in.b, shape, DType::Float32);
  in.fc = host_array(in.c, shape, DType::Float32);
  return in;
}

TEST_F(Fusion, SumRunsInOneKernelWithTheExpressionItReduces) {
  const Three in = float_inputs({4099}, 61);
  const Array total = sum(in.fa * in.fb + sin(in.fc));
  const Explanation e = evaluated(total);
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(requested(e.kernels[0]), sorted({"mul", "sin", "add", "sum"}));
  std::vector<double> terms;
  for (std::size_t i = 0; i < in.a.size(); ++i)
    terms.push_back(in.a[i] * in.b[i] + std::sin(in.c[i]));
  expect_sum(total, terms, true, "sum(a * b + sin(c))");
}

TEST_F(Fusion, SumOverEitherAxisOfAnExpressionIsOneKernel) {
  const std::int64_t rows = 33, cols = 65;
  const Three in = float_inputs({rows, cols}, 62);
  const Array m = in.fa * in.fb - 0.5;
  for (const int axis : {0, 1}) {
    SCOPED_TRACE(axis);
    const Array line_sums = sum(m, axis);
    const Explanation e = evaluated(line_sums);
    ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
    EXPECT_EQ(requested(e.kernels[0]), sorted({"mul", "sub", "sum"}));
    const std::int64_t lines = axis == 0 ? cols : rows, length = axis == 0 ? rows : cols;
    ASSERT_EQ(line_sums.shape(), Shape{lines});
    std::vector<double> expected, tolerances;
    for (std::int64_t l = 0; l < lines; ++l) {
      std::vector<double> terms;
      for (std::int64_t i = 0; i < length; ++i) {
        const std::int64_t at = axis == 0 ? i * cols + l : l * cols + i;
        terms.push_back(in.a[at] * in.b[at] - 0.5);
      }
      long double exact = 0;
      for (double t : terms) exact += t;
      expected.push_back(static_cast<double>(exact));
      tolerances.push_back(sum_tolerance(DType::Float32, false, terms));
    }
    expect_within(line_sums, expected, tolerances,
                  "sum(a * b - 0.5, " + std::to_string(axis) + ")");
  }
}

TEST_F(Fusion, ArgmaxOfAnExpressionIsOneKernel) {
  const Three in = float_inputs({2001}, 63);
  const Array best = argmax(sin(in.fa) * in.fb);
  const Explanation e = evaluated(best);
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(requested(e.kernels[0]), sorted({"sin", "mul", "argmax"}));
  std::vector<double> values;
  for (std::size_t i = 0; i < in.a.size(); ++i) values.push_back(std::sin(in.a[i]) * in.b[i]);
  const double highest = *std::max_element(values.begin(), values.end());
  const auto index = best.item<std::int64_t>();
  ASSERT_GE(index, 0);
  ASSERT_LT(index, static_cast<std::int64_t>(values.size()));
  // Rounding may reorder values closer than float32 resolves; any of those is a right answer.
  EXPECT_GE(values[index], highest - conformance::tolerance(DType::Float32, true) * 4)
      << "argmax gave " << index << " holding " << values[index] << ", the highest is " << highest;
}

TEST_F(Fusion, MeanIsASumRealisedBeforeItsDivision) {
  const Three in = float_inputs({1000}, 64);
  const Array average = mean(in.fa * in.fb);
  const Explanation e = evaluated(average);
  ASSERT_EQ(e.kernels.size(), 2u) << e.to_string();
  EXPECT_EQ(requested(e.kernels[0]), sorted({"mul", "sum"}));
  EXPECT_EQ(requested(e.kernels[1]), std::vector<std::string>{"div"});
  EXPECT_TRUE(stopped_for(e, "reduction-consumed")) << e.to_string();
  std::vector<double> terms;
  for (std::size_t i = 0; i < in.a.size(); ++i) terms.push_back(in.a[i] * in.b[i] / 1000);
  expect_sum(average, terms, false, "mean(a * b)");
}

TEST_F(Fusion, SumsOfOneInputRealisedTogetherShareOneKernel) {
  const Three in = float_inputs({5000}, 65);
  const Array total = sum(in.fa), squares = sum(in.fa * in.fa);
  const Explanation e = evaluated(total, squares);
  EXPECT_EQ(e.kernels.size(), 1u) << e.to_string();
  std::vector<double> x2;
  for (double x : in.a) x2.push_back(x * x);
  expect_sum(total, in.a, false, "sum(x)");
  expect_sum(squares, x2, false, "sum(x * x)");
}

}  // namespace
}  // namespace switchyard

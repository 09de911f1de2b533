// 200 seeded random expressions on every device, built lazily (so each runs fused) and realised
// ten at a time with eval, each checked element by element against the host's float64 value
// within the error bound the host carries with it. A failure names the seed and the expression.
#include <string>

#include "conformance/conformance.hpp"
#include "conformance/random_expression.hpp"

namespace switchyard::conformance {
namespace {

constexpr int kExpressions = 200;
constexpr int kMaxDepth = 6;
// Expressions realised by one eval: those of one shape share a kernel with an output each, which
// also keeps down the kernels an OpenCL compiler must build (up to a second or two each).
constexpr int kTogether = 10;

class RandomExpressions : public OnEveryDevice {
 protected:
  void check_expressions(DType t) const;
};

void RandomExpressions::check_expressions(DType t) const {
  // a is stored in order, b transposed and c a column broadcast along rows: the fused kernels
  // read three layouts.
  constexpr std::int64_t rows = 16, cols = 17;
  const auto va = random_values(rows * cols, t, 21, -2, 2);
  const auto vb = random_values(cols * rows, t, 22, -2, 2);
  const auto vc = random_values(rows, t, 23, -2, 2);
  const Array a = host_array(va, {rows, cols}, t);
  const Array b = host_array(vb, {cols, rows}, t).transpose();
  const Array c = host_array(vc, {rows, 1}, t);
  for (std::uint64_t first = 1; first <= kExpressions; first += kTogether) {
    std::vector<RandomExpression> expressions;
    std::vector<Array> results;
    for (std::uint64_t seed = first; seed < first + kTogether; ++seed) {
      expressions.emplace_back(seed, kMaxDepth);
      results.push_back(expressions.back().build(a, b, c));
    }
    eval(results);
    for (std::size_t e = 0; e < expressions.size(); ++e) {
      const RandomExpression& expression = expressions[e];
      const Array& y = results[e];
      const std::string what = std::string(name(t)) + " seed " + std::to_string(first + e) +
                               " (depth " + std::to_string(expression.depth()) +
                               "): " + expression.text();
      ASSERT_EQ(y.dtype(), t) << what;
      ASSERT_EQ(y.ndim(), 2) << what;
      // Without a or b in it the result is one column wide.
      const std::int64_t width = y.shape()[1];
      std::vector<double> expected, tolerances;
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < width; ++j) {
          const BoundedValue v = expression.evaluate(va[i * cols + j], vb[j * rows + i], vc[i], t);
          expected.push_back(v.value);
          tolerances.push_back(v.error);
        }
      expect_within(y, expected, tolerances, what);
    }
  }
}

TEST_P(RandomExpressions, Float32MatchesTheHostWithinTheErrorBound) {
  check_expressions(DType::Float32);
}

TEST_P(RandomExpressions, Float64MatchesTheHostWithinTheErrorBound) {
  if (!device_has_fp64()) GTEST_SKIP() << GetParam() << " has no float64";
  check_expressions(DType::Float64);
}

SWITCHYARD_ON_EVERY_DEVICE(RandomExpressions);

}  // namespace
}  // namespace switchyard::conformance

// NumPy's everyday functions: isnan/isinf/isfinite, round/trunc, clip, var/std and any/all, on
// every device, against float64 host references, with special values and views as inputs.
#include <algorithm>
#include <cmath>
#include <limits>

#include "conformance/conformance.hpp"

namespace switchyard::conformance {
namespace {

class NumpyFunctions : public OnEveryDevice {};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Random values with NaN, infinities, halfway ties and signed zeros spread through them.
std::vector<double> with_specials(std::int64_t n, DType t, std::uint64_t seed) {
  std::vector<double> v = random_values(n, t, seed, -6, 6);
  static const double specials[] = {kNaN, kInf, -kInf, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0};
  for (std::int64_t i = 0; i < n; i += 3) v[i] = specials[(i / 3) % std::size(specials)];
  return v;
}

std::vector<double> reversed(std::vector<double> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

std::vector<double> map(const std::vector<double>& v, double (*f)(double)) {
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = f(v[i]);
  return out;
}

using Unary = Array (*)(const Array&);

struct FloatCase {
  const char* name;
  Unary fn;
  double (*ref)(double);
  bool gives_bool;
};

const FloatCase kFloatCases[] = {
    {"isnan", isnan, [](double x) { return double(std::isnan(x)); }, true},
    {"isinf", isinf, [](double x) { return double(std::isinf(x)); }, true},
    {"isfinite", isfinite, [](double x) { return double(std::isfinite(x)); }, true},
    // nearbyint rounds half to even in the default rounding mode, as NumPy's round.
    {"round", round, [](double x) { return std::nearbyint(x); }, false},
    {"trunc", trunc, [](double x) { return std::trunc(x); }, false},
};

TEST_P(NumpyFunctions, FloatTestsAndRoundingMatchTheHostOnSpecialValuesAndViews) {
  for (DType t : {DType::Float32, DType::Float64}) {
    if (t == DType::Float64 && !device_has_fp64()) continue;
    for (std::int64_t n : kSizes) {
      const auto v = with_specials(n, t, 11);
      const Array a = host_array(v, {n}, t);
      for (const FloatCase& c : kFloatCases) {
        const std::string what =
            std::string(c.name) + " " + std::string(name(t)) + " n=" + std::to_string(n);
        const Array r = c.fn(a);
        EXPECT_EQ(r.dtype(), c.gives_bool ? DType::Bool : t) << what;
        expect_close(r, map(v, c.ref), false, what);
        expect_close(c.fn(a.slice(0, std::nullopt, std::nullopt, -1)), map(reversed(v), c.ref),
                     false, what + " of a reversed view");
      }
    }
  }
}

TEST_P(NumpyFunctions, RoundBreaksTiesToEven) {
  const std::vector<double> ties = {0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 1e15 + 0.5, 0.49999997};
  const std::vector<double> want = {0, 2, 2, 4, -0, -2, -2, 1e15, 0};
  expect_close(round(host_array(ties, {9}, DType::Float64).astype(DType::Float32)),
               map(map(ties, [](double x) { return double(float(x)); }), std::nearbyint), false,
               "round float32 ties");
  if (device_has_fp64())
    expect_close(round(host_array(ties, {9}, DType::Float64)), want, false, "round float64 ties");
}

// Past 2^26 and at -0.0, where lavapipe's float64 roundEven and trunc went wrong.
TEST_P(NumpyFunctions, RoundAndTruncOfLargeAndSignedZeroFloat64AreExact) {
  if (!device_has_fp64()) GTEST_SKIP() << "no float64 on " << GetParam();
  const std::vector<double> v = {123456789.75,     -123456789.75, 1e15 + 0.5, -4503599627370495.5,
                                 4503599627370497, -0.3,          -0.0,       0.5 - 0x1p-54};
  const Array a = host_array(v, {static_cast<std::int64_t>(v.size())}, DType::Float64);
  const std::vector<double> rounded = round(a).to_vector<double>(),
                            truncated = trunc(a).to_vector<double>();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double r = std::nearbyint(v[i]), t = std::trunc(v[i]);
    EXPECT_TRUE(rounded[i] == r && std::signbit(rounded[i]) == std::signbit(r))
        << "round(" << v[i] << ") is " << rounded[i] << ", expected " << r;
    EXPECT_TRUE(truncated[i] == t && std::signbit(truncated[i]) == std::signbit(t))
        << "trunc(" << v[i] << ") is " << truncated[i] << ", expected " << t;
  }
}

TEST_P(NumpyFunctions, IntegerAndBoolOperandsAreWholeAndFinite) {
  for (DType t : {DType::Bool, DType::Int32, DType::Int64}) {
    const auto v = random_values(1023, t, 5, -1000, 1000);
    const Array a = host_array(v, {1023}, t);
    const std::string what(name(t));
    expect_close(isnan(a), std::vector<double>(v.size(), 0), false, "isnan " + what);
    expect_close(isinf(a), std::vector<double>(v.size(), 0), false, "isinf " + what);
    expect_close(isfinite(a), std::vector<double>(v.size(), 1), false, "isfinite " + what);
    EXPECT_EQ(isnan(a).dtype(), DType::Bool);
    for (Unary f : {Unary(round), Unary(trunc)}) {
      const Array r = f(a);
      EXPECT_EQ(r.dtype(), t) << what;
      expect_close(r, v, false, "rounding " + what);
    }
  }
}

TEST_P(NumpyFunctions, IsnanOfAProductIsOneKernel) {
  const Array a = host_array(random_values(1023, DType::Float32, 1), {1023}, DType::Float32);
  const Array b = host_array(with_specials(1023, DType::Float32, 2), {1023}, DType::Float32);
  const Array r = isnan(a * b);
  const Explanation e = explain([&] { eval(r); });
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  const auto& ops = e.kernels[0].operators;
  EXPECT_NE(std::find(ops.begin(), ops.end(), "mul"), ops.end()) << e.to_string();
  EXPECT_NE(std::find(ops.begin(), ops.end(), "isnan"), ops.end()) << e.to_string();
}

TEST_P(NumpyFunctions, ClipAppliesTheBoundsGivenAndPromotes) {
  for (std::int64_t n : kSizes) {
    const auto v = with_specials(n, DType::Float32, 3);
    const Array a = host_array(v, {n}, DType::Float32);
    std::vector<double> both(v.size()), low(v.size()), high(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double x = v[i];
      low[i] = std::isnan(x) ? x : std::max(x, -1.0);
      high[i] = std::isnan(x) ? x : std::min(x, 2.0);
      both[i] = std::isnan(x) ? x : std::min(std::max(x, -1.0), 2.0);
    }
    const std::string size = " n=" + std::to_string(n);
    const Array clipped = clip(a, -1.0, 2.0);
    EXPECT_EQ(clipped.dtype(), DType::Float32);
    expect_close(clipped, both, false, "clip" + size);
    expect_close(clip(a, -1.0, std::nullopt), low, false, "clip without an upper bound" + size);
    expect_close(clip(a, std::nullopt, 2.0), high, false, "clip without a lower bound" + size);
  }
  // Array bounds broadcast; an int32 array clipped with float bounds becomes float64 (NumPy).
  const auto v = random_values(6 * 5, DType::Int32, 4, -10, 10);
  const Array m = host_array(v, {6, 5}, DType::Int32).transpose();  // (5, 6) view
  const auto lo = random_values(6, DType::Int32, 5, -8, 0),
             hi = random_values(5, DType::Int32, 6, 0, 8);
  const Array r = clip(m, host_array(lo, {6}, DType::Int32), host_array(hi, {5, 1}, DType::Int32));
  EXPECT_EQ(r.dtype(), DType::Int32);
  std::vector<double> want(30);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j) want[i * 6 + j] = std::min(std::max(v[j * 5 + i], lo[j]), hi[i]);
  expect_close(r, want, false, "clip of a transposed int32 view by array bounds");
  EXPECT_EQ(clip(m, 0.5, std::nullopt).dtype(), DType::Float64);
}

// Two-pass float64 variance of the `length` values at(0), ..., at(length - 1).
template <class At>
double host_var(std::int64_t length, double ddof, At at) {
  double mean = 0;
  for (std::int64_t i = 0; i < length; ++i) mean += at(i);
  mean /= static_cast<double>(length);
  double squares = 0;
  for (std::int64_t i = 0; i < length; ++i) squares += (at(i) - mean) * (at(i) - mean);
  return squares / std::max(static_cast<double>(length) - ddof, 0.0);
}

TEST_P(NumpyFunctions, VarianceAndStdMatchATwoPassHostReference) {
  for (DType t : {DType::Float32, DType::Float64, DType::Int32}) {
    if (t != DType::Float32 && !device_has_fp64()) continue;
    const DType result = t == DType::Float32 ? t : DType::Float64;
    for (std::int64_t n : kSizes) {
      if (n == 0) continue;  // covered below: NaN
      // Offset far from zero: a one-pass E[x²] - E[x]² would lose every digit here.
      const auto v = random_values(n, t, 7, 1000, 1010);
      const Array a = host_array(v, {n}, t);
      const std::string what = std::string(name(t)) + " n=" + std::to_string(n);
      for (double ddof : {0.0, 1.0}) {
        const double want = host_var(n, ddof, [&](std::int64_t i) { return v[i]; });
        const Array got = var(a, std::nullopt, false, ddof);
        EXPECT_EQ(got.dtype(), result) << what;
        // Relative: a one-pass E[x²] - E[x]² misses by about eps·E[x²], 10^5 times more here.
        const double tol = 50 * tolerance(result, false) * std::log2(n + 2.0) * std::max(want, 1.0);
        if (std::isfinite(want)) {
          EXPECT_NEAR(got.item<double>(), want, tol) << "var " << what << " ddof " << ddof;
          EXPECT_NEAR(stddev(a, std::nullopt, false, ddof).item<double>(), std::sqrt(want), tol)
              << "std " << what << " ddof " << ddof;
        } else {
          EXPECT_FALSE(std::isfinite(got.item<double>())) << "var " << what << " ddof " << ddof;
        }
      }
    }
  }
}

TEST_P(NumpyFunctions, VarianceAlongAxesOfATransposedView) {
  const DType t = device_has_fp64() ? DType::Float64 : DType::Float32;
  const std::int64_t rows = 7, cols = 33;
  const auto v = random_values(rows * cols, t, 8);
  const Array m = host_array(v, {rows, cols}, t).transpose();  // (cols, rows)
  // m[i, j] = v[j * cols + i]
  std::vector<double> per_row(cols), per_column(rows);
  for (std::int64_t i = 0; i < cols; ++i)
    per_row[i] = host_var(rows, 1, [&](std::int64_t j) { return v[j * cols + i]; });
  for (std::int64_t j = 0; j < rows; ++j)
    per_column[j] = host_var(cols, 1, [&](std::int64_t i) { return v[j * cols + i]; });
  const double tol = 100 * tolerance(t, false) * 16;
  const Array r1 = var(m, 1, false, 1), r0 = var(m, {0}, true, 1);
  EXPECT_EQ(r1.shape(), (Shape{cols}));
  EXPECT_EQ(r0.shape(), (Shape{1, rows}));
  expect_within(r1, per_row, std::vector<double>(cols, tol), "var along axis 1, ddof 1");
  expect_within(r0, per_column, std::vector<double>(rows, tol), "var along axis 0, keepdims");
  const double all = host_var(rows * cols, 0, [&](std::int64_t i) { return v[i]; });
  EXPECT_NEAR(var(m, {0, 1}).item<double>(), all, tol);
  EXPECT_NEAR(stddev(m).item<double>(), std::sqrt(all), tol);
  EXPECT_TRUE(std::isnan(var(Array::zeros({0}, t)).item<double>()));
}

TEST_P(NumpyFunctions, AnyAndAllFoldTruthValues) {
  for (DType t : kAllDTypes) {
    if (t == DType::Float64 && !device_has_fp64()) continue;
    for (std::int64_t n : kSizes) {
      // Mostly zeros, so that both answers occur.
      std::vector<double> v = random_values(n, t, 9, 0, 2);
      for (std::size_t i = 0; i < v.size(); ++i)
        if (i % 5 != 0) v[i] = 0;
      const Array a = host_array(v, {n}, t);
      const bool want_any = std::any_of(v.begin(), v.end(), [](double x) { return x != 0; });
      const bool want_all = std::all_of(v.begin(), v.end(), [](double x) { return x != 0; });
      const std::string what = std::string(name(t)) + " n=" + std::to_string(n);
      EXPECT_EQ(any(a).dtype(), DType::Bool);
      EXPECT_EQ(any(a).item<bool>(), want_any) << "any " << what;
      EXPECT_EQ(all(a).item<bool>(), want_all) << "all " << what;
      EXPECT_EQ(all(logical_not(a)).item<bool>(), !want_any) << "all(not) " << what;
    }
  }
  // NaN is true, as a cast to bool; along an axis of a reversed 2-D view.
  const std::vector<double> v = {0, kNaN, 0, 0, 0, 0, 1, 2, 3};
  const Array m = host_array(v, {3, 3}, DType::Float32).slice(0, std::nullopt, std::nullopt, -1);
  expect_close(any(m, 1), {1, 0, 1}, false, "any along axis 1 of a reversed view");
  expect_close(all(m, {0}, true), {0, 0, 0}, false, "all along axis 0");
  expect_close(all(m, 1), {1, 0, 0}, false, "all along axis 1 of a reversed view");
  EXPECT_EQ(any(Array::zeros({2, 0}), 1).shape(), (Shape{2}));
  expect_close(all(Array::zeros({2, 0}), 1), {1, 1}, false, "all of empty rows");
  expect_close(any(Array::zeros({2, 0}), 1), {0, 0}, false, "any of empty rows");
}

TEST_P(NumpyFunctions, AnyOfAComparisonIsOneKernel) {
  const Array a = host_array(random_values(1023, DType::Float32, 10), {1023}, DType::Float32);
  const Array r = any(a * 2 > 7.5);
  const Explanation e = explain([&] { eval(r); });
  EXPECT_EQ(e.kernels.size(), 1u) << e.to_string();
}

TEST_P(NumpyFunctions, BadArgumentsAreTypedErrors) {
  const Array m = Array::ones({2, 3});
  EXPECT_THROW(isnan(Array()), ValueError);
  EXPECT_THROW(round(Array()), ValueError);
  EXPECT_THROW(clip(Array(), 0, 1), ValueError);
  EXPECT_THROW(clip(m, Array::ones({4}), Array::ones({3})), ShapeError);
  EXPECT_THROW(var(Array()), ValueError);
  EXPECT_THROW(var(m, 2), IndexError);
  EXPECT_THROW(stddev(m, {0, 0}), ValueError);
  EXPECT_THROW(any(m, -3), IndexError);
  EXPECT_THROW(all(Array()), ValueError);
}

TEST_P(NumpyFunctions, StringExpressionsNameTheFunctions) {
  const std::vector<double> v = {0.5, 1.5, -2.5, kNaN, kInf, -3.7};
  const Array x = host_array(v, {6}, DType::Float32);
  expect_close(evaluate("round(x) + trunc(x)", {{"x", x}}), {0, 3, -4, kNaN, kInf, -7}, false,
               "round(x) + trunc(x)");
  expect_close(evaluate("isnan(x) | isinf(x)", {{"x", x}}), {0, 0, 0, 1, 1, 0}, false,
               "isnan(x) | isinf(x)");
  expect_close(evaluate("isfinite(x)", {{"x", x}}), {1, 1, 1, 0, 0, 1}, false, "isfinite(x)");
  EXPECT_TRUE(evaluate("any(isnan(x))", {{"x", x}}).item<bool>());
  EXPECT_FALSE(evaluate("all(isfinite(x))", {{"x", x}}).item<bool>());
  const Array y = host_array({1, 2, 3, 4}, {4}, DType::Float32);
  EXPECT_NEAR(evaluate("var(y)", {{"y", y}}).item<double>(), 1.25, 1e-6);
  EXPECT_NEAR(evaluate("std(y)", {{"y", y}}).item<double>(), std::sqrt(1.25), 1e-6);
}

SWITCHYARD_ON_EVERY_DEVICE(NumpyFunctions);

}  // namespace
}  // namespace switchyard::conformance

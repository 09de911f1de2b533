// String expressions (include/switchyard/expr.hpp): precedence, weak literals, comparisons,
// logical operators, where, reductions, and reuse of one compiled Expression. Every expected
// value is computed here on the host in double, never taken from the library.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard {
namespace {

const std::vector<double> kA = {1.5, -2.0, 3.25, 0.5, -0.75, 4.0, 7.0};
const std::vector<double> kB = {2.0, 0.5, -1.5, 3.0, 2.5, -4.0, 2.0};
const std::vector<double> kC = {0.25, 1.0, -0.5, 2.0, -3.0, 0.75, 5.5};

NamedArrays abc(DType dtype = DType::Float64) {
  return {{"a", Array::from_vector(kA).astype(dtype)},
          {"b", Array::from_vector(kB).astype(dtype)},
          {"c", Array::from_vector(kC).astype(dtype)}};
}

using Elementwise = std::function<double(double, double, double)>;

void expect_elementwise(const std::string& text, const Elementwise& expected) {
  const std::vector<double> got = evaluate(text, abc()).to_vector<double>();
  ASSERT_EQ(got.size(), kA.size()) << text;
  for (std::size_t i = 0; i < kA.size(); ++i)
    EXPECT_NEAR(got[i], expected(kA[i], kB[i], kC[i]), 1e-12) << text << " at element " << i;
}

double python_mod(double x, double y) {
  return x - std::floor(x / y) * y;
}

TEST(Expression, FollowsPythonPrecedence) {
  expect_elementwise("a + b * c", [](double a, double b, double c) { return a + b * c; });
  expect_elementwise("(a + b) * c", [](double a, double b, double c) { return (a + b) * c; });
  expect_elementwise("a - b - c", [](double a, double b, double c) { return (a - b) - c; });
  expect_elementwise("a / b / c", [](double a, double b, double c) { return (a / b) / c; });
  expect_elementwise("a - b * c / a", [](double a, double b, double c) { return a - (b * c) / a; });
  expect_elementwise("-a ** 2", [](double a, double, double) { return -(a * a); });
  expect_elementwise("a ** -1", [](double a, double, double) { return 1 / a; });
  expect_elementwise("b ** 2 ** 2 * c", [](double, double b, double c) {
    return std::pow(b, 4.0) * c;  // right-associative, tighter than *
  });
  expect_elementwise("a // b * c",
                     [](double a, double b, double c) { return std::floor(a / b) * c; });
  expect_elementwise("a % b + c",
                     [](double a, double b, double c) { return python_mod(a, b) + c; });
  expect_elementwise("- - a + +b", [](double a, double b, double) { return a + b; });
  expect_elementwise("a*b + sin(c)*2.5 - sqrt(abs(a))", [](double a, double b, double c) {
    return a * b + std::sin(c) * 2.5 - std::sqrt(std::abs(a));
  });
  expect_elementwise("atan2(a, b) + pow(abs(c), 0.5) - arctan2(b, a)",
                     [](double a, double b, double c) {
                       return std::atan2(a, b) + std::pow(std::abs(c), 0.5) - std::atan2(b, a);
                     });
  expect_elementwise("minimum(a, maximum(b, c)) + floor_divide(a, c) + mod(b, c)",
                     [](double a, double b, double c) {
                       return std::min(a, std::max(b, c)) + std::floor(a / c) + python_mod(b, c);
                     });
  expect_elementwise("exp(-abs(a)) + log(abs(b)) + tanh(c) + cos(a) * tan(b) + sign(c)",
                     [](double a, double b, double c) {
                       return std::exp(-std::abs(a)) + std::log(std::abs(b)) + std::tanh(c) +
                              std::cos(a) * std::tan(b) + (c > 0) - (c < 0);
                     });
  expect_elementwise("floor(a) * ceil(b) - negative(c)",
                     [](double a, double b, double c) { return std::floor(a) * std::ceil(b) + c; });
}

TEST(Expression, LiteralsAreWeakSoFloat32StaysFloat32) {
  const NamedArrays f32 = abc(DType::Float32);
  for (const char* text : {"a * 2.5 + 1", "a * (2 * 3)", "sqrt(2) * a", "-1e-3 + a", "a > 0.5"})
    EXPECT_NE(evaluate(text, f32).dtype(), DType::Float64) << text;
  EXPECT_EQ(evaluate("a * 2.5 + 1", f32).dtype(), DType::Float32);
  const std::vector<float> got = evaluate("a * (2 * 3) - 0.5", f32).to_vector<float>();
  for (std::size_t i = 0; i < kA.size(); ++i)
    EXPECT_FLOAT_EQ(got[i], static_cast<float>(kA[i]) * 6.0f - 0.5f);

  const NamedArrays i32 = {{"i", Array::from_vector(std::vector<std::int32_t>{1, -2, 7})}};
  EXPECT_EQ(evaluate("i + 1", i32).dtype(), DType::Int32);
  EXPECT_EQ(evaluate("i * 2.5", i32).dtype(), DType::Float64);  // NumPy 2: int32 * float
  EXPECT_EQ(evaluate("i * 2 + 1", i32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{3, -3, 15}));
}

TEST(Expression, LiteralsOnlyFoldAsNumPyScalarsAndGiveZeroDArrays) {
  const Array six = evaluate("2*3", {});
  EXPECT_EQ(six.ndim(), 0);
  EXPECT_EQ(six.dtype(), DType::Int64);
  EXPECT_EQ(six.item<std::int64_t>(), 6);
  EXPECT_EQ(evaluate("7 / 2", {}).dtype(), DType::Float64);
  EXPECT_EQ(evaluate("7 / 2", {}).item<double>(), 3.5);
  EXPECT_EQ(evaluate("-7 // 2", {}).item<std::int64_t>(), -4);
  EXPECT_EQ(evaluate("-7 % 3", {}).item<std::int64_t>(), 2);
  EXPECT_EQ(evaluate("2 ** 3 ** 2", {}).item<std::int64_t>(), 512);
  EXPECT_EQ(evaluate("-2 ** 2", {}).item<std::int64_t>(), -4);
  EXPECT_EQ(evaluate("true", {}).dtype(), DType::Bool);
  EXPECT_FALSE(evaluate("not true or false", {}).item<bool>());
  EXPECT_EQ(evaluate("9007199254740993", {}).item<std::int64_t>(), 9007199254740993);
  EXPECT_EQ(evaluate("where(1 < 2, 10, 2.5)", {}).item<double>(), 10.0);
}

TEST(Expression, ComparisonsGiveBool) {
  const std::vector<std::pair<const char*, std::function<bool(double, double)>>> cases = {
      {"a < b", [](double a, double b) { return a < b; }},
      {"a <= b", [](double a, double b) { return a <= b; }},
      {"a > b", [](double a, double b) { return a > b; }},
      {"a >= b", [](double a, double b) { return a >= b; }},
      {"a == b / 2 * 2", [](double a, double b) { return a == b / 2 * 2; }},
      {"a != 0.5", [](double a, double) { return a != 0.5; }},
      {"a + 1 > b * 2", [](double a, double b) { return a + 1 > b * 2; }}};
  for (const auto& [text, expected] : cases) {
    const Array got = evaluate(text, abc());
    EXPECT_EQ(got.dtype(), DType::Bool) << text;
    const std::vector<bool> values = got.to_vector<bool>();
    for (std::size_t i = 0; i < kA.size(); ++i)
      EXPECT_EQ(values[i], expected(kA[i], kB[i])) << text << " at element " << i;
  }
}

TEST(Expression, LogicalOperatorsOnBool) {
  const std::vector<std::pair<const char*, std::function<bool(double, double)>>> cases = {
      {"(a > 0) & (b > 0)", [](double a, double b) { return a > 0 && b > 0; }},
      {"(a > 0) | (b > 0)", [](double a, double b) { return a > 0 || b > 0; }},
      {"(a > 0) ^ (b > 0)", [](double a, double b) { return (a > 0) != (b > 0); }},
      {"~(a > 0)", [](double a, double) { return !(a > 0); }},
      {"!(a > 0) & true", [](double a, double) { return !(a > 0); }},
      {"a > 0 and not b > 0", [](double a, double b) { return a > 0 && !(b > 0); }},
      {"a > 0 or b > 0 and a < b", [](double a, double b) { return a > 0 || (b > 0 && a < b); }},
      {"logical_xor(a, b > 1)", [](double a, double b) { return (a != 0) != (b > 1); }}};
  for (const auto& [text, expected] : cases) {
    const std::vector<bool> values = evaluate(text, abc()).to_vector<bool>();
    for (std::size_t i = 0; i < kA.size(); ++i)
      EXPECT_EQ(values[i], expected(kA[i], kB[i])) << text << " at element " << i;
  }
}

TEST(Expression, ArrayApiMathFunctionsUnderBothNames) {
  expect_elementwise("arctan(a) + atan(b) + sinh(c) - cosh(c) + arcsinh(a) + asinh(b)",
                     [](double a, double b, double c) {
                       return std::atan(a) + std::atan(b) + std::sinh(c) - std::cosh(c) +
                              std::asinh(a) + std::asinh(b);
                     });
  expect_elementwise("arcsin(c / 8) + acos(c / 8) + atanh(c / 8) + arctanh(a / 8)",
                     [](double a, double, double c) {
                       return std::asin(c / 8) + std::acos(c / 8) + std::atanh(c / 8) +
                              std::atanh(a / 8);
                     });
  expect_elementwise("acosh(abs(a) + 1) + arccosh(abs(b) + 1) + expm1(c) + log1p(abs(a))",
                     [](double a, double b, double c) {
                       return std::acosh(std::abs(a) + 1) + std::acosh(std::abs(b) + 1) +
                              std::expm1(c) + std::log1p(std::abs(a));
                     });
  expect_elementwise("log2(abs(a)) + log10(abs(b)) + hypot(a, b) + copysign(a, c)",
                     [](double a, double b, double c) {
                       return std::log2(std::abs(a)) + std::log10(std::abs(b)) + std::hypot(a, b) +
                              std::copysign(a, c);
                     });
  expect_elementwise("logaddexp(a, b) + where(signbit(c), 1, 0)", [](double a, double b, double c) {
    return std::max(a, b) + std::log1p(std::exp(-std::abs(a - b))) + (c < 0);
  });
}

TEST(Expression, BitwiseFunctionsOnIntegers) {
  const NamedArrays ints = {{"i", Array::from_vector(std::vector<std::int64_t>{5, -8, 12})},
                            {"j", Array::from_vector(std::vector<std::int64_t>{3, 1, 70})}};
  using I = std::vector<std::int64_t>;
  EXPECT_EQ(evaluate("bitwise_and(i, j)", ints).to_vector<std::int64_t>(), (I{1, 0, 4}));
  EXPECT_EQ(evaluate("bitwise_or(i, 1)", ints).to_vector<std::int64_t>(), (I{5, -7, 13}));
  EXPECT_EQ(evaluate("bitwise_xor(i, j)", ints).to_vector<std::int64_t>(), (I{6, -7, 74}));
  EXPECT_EQ(evaluate("bitwise_invert(i)", ints).to_vector<std::int64_t>(), (I{-6, 7, -13}));
  EXPECT_EQ(evaluate("left_shift(i, j)", ints).to_vector<std::int64_t>(), (I{40, -16, 0}));
  EXPECT_EQ(evaluate("bitwise_right_shift(i, j)", ints).to_vector<std::int64_t>(), (I{0, -4, 0}));
  EXPECT_THROW(evaluate("right_shift(i, 1.5)", ints), DTypeError);
}

TEST(Expression, WhereKeepsAWeakBranchInTheOtherBranchsDtype) {
  expect_elementwise("where(a > b, a, b)",
                     [](double a, double b, double) { return std::max(a, b); });
  const Array relu = evaluate("where(a > 0, a, 0)", abc(DType::Float32));
  EXPECT_EQ(relu.dtype(), DType::Float32);
  const std::vector<float> got = relu.to_vector<float>();
  for (std::size_t i = 0; i < kA.size(); ++i)
    EXPECT_EQ(got[i], kA[i] > 0 ? static_cast<float>(kA[i]) : 0.0f);
  EXPECT_EQ(evaluate("where(a > 0, 1, 2.5)", abc(DType::Float32)).dtype(), DType::Float64);
}

TEST(Expression, ReductionsOverEverythingOrOneAxis) {
  const int rows = 3, cols = 4;
  std::vector<double> m(rows * cols);
  for (int i = 0; i < rows * cols; ++i) m[i] = std::sin(1.0 + i) * 10;
  const NamedArrays in = {{"m", Array::from_vector(m, {rows, cols})}};
  auto at = [&](int r, int c) { return m[r * cols + c]; };

  for (const char* text : {"sum(m, 0)", "sum(m, -2)"}) {
    const std::vector<double> got = evaluate(text, in).to_vector<double>();
    ASSERT_EQ(got.size(), static_cast<std::size_t>(cols)) << text;
    for (int c = 0; c < cols; ++c) {
      double expected = 0;
      for (int r = 0; r < rows; ++r) expected += at(r, c);
      EXPECT_NEAR(got[c], expected, 1e-12) << text;
    }
  }
  const std::vector<double> means = evaluate("mean(m * 2, -1)", in).to_vector<double>();
  const std::vector<std::int64_t> argmins = evaluate("argmin(m, 1)", in).to_vector<std::int64_t>();
  const std::vector<double> maxes = evaluate("max(m, 1)", in).to_vector<double>();
  ASSERT_EQ(means.size(), static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    double total = 0, lowest = at(r, 0), highest = at(r, 0);
    std::int64_t lowest_at = 0;
    for (int c = 0; c < cols; ++c) {
      total += 2 * at(r, c);
      if (at(r, c) < lowest) lowest = at(r, c), lowest_at = c;
      highest = std::max(highest, at(r, c));
    }
    EXPECT_NEAR(means[r], total / cols, 1e-12);
    EXPECT_EQ(argmins[r], lowest_at);
    EXPECT_EQ(maxes[r], highest);
  }
  double product = 1, lowest = m[0];
  std::int64_t highest_at = 0;
  for (int i = 0; i < rows * cols; ++i) {
    product *= m[i];
    lowest = std::min(lowest, m[i]);
    if (m[i] > m[highest_at]) highest_at = i;
  }
  EXPECT_NEAR(evaluate("prod(m)", in).item<double>(), product, std::abs(product) * 1e-12);
  EXPECT_EQ(evaluate("min(m)", in).item<double>(), lowest);
  EXPECT_EQ(evaluate("argmax(m)", in).item<std::int64_t>(), highest_at);
  EXPECT_EQ(evaluate("sum(m)", in).ndim(), 0);
}

TEST(Expression, CompiledOnceRunsOverDifferentSizesAndDtypes) {
  const Expression e = compile("sum(x * y) + 1");
  for (const std::int64_t n : {0, 1, 7, 1000}) {
    std::vector<double> x(n), y(n);
    double expected = 1;
    for (std::int64_t i = 0; i < n; ++i) {
      x[i] = 0.5 * i;
      y[i] = 3 - i % 5;
      expected += x[i] * y[i];
    }
    const Array got = e({{"x", Array::from_vector(x)}, {"y", Array::from_vector(y)}});
    EXPECT_NEAR(got.item<double>(), expected, 1e-9 * std::max(1.0, std::abs(expected))) << n;
  }
  const Array f32 = e({{"x", Array::ones({3}, DType::Float32)}, {"y", Array::ones({3})}});
  EXPECT_EQ(f32.dtype(), DType::Float32);
  EXPECT_EQ(f32.item<double>(), 4.0);
}

TEST(Expression, VariablesInOrderOfFirstAppearance) {
  const Expression e = compile("b*a + sin(b) + a_2 - _x * X1 + sum(a_2, 0)");
  EXPECT_EQ(e.variables(), (std::vector<std::string>{"b", "a", "a_2", "_x", "X1"}));
  EXPECT_EQ(e.text(), "b*a + sin(b) + a_2 - _x * X1 + sum(a_2, 0)");
  EXPECT_TRUE(compile("2 * 3 + sqrt(2)").variables().empty());
}

TEST(Expression, ExtraArraysAreIgnored) {
  NamedArrays in = abc();
  in["unused"] = Array::ones({2});
  const std::vector<double> got = evaluate("a + b", in).to_vector<double>();
  ASSERT_EQ(got.size(), kA.size());
  for (std::size_t i = 0; i < kA.size(); ++i) EXPECT_EQ(got[i], kA[i] + kB[i]);
}

TEST(Expression, InputsAreOnlyRead) {
  const NamedArrays in = abc(DType::Float32);
  const Array a_view = in.at("a").slice(0, 1, std::nullopt, 2);
  const NamedArrays with_view = {{"a", a_view}, {"b", in.at("b").slice(0, 0, 3)}};
  (void)evaluate("a * b + sum(a) - where(a > b, a, b)", with_view);
  (void)evaluate("-a * 2 + b", in);
  EXPECT_EQ(in.at("a").to_vector<double>(), kA);
  EXPECT_EQ(in.at("b").to_vector<double>(), kB);
  EXPECT_EQ(a_view.shape(), Shape({3}));
  EXPECT_EQ(a_view.to_vector<double>(), (std::vector<double>{kA[1], kA[3], kA[5]}));
}

}  // namespace
}  // namespace switchyard

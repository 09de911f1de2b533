// Every elementwise operation, on every dtype and dtype pair, at every size, on every device.
#include <functional>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

namespace switchyard::conformance {
namespace {

using BinaryFn = Array (*)(const Array&, const Array&);
enum class Result { Promoted, TrueDivision, Floating, Bool };

struct BinaryCase {
  const char* name;
  BinaryFn fn;
  Result result;
  bool bool_ok;  // whether bool operands are accepted
  bool transcendental;
  std::function<double(double, double, bool integer)> ref;
};

const std::vector<BinaryCase>& binary_cases() {
  static const std::vector<BinaryCase> cases = {
      {"add", add, Result::Promoted, true, false, [](double a, double b, bool) { return a + b; }},
      {"subtract", subtract, Result::Promoted, false, false,
       [](double a, double b, bool) { return a - b; }},
      {"multiply", multiply, Result::Promoted, true, false,
       [](double a, double b, bool) { return a * b; }},
      {"divide", divide, Result::TrueDivision, true, false,
       [](double a, double b, bool) { return a / b; }},
      {"floor_divide", floor_divide, Result::Promoted, false, false, floor_div},
      {"mod", mod, Result::Promoted, false, false, python_mod},
      {"power", power, Result::Promoted, false, true,
       [](double a, double b, bool integer) {
         return integer ? integer_pow(a, b) : std::pow(a, b);
       }},
      {"minimum", minimum, Result::Promoted, true, false,
       [](double a, double b, bool) { return nan_min(a, b); }},
      {"maximum", maximum, Result::Promoted, true, false,
       [](double a, double b, bool) { return nan_max(a, b); }},
      {"arctan2", arctan2, Result::Floating, true, true,
       [](double a, double b, bool) { return std::atan2(a, b); }},
      {"hypot", hypot, Result::Floating, true, true,
       [](double a, double b, bool) { return std::hypot(a, b); }},
      {"copysign", copysign, Result::Floating, true, false,
       [](double a, double b, bool) { return std::copysign(a, b); }},
      {"logaddexp", logaddexp, Result::Floating, true, true,
       [](double a, double b, bool) { return logaddexp_reference(a, b); }},
      {"equal", equal, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a == b); }},
      {"not_equal", not_equal, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a != b); }},
      {"less", less, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a < b); }},
      {"less_equal", less_equal, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a <= b); }},
      {"greater", greater, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a > b); }},
      {"greater_equal", greater_equal, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a >= b); }},
      {"logical_and", logical_and, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a != 0 && b != 0); }},
      {"logical_or", logical_or, Result::Bool, true, false,
       [](double a, double b, bool) { return double(a != 0 || b != 0); }},
      {"logical_xor", logical_xor, Result::Bool, true, false,
       [](double a, double b, bool) { return double((a != 0) != (b != 0)); }},
  };
  return cases;
}

DType expected_result(Result r, DType promoted) {
  switch (r) {
    case Result::Promoted:
      return promoted;
    case Result::TrueDivision:
      return is_floating(promoted) ? promoted : DType::Float64;
    case Result::Floating:
      return is_floating(promoted)     ? promoted
             : promoted == DType::Bool ? DType::Float32
                                       : DType::Float64;
    case Result::Bool:
      return DType::Bool;
  }
  return promoted;
}

class Elementwise : public OnEveryDevice {};

void check_binary(const BinaryCase& c, DType ta, DType tb, std::int64_t n, bool fp64) {
  const DType promoted = numpy_promotion(ta, tb);
  const DType result = expected_result(c.result, promoted);
  const bool integer = is_integer(promoted);
  const std::string what = std::string(c.name) + "(" + std::string(name(ta)) + ", " +
                           std::string(name(tb)) + ") n=" + std::to_string(n);
  // power on floats: positive bases keep the reference free of NaN from fractional exponents.
  // power on integers: exponents >= 0, as a negative one is a ValueError (NumPy 2; see
  // integer_test.cpp).
  const bool pow_float = std::string(c.name) == "power" && !integer;
  const bool pow_int = std::string(c.name) == "power" && integer;
  const auto va = random_values(n, ta, 11 + n, pow_float ? 0.1 : -4, 4);
  const auto vb =
      random_values(n, tb, 29 + n, pow_float ? -2 : (pow_int ? 0 : -4), pow_float ? 2 : 4);
  const Array a = host_array(va, {n}, ta), b = host_array(vb, {n}, tb);
  if (!c.bool_ok && promoted == DType::Bool) {
    EXPECT_THROW(c.fn(a, b), DTypeError) << what;
    return;
  }
  if (!fp64 && result == DType::Float64) return;  // devices without fp64 reject it (tested apart)
  const Array out = c.fn(a, b);
  ASSERT_EQ(out.dtype(), result) << what;
  ASSERT_EQ(out.shape(), Shape{n}) << what;
  std::vector<double> expected(va.size());
  for (std::size_t i = 0; i < va.size(); ++i) {
    // Operands are converted to the computing dtype first, as NumPy does.
    const DType compute = c.result == Result::Bool ? promoted : result;
    const double x = as_dtype(va[i], compute), y = as_dtype(vb[i], compute);
    expected[i] = as_dtype(c.ref(x, y, integer), result);
  }
  expect_close(out, expected, c.transcendental, what);
}

TEST_P(Elementwise, BinaryOpsOnEveryDType) {
  for (const auto& c : binary_cases())
    for (DType t : kAllDTypes)
      for (std::int64_t n : kSmallSizes) check_binary(c, t, t, n, device_has_fp64());
}

// Every dtype pair, for one op of each kind (arithmetic, true division, the ops with helper
// functions, comparison). Each pair is a distinct kernel, and compiling ~475 kernels for all ops
// would dominate the suite on compiled backends.
TEST_P(Elementwise, PromotionOnEveryDTypePair) {
  for (const auto& c : binary_cases()) {
    const std::string op = c.name;
    if (op != "add" && op != "divide" && op != "mod" && op != "power" && op != "less") continue;
    for (DType ta : kAllDTypes)
      for (DType tb : kAllDTypes)
        if (ta != tb)
          for (std::int64_t n : kSmallSizes) check_binary(c, ta, tb, n, device_has_fp64());
  }
}

TEST_P(Elementwise, BinaryOpsAtLargeSize) {
  const std::int64_t n = kSizes.back();
  for (const char* op : {"add", "multiply", "divide", "maximum", "less"})
    for (const auto& c : binary_cases())
      if (std::string(c.name) == op) {
        check_binary(c, DType::Float32, DType::Float32, n, device_has_fp64());
        check_binary(c, DType::Int32, DType::Float32, n, device_has_fp64());
      }
}

struct UnaryCase {
  const char* name;
  Array (*fn)(const Array&);
  Result result;  // Promoted: keeps dtype; Floating: floating_result; Bool: bool
  bool bool_ok;
  bool transcendental;
  double (*ref)(double);
};

const std::vector<UnaryCase>& unary_cases() {
  static const std::vector<UnaryCase> cases = {
      {"negative", negative, Result::Promoted, false, false, [](double x) { return -x; }},
      {"abs", abs, Result::Promoted, true, false, [](double x) { return std::abs(x); }},
      {"sign", sign, Result::Promoted, false, false,
       [](double x) { return std::isnan(x) ? x : double((x > 0) - (x < 0)); }},
      {"logical_not", logical_not, Result::Bool, true, false,
       [](double x) { return double(x == 0); }},
      {"exp", exp, Result::Floating, true, true, [](double x) { return std::exp(x); }},
      {"log", log, Result::Floating, true, true, [](double x) { return std::log(x); }},
      {"sqrt", sqrt, Result::Floating, true, false, [](double x) { return std::sqrt(x); }},
      {"sin", sin, Result::Floating, true, true, [](double x) { return std::sin(x); }},
      {"cos", cos, Result::Floating, true, true, [](double x) { return std::cos(x); }},
      {"tan", tan, Result::Floating, true, true, [](double x) { return std::tan(x); }},
      {"tanh", tanh, Result::Floating, true, true, [](double x) { return std::tanh(x); }},
      {"arcsin", arcsin, Result::Floating, true, true, [](double x) { return std::asin(x); }},
      {"arccos", arccos, Result::Floating, true, true, [](double x) { return std::acos(x); }},
      {"arctan", arctan, Result::Floating, true, true, [](double x) { return std::atan(x); }},
      {"sinh", sinh, Result::Floating, true, true, [](double x) { return std::sinh(x); }},
      {"cosh", cosh, Result::Floating, true, true, [](double x) { return std::cosh(x); }},
      {"arcsinh", arcsinh, Result::Floating, true, true, [](double x) { return std::asinh(x); }},
      {"arccosh", arccosh, Result::Floating, true, true, [](double x) { return std::acosh(x); }},
      {"arctanh", arctanh, Result::Floating, true, true, [](double x) { return std::atanh(x); }},
      {"expm1", expm1, Result::Floating, true, true, [](double x) { return std::expm1(x); }},
      {"log1p", log1p, Result::Floating, true, true, [](double x) { return std::log1p(x); }},
      {"log2", log2, Result::Floating, true, true, [](double x) { return std::log2(x); }},
      {"log10", log10, Result::Floating, true, true, [](double x) { return std::log10(x); }},
      // NumPy 2: integers and bools keep their dtype.
      {"floor", floor, Result::Promoted, true, false, [](double x) { return std::floor(x); }},
      {"ceil", ceil, Result::Promoted, true, false, [](double x) { return std::ceil(x); }},
  };
  return cases;
}

void check_unary(const UnaryCase& c, DType t, std::int64_t n, bool fp64) {
  const std::string what =
      std::string(c.name) + "(" + std::string(name(t)) + ") n=" + std::to_string(n);
  const auto v = random_values(n, t, 7 + n);
  const Array a = host_array(v, {n}, t);
  if (!c.bool_ok && t == DType::Bool) {
    EXPECT_THROW(c.fn(a), DTypeError) << what;
    return;
  }
  const DType result = c.result == Result::Bool       ? DType::Bool
                       : c.result == Result::Floating ? floating_result(t)
                                                      : t;
  if (!fp64 && result == DType::Float64) return;
  const Array out = c.fn(a);
  ASSERT_EQ(out.dtype(), result) << what;
  std::vector<double> expected(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    expected[i] = as_dtype(c.ref(as_dtype(v[i], result == DType::Bool ? t : result)), result);
  expect_close(out, expected, c.transcendental, what);
}

TEST_P(Elementwise, UnaryOpsOnEveryDType) {
  for (const auto& c : unary_cases())
    for (DType t : kAllDTypes)
      for (std::int64_t n : kSmallSizes) check_unary(c, t, n, device_has_fp64());
}

TEST_P(Elementwise, UnaryOpsAtLargeSize) {
  for (const auto& c : unary_cases())
    if (std::string(c.name) == "sin" || std::string(c.name) == "exp" ||
        std::string(c.name) == "sqrt")
      check_unary(c, DType::Float32, kSizes.back(), device_has_fp64());
}

TEST_P(Elementwise, CastsBetweenEveryDTypePair) {
  // Includes the values where conversions differ between naive implementations.
  std::vector<double> v = {0, 1, -1, 2.5, -2.5, 1e10, -1e10, 3e9, NAN, INFINITY, -INFINITY, 0.4};
  for (DType from : {DType::Float32, DType::Float64}) {
    if (!device_has_fp64() && from == DType::Float64) continue;
    for (DType to : kAllDTypes) {
      if (!device_has_fp64() && to == DType::Float64) continue;
      std::vector<double> in(v.size()), expected(v.size());
      for (std::size_t i = 0; i < v.size(); ++i) {
        in[i] = as_dtype(v[i], from);
        expected[i] = as_dtype(in[i], to);
      }
      expect_close(host_array(in, {static_cast<std::int64_t>(in.size())}, from).astype(to),
                   expected, false, std::string(name(from)) + "->" + std::string(name(to)));
    }
  }
  for (DType from : {DType::Bool, DType::Int32, DType::Int64})
    for (DType to : kAllDTypes) {
      if (!device_has_fp64() && to == DType::Float64) continue;
      const auto values = random_values(1023, from, 5);
      std::vector<double> expected(values.size());
      for (std::size_t i = 0; i < values.size(); ++i) expected[i] = as_dtype(values[i], to);
      expect_close(host_array(values, {1023}, from).astype(to), expected, false,
                   std::string(name(from)) + "->" + std::string(name(to)));
    }
}

TEST_P(Elementwise, WhereSelectsAndPromotes) {
  for (std::int64_t n : kSizes) {
    const auto vc = random_values(n, DType::Bool, 1), va = random_values(n, DType::Int32, 2),
               vb = random_values(n, DType::Float32, 3);
    const Array out = where(host_array(vc, {n}, DType::Bool), host_array(va, {n}, DType::Int32),
                            host_array(vb, {n}, DType::Float32).astype(DType::Float32));
    if (!device_has_fp64()) continue;
    ASSERT_EQ(out.dtype(), DType::Float64);
    std::vector<double> expected(vc.size());
    for (std::size_t i = 0; i < vc.size(); ++i) expected[i] = vc[i] != 0 ? va[i] : vb[i];
    expect_close(out, expected, false, "where n=" + std::to_string(n));
  }
}

TEST_P(Elementwise, ScalarsAreWeakInPromotion) {
  const auto v = random_values(100, DType::Float32, 9);
  const Array f32 = host_array(v, {100}, DType::Float32);
  const Array i32 = host_array(random_values(100, DType::Int32, 10), {100}, DType::Int32);
  EXPECT_EQ((f32 * 2.5).dtype(), DType::Float32);
  EXPECT_EQ((f32 + 1).dtype(), DType::Float32);
  EXPECT_EQ((i32 + 1).dtype(), DType::Int32);
  EXPECT_EQ(add(less(f32, 0.0), 1).dtype(), DType::Int64);
  std::vector<double> expected(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    expected[i] = as_dtype(10.0 - v[i] * 2.5, DType::Float32);
  expect_close(10.0 - f32 * 2.5, expected, false, "10 - a * 2.5");
  if (!device_has_fp64()) return;
  EXPECT_EQ((i32 * 2.5).dtype(), DType::Float64);
  const auto iv = i32.to_vector<double>();
  for (std::size_t i = 0; i < iv.size(); ++i) expected[i] = iv[i] / 4.0;
  expect_close(i32 / 4, expected, false, "int32 / 4");
}

TEST_P(Elementwise, NaNPropagatesThroughMinimumAndMaximum) {
  const std::vector<double> a = {NAN, 1, 2, NAN}, b = {0, NAN, 3, NAN};
  const Array x = host_array(a, {4}, DType::Float32), y = host_array(b, {4}, DType::Float32);
  expect_close(minimum(x, y), {NAN, NAN, 2, NAN}, false, "minimum with NaN");
  expect_close(maximum(x, y), {NAN, NAN, 3, NAN}, false, "maximum with NaN");
}

TEST_P(Elementwise, IntegerDivisionByZeroAndOverflowDoNotTrap) {
  const std::vector<double> a = {7, -7, -2147483648.0, 5}, b = {0, 0, -1, -2};
  const Array x = host_array(a, {4}, DType::Int32), y = host_array(b, {4}, DType::Int32);
  expect_close(floor_divide(x, y), {0, 0, -2147483648.0, -3}, false, "int32 // with 0 and -1");
  expect_close(mod(x, y), {0, 0, 0, -1}, false, "int32 % with 0 and -1");
}

SWITCHYARD_ON_EVERY_DEVICE(Elementwise);

}  // namespace
}  // namespace switchyard::conformance

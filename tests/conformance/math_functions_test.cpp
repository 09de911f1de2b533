// The array API's float functions at their edges, on every device: signed zeros, infinities,
// NaN, the ends of each domain (acosh(1), atanh(±1), log1p(-1)), tiny arguments where the naive
// formulas lose every digit (expm1, log1p), large ones where sinh and cosh are finite only just,
// and signbit of negative zero and negative NaN. References are the C++ standard library's in
// long double; results are compared relatively (a zero must be the zero of the right sign), so
// an absolute tolerance cannot hide a lost small value.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

namespace switchyard::conformance {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct UnaryFunction {
  const char* name;
  Array (*fn)(const Array&);
  long double (*ref)(long double);
};

// clang-format off
const UnaryFunction kUnary[] = {
    {"sin",     sin,     [](long double x) { return std::sin(x); }},
    {"cos",     cos,     [](long double x) { return std::cos(x); }},
    {"tan",     tan,     [](long double x) { return std::tan(x); }},
    {"tanh",    tanh,    [](long double x) { return std::tanh(x); }},
    {"exp",     exp,     [](long double x) { return std::exp(x); }},
    {"log",     log,     [](long double x) { return std::log(x); }},
    {"sqrt",    sqrt,    [](long double x) { return std::sqrt(x); }},
    {"arcsin",  arcsin,  [](long double x) { return std::asin(x); }},
    {"arccos",  arccos,  [](long double x) { return std::acos(x); }},
    {"arctan",  arctan,  [](long double x) { return std::atan(x); }},
    {"sinh",    sinh,    [](long double x) { return std::sinh(x); }},
    {"cosh",    cosh,    [](long double x) { return std::cosh(x); }},
    {"arcsinh", arcsinh, [](long double x) { return std::asinh(x); }},
    {"arccosh", arccosh, [](long double x) { return std::acosh(x); }},
    {"arctanh", arctanh, [](long double x) { return std::atanh(x); }},
    {"expm1",   expm1,   [](long double x) { return std::expm1(x); }},
    {"log1p",   log1p,   [](long double x) { return std::log1p(x); }},
    {"log2",    log2,    [](long double x) { return std::log2(x); }},
    {"log10",   log10,   [](long double x) { return std::log10(x); }},
};
// clang-format on

// Every function sees every value: each is some function's edge. 88.7 and 89 have finite sinh
// and cosh in float32 (its limit is 89.4), 709.5 and 710 in float64 (710.47); 1e20 and 3e38
// are beyond the range where some vector libraries' asinh, acosh and log1p stay finite.
const std::vector<double> kEdges = {
    0.0,  -0.0,  1.0,  -1.0,  0.5,   -0.5, 1e-10, -1e-10, 3e-8, -3e-8,  1e-30, -1e-30, 2.0,
    -2.0, 8.0,   1000, 10.0,  30.0,  88.7, 89.0,  -89.0,  89.5, 709.5,  710.0, -710.,  711.0,
    1e20, -1e20, 3e38, -3e38, 1e300, kInf, -kInf, kNaN,   1.5,  -0.999, 0.999, -1e-300};

// Compares with the reference relatively: ±0 exactly with its sign, infinities exactly, NaN
// with NaN, and finite values within the transcendental tolerance of their own magnitude.
void expect_edges(const Array& got_array, const std::vector<double>& expected,
                  const std::vector<double>& inputs, const std::string& what) {
  const double tol = tolerance(got_array.dtype(), true);
  const std::vector<double> got = got_array.to_vector<double>();
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = expected[i], g = got[i];
    const bool ok = std::isnan(e)   ? std::isnan(g)
                    : e == 0        ? g == 0 && std::signbit(g) == std::signbit(e)
                    : std::isinf(e) ? g == e
                                    : std::abs(g - e) <= tol * std::abs(e);
    EXPECT_TRUE(ok) << what << " of " << inputs[i] << " is " << g << ", expected " << e;
  }
}

class MathFunctions : public OnEveryDevice {
 protected:
  std::vector<DType> float_dtypes() const {
    if (device_has_fp64()) return {DType::Float32, DType::Float64};
    return {DType::Float32};
  }
};

TEST_P(MathFunctions, UnaryFunctionsAtTheirEdges) {
  for (const DType t : float_dtypes()) {
    std::vector<double> in(kEdges.size());
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = as_dtype(kEdges[i], t);
    const Array x = host_array(in, {static_cast<std::int64_t>(in.size())}, t);
    for (const UnaryFunction& f : kUnary) {
      std::vector<double> expected(in.size());
      for (std::size_t i = 0; i < in.size(); ++i)
        expected[i] = as_dtype(static_cast<double>(f.ref(in[i])), t);
      const Array r = f.fn(x);
      ASSERT_EQ(r.dtype(), t) << f.name;
      expect_edges(r, expected, in, std::string(f.name) + " " + std::string(name(t)));
    }
  }
}

// The values where a function is exact or meets its domain's end.
TEST_P(MathFunctions, DomainEndsGiveCsSpecialValues) {
  const Array one = Array::full({3}, 1.0, DType::Float32);
  const Array minus_one = Array::full({3}, -1.0, DType::Float32);
  const auto first = [](const Array& a) { return a.to_vector<double>()[0]; };
  EXPECT_EQ(first(arccosh(one)), 0.0);
  EXPECT_EQ(first(arctanh(one)), kInf);
  EXPECT_EQ(first(arctanh(minus_one)), -kInf);
  EXPECT_EQ(first(log1p(minus_one)), -kInf);
  EXPECT_TRUE(std::isnan(first(log1p(minus_one * 2))));
  EXPECT_TRUE(std::isnan(first(arccosh(one * 0.5))));
  EXPECT_TRUE(std::isnan(first(arcsin(one * 1.5))));
  EXPECT_EQ(first(arccos(one)), 0.0);
  EXPECT_EQ(first(log2(one * 8)), 3.0);
  EXPECT_EQ(first(log2(one * 0)), -kInf);
  EXPECT_EQ(first(expm1(one * -kInf)), -1.0);
}

// Integers and bools promote as they do for sin: bool to float32, integers to float64.
TEST_P(MathFunctions, IntegersAndBoolsPromoteAsForSin) {
  const Array i = Array::from_vector(std::vector<std::int32_t>{0, 1, 3});
  const Array b = host_array({0, 1, 1}, {3}, DType::Bool);
  EXPECT_EQ(expm1(b).dtype(), DType::Float32);
  EXPECT_EQ(signbit(b).to_vector<bool>(), (std::vector<bool>{false, false, false}));
  if (!device_has_fp64()) return;
  EXPECT_EQ(log2(i).dtype(), DType::Float64);
  expect_close(log1p(i), {0, std::log1p(1.0), std::log1p(3.0)}, true, "log1p(int32)");
  EXPECT_EQ(hypot(i, i).dtype(), DType::Float64);
  EXPECT_EQ(signbit(Array::from_vector(std::vector<std::int64_t>{-5, 0, 7})).to_vector<bool>(),
            (std::vector<bool>{true, false, false}));
}

TEST_P(MathFunctions, SignBitMatchesStdSignbit) {
  const double negative_nan = -std::numeric_limits<double>::quiet_NaN();
  ASSERT_TRUE(std::signbit(negative_nan));
  const std::vector<double> v = {0.0, -0.0, 1.0, -1.0, kInf, -kInf, kNaN, negative_nan, -1e-30};
  for (const DType t : float_dtypes()) {
    const Array r = signbit(host_array(v, {static_cast<std::int64_t>(v.size())}, t));
    ASSERT_EQ(r.dtype(), DType::Bool);
    const auto got = r.to_vector<bool>();
    for (std::size_t i = 0; i < v.size(); ++i)
      EXPECT_EQ(got[i], std::signbit(v[i])) << "signbit(" << v[i] << ") " << name(t);
  }
}

struct BinaryEdge {
  double a, b;
};

// hypot must not overflow or underflow in between (1e200², 1e-200²; 1e30² in float32), and
// is inf when either operand is, even beside a NaN; copysign takes the sign bit of zeros and
// NaNs; logaddexp of infinities of one sign gives them back, as NumPy.
const BinaryEdge kBinaryEdges[] = {
    {3, 4},       {0, -0.0},      {-0.0, 0.0},      {kInf, kNaN},    {kNaN, -kInf}, {-kInf, 1},
    {1e30, 1e30}, {1e200, 1e200}, {1e-200, 1e-200}, {1e-30, 1e-30},  {kNaN, 1},     {1, kNaN},
    {kInf, kInf}, {-kInf, -kInf}, {kInf, -kInf},    {-kInf, kInf},   {-kInf, 1},    {1000, 1000},
    {1000, 0},    {-1000, -1000}, {0, 0},           {1e-10, -1e-10}, {-50, 50},     {2, -0.0},
    {-2, 0.0},    {0.0, -1},      {kInf, -1},       {1.5, -kInf},    {-3e38, 3e38}, {3e38, 3e38},
};

TEST_P(MathFunctions, BinaryFunctionsAtTheirEdges) {
  struct Fn {
    const char* name;
    Array (*fn)(const Array&, const Array&);
    std::function<double(double, double)> ref;
  };
  const Fn fns[] = {
      {"hypot", hypot,
       [](double a, double b) {
         return static_cast<double>(std::hypot(static_cast<long double>(a), b));
       }},
      {"copysign", copysign, [](double a, double b) { return std::copysign(a, b); }},
      {"logaddexp", logaddexp, logaddexp_reference},
  };
  for (const DType t : float_dtypes()) {
    std::vector<double> va, vb;
    for (const BinaryEdge& e : kBinaryEdges)
      va.push_back(as_dtype(e.a, t)), vb.push_back(as_dtype(e.b, t));
    const std::int64_t n = static_cast<std::int64_t>(va.size());
    const Array a = host_array(va, {n}, t), b = host_array(vb, {n}, t);
    for (const Fn& f : fns) {
      std::vector<double> expected(va.size()), inputs(va.size());
      for (std::size_t i = 0; i < va.size(); ++i) {
        expected[i] = as_dtype(f.ref(va[i], vb[i]), t);
        inputs[i] = i;  // the row of kBinaryEdges
      }
      const Array r = f.fn(a, b);
      ASSERT_EQ(r.dtype(), t) << f.name;
      expect_edges(r, expected, inputs, std::string(f.name) + " " + std::string(name(t)) + " row");
    }
  }
}

// nextafter is exact, so it is compared bit for bit with std::nextafter in T, NaN with NaN.
template <class T>
using BitsOf = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
void expect_next_after(const Array& got_array, const std::vector<double>& a,
                       const std::vector<double>& b, const std::string& what) {
  const std::vector<double> got = got_array.to_vector<double>();
  ASSERT_EQ(got.size(), a.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const T want = std::nextafter(static_cast<T>(a[i]), static_cast<T>(b[i]));
    const T g = static_cast<T>(got[i]);
    const bool ok = std::isnan(want)
                        ? std::isnan(g)
                        : std::bit_cast<BitsOf<T>>(g) == std::bit_cast<BitsOf<T>>(want);
    EXPECT_TRUE(ok) << what << ": nextafter(" << a[i] << ", " << b[i] << ") is " << g
                    << ", expected " << want;
  }
}

void expect_next_after(DType t, const Array& got, const std::vector<double>& a,
                       const std::vector<double>& b, const std::string& what) {
  ASSERT_EQ(got.dtype(), t) << what;
  if (t == DType::Float32)
    expect_next_after<float>(got, a, b, what);
  else
    expect_next_after<double>(got, a, b, what);
}

// Signed zeros, infinities, NaN, the largest finite values (toward inf they give inf) and the
// smallest subnormals and normals (toward 0 they give ±0 and the largest subnormal).
template <class T>
std::vector<double> next_after_edges() {
  const double tiny = std::numeric_limits<T>::denorm_min(), least = std::numeric_limits<T>::min(),
               most = std::numeric_limits<T>::max();
  return {0.0,  -0.0,  1.0,   -1.0,   1.5,  -3.25, kInf,     -kInf, kNaN,
          most, -most, least, -least, tiny, -tiny, 2 * tiny, 1e-30, -1e-30};
}

TEST_P(MathFunctions, NextAfterIsExactForEveryPairOfEdges) {
  for (const DType t : float_dtypes()) {
    const std::vector<double> edges =
        t == DType::Float32 ? next_after_edges<float>() : next_after_edges<double>();
    std::vector<double> va, vb;
    for (const double a : edges)
      for (const double b : edges) va.push_back(as_dtype(a, t)), vb.push_back(as_dtype(b, t));
    const std::int64_t n = static_cast<std::int64_t>(va.size());
    const Array r = nextafter(host_array(va, {n}, t), host_array(vb, {n}, t));
    expect_next_after(t, r, va, vb, "nextafter " + std::string(name(t)));
  }
}

// Every size, so vector tails and partial blocks run; half the b's equal their a's.
TEST_P(MathFunctions, NextAfterIsExactAtEverySize) {
  for (const DType t : float_dtypes())
    for (const std::int64_t n : kSizes) {
      const auto va = random_values(n, t, 3 + n, -1e3, 1e3);
      auto vb = random_values(n, t, 5 + n, -1e3, 1e3);
      for (std::size_t i = 0; i < vb.size(); i += 2) vb[i] = va[i];
      const Array r = nextafter(host_array(va, {n}, t), host_array(vb, {n}, t));
      expect_next_after(t, r, va, vb,
                        "nextafter " + std::string(name(t)) + " n=" + std::to_string(n));
    }
}

// NumPy's promotion, as for copysign: bool operands give float32, integers float64, a Python
// float stays weak against a float32 array.
TEST_P(MathFunctions, NextAfterPromotesAsCopySign) {
  const std::vector<double> small = {0, 1, -3}, big = {1, 0, -3};
  const Array p = host_array({0, 1, 1}, {3}, DType::Bool),
              q = host_array({1, 0, 1}, {3}, DType::Bool);
  expect_next_after(DType::Float32, nextafter(p, q), {0, 1, 1}, {1, 0, 1}, "nextafter(bool)");
  const Array f = host_array(small, {3}, DType::Float32);
  expect_next_after(DType::Float32, nextafter(f, Scalar(2.0)), small, {2, 2, 2},
                    "nextafter(float32, 2.0)");
  expect_next_after(DType::Float32, nextafter(Scalar(-1), f), {-1, -1, -1}, small,
                    "nextafter(-1, float32)");
  if (!device_has_fp64()) return;
  const Array i = host_array(small, {3}, DType::Int32), d = host_array(big, {3}, DType::Float64);
  expect_next_after(DType::Float64, nextafter(i, d), small, big, "nextafter(int32, float64)");
  expect_next_after(DType::Float64, nextafter(f, d), small, big, "nextafter(float32, float64)");
}

// The new opcodes fuse with their neighbours into one kernel, like sin and tanh.
TEST_P(MathFunctions, FuseIntoOneKernel) {
  const auto v = random_values(1023, DType::Float32, 17, 0.1, 0.9);
  const Array x = host_array(v, {1023}, DType::Float32);
  const Array r = logaddexp(arcsin(x), log1p(x)) + hypot(sinh(x), x) * signbit(x - 0.5);
  const Explanation e = explain([&] { eval(r); });
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  const auto& ops = e.kernels[0].operators;
  for (const char* op : {"logaddexp", "asin", "log1p", "hypot", "sinh", "signbit"})
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op << " " << e.to_string();
  std::vector<double> expected(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    expected[i] = as_dtype(logaddexp_reference(std::asin(v[i]), std::log1p(v[i])) +
                               std::hypot(std::sinh(v[i]), v[i]) * (v[i] < 0.5),
                           DType::Float32);
  expect_close(r, expected, true, "fused logaddexp/arcsin/log1p/hypot/sinh/signbit");
}

SWITCHYARD_ON_EVERY_DEVICE(MathFunctions);

}  // namespace
}  // namespace switchyard::conformance

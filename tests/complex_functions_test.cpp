// Elementwise functions of complex arguments against the C library's (std::complex calls glibc's
// cexp, casin, ..., which NumPy calls too), on every device: a grid of finite values within a few
// ulp of |result|, and the values whose parts are zeros, infinities and NaNs exactly (NaN and
// infinite parts where the C library has them, zeros by sign).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard {
namespace {

using C128 = std::complex<double>;

// tanh as C's, but tanh(±inf + iy) = ±1 + 0i with the sign of y, the array API standard's
// (C's has the sign of sin(2y)); tan(z) is rev(tanh(rev(z))), rev(x + iy) = y + ix.
C128 standard_tanh(const C128& z) {
  C128 w = std::tanh(z);
  if (std::isinf(z.real()) && std::isfinite(z.imag())) w.imag(std::copysign(0.0, z.imag()));
  return w;
}
C128 reversed(const C128& z) {
  return {z.imag(), z.real()};
}

struct Function {
  const char* name;
  Array (*ours)(const Array&);
  C128 (*reference)(const C128&);
  double ulps;  // error bound, in eps·|result|
};

const Function kFunctions[] = {
    {"exp", exp, [](const C128& z) { return std::exp(z); }, 8},
    {"log", log, [](const C128& z) { return std::log(z); }, 8},
    {"log10", log10, [](const C128& z) { return std::log10(z); }, 8},
    {"sqrt", sqrt, [](const C128& z) { return std::sqrt(z); }, 8},
    {"sin", sin, [](const C128& z) { return std::sin(z); }, 8},
    {"cos", cos, [](const C128& z) { return std::cos(z); }, 8},
    {"tan", tan, [](const C128& z) { return reversed(standard_tanh(reversed(z))); }, 16},
    {"sinh", sinh, [](const C128& z) { return std::sinh(z); }, 8},
    {"cosh", cosh, [](const C128& z) { return std::cosh(z); }, 8},
    {"tanh", tanh, [](const C128& z) { return standard_tanh(z); }, 16},
    {"arcsin", arcsin, [](const C128& z) { return std::asin(z); }, 16},
    {"arccos", arccos, [](const C128& z) { return std::acos(z); }, 16},
    {"arctan", arctan, [](const C128& z) { return std::atan(z); }, 16},
    {"arcsinh", arcsinh, [](const C128& z) { return std::asinh(z); }, 16},
    {"arccosh", arccosh, [](const C128& z) { return std::acosh(z); }, 16},
    {"arctanh", arctanh, [](const C128& z) { return std::atanh(z); }, 16},
};

// Every pair of parts from `parts`, as (re, im).
template <class T>
std::vector<std::complex<T>> pairs(const std::vector<T>& parts) {
  std::vector<std::complex<T>> out;
  for (T im : parts)
    for (T re : parts) out.emplace_back(re, im);
  return out;
}

// Zeros, ±1 and ±2 (where the branch cuts start, and on them), infinities and NaN.
template <class T>
std::vector<std::complex<T>> special_values() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  return pairs<T>({0, -T(0), 1, -1, 2, -2, inf, -inf, nan});
}

// Signed finite magnitudes from the smallest normal to a quarter of the largest float.
template <class T>
std::vector<std::complex<T>> finite_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> parts;
  for (T m : {T(0), L::min(), T(1e-3) * std::sqrt(L::epsilon()), T(0.5), T(1) - L::epsilon() / 2,
              T(1), T(1) + L::epsilon(), T(1.5), T(10), T(30), 1 / L::epsilon(), L::max() / 4}) {
    parts.push_back(m);
    if (m != 0) parts.push_back(-m);
  }
  return pairs(parts);
}

// The C library's result in double, rounded to T's parts.
template <class T>
std::complex<T> expected(const Function& f, std::complex<T> z) {
  const C128 w = f.reference(C128(z.real(), z.imag()));
  return {static_cast<T>(w.real()), static_cast<T>(w.imag())};
}

// NaN and infinite parts where the reference has them, zeros by sign; finite results within
// ulps·eps·|result| (plus as many smallest normals, for devices that flush subnormals).
template <class T>
void expect_matches(const Function& f, std::complex<T> z, std::complex<T> got,
                    const std::string& device) {
  const std::complex<T> want = expected(f, z);
  const auto where = [&] {
    return std::string(f.name) + "(" + std::to_string(z.real()) + ", " + std::to_string(z.imag()) +
           ") on " + device + ": got (" + std::to_string(got.real()) + ", " +
           std::to_string(got.imag()) + "), expected (" + std::to_string(want.real()) + ", " +
           std::to_string(want.imag()) + ")";
  };
  for (auto [g, w] : {std::pair{got.real(), want.real()}, std::pair{got.imag(), want.imag()}}) {
    EXPECT_EQ(std::isnan(g), std::isnan(w)) << where();
    if (std::isinf(w)) {
      EXPECT_EQ(g, w) << where();
    }
    if (w == 0 && g == 0) {
      EXPECT_EQ(std::signbit(g), std::signbit(w)) << where();
    }
  }
  if (std::isfinite(want.real()) && std::isfinite(want.imag())) {
    using L = std::numeric_limits<T>;
    const double error = std::abs(C128(got.real(), got.imag()) - C128(want.real(), want.imag()));
    const double bound =
        f.ulps * (L::epsilon() * std::abs(C128(want.real(), want.imag())) + L::min());
    EXPECT_LE(error, bound) << where();
  }
}

template <class T>
void check_every_function(const std::vector<std::complex<T>>& values) {
  const Array z = Array::from_vector(values);
  for (const auto& device : devices()) {
    const DeviceScope scope(device.id());
    for (const Function& f : kFunctions) {
      const Array result = f.ours(z);
      ASSERT_EQ(result.dtype(), z.dtype()) << f.name;
      const auto got = result.to_vector<std::complex<T>>();
      for (std::size_t i = 0; i < values.size(); ++i)
        expect_matches(f, values[i], got[i], device.id());
    }
  }
}

TEST(ComplexFunctions, SpecialValuesAreTheCLibrarysComplex64) {
  check_every_function(special_values<float>());
}
TEST(ComplexFunctions, SpecialValuesAreTheCLibrarysComplex128) {
  check_every_function(special_values<double>());
}
TEST(ComplexFunctions, FiniteValuesWithinAFewUlpComplex64) {
  check_every_function(finite_values<float>());
}
TEST(ComplexFunctions, FiniteValuesWithinAFewUlpComplex128) {
  check_every_function(finite_values<double>());
}

TEST(ComplexFunctions, PowerProdAndClassification) {
  const std::vector<C128> values = {{1.5, -0.5}, {-2, 0.25}, {0.5, 3}, {-0.75, -1.25}};
  const std::vector<C128> exponents = {{0.5, 1}, {-1.5, 0}, {2, -0.5}, {3, 0}};
  const Array a = Array::from_vector(values), b = Array::from_vector(exponents);
  const double eps = std::numeric_limits<double>::epsilon();
  for (const auto& device : devices()) {
    const DeviceScope scope(device.id());
    const auto powers = power(a, b).to_vector<C128>();
    const auto cubes = power(a, 3).to_vector<C128>();
    const auto inverse_squares = power(a, -2.0).to_vector<C128>();
    C128 product = 1;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const C128 want = std::pow(values[i], exponents[i]);
      EXPECT_LE(std::abs(powers[i] - want), 64 * eps * std::abs(want)) << device.id() << " " << i;
      const C128 cube = values[i] * values[i] * values[i];
      EXPECT_LE(std::abs(cubes[i] - cube), 8 * eps * std::abs(cube)) << device.id();
      const C128 inverse_square = 1.0 / (values[i] * values[i]);
      EXPECT_LE(std::abs(inverse_squares[i] - inverse_square), 16 * eps * std::abs(inverse_square))
          << device.id();
      product *= values[i];
    }
    EXPECT_LE(std::abs(prod(a).item<C128>() - product), 16 * eps * std::abs(product))
        << device.id();
    const std::vector<C128> odd = {
        {1, 0}, {std::numeric_limits<double>::infinity(), 0}, {0, std::nan("")}};
    const Array c = Array::from_vector(odd);
    EXPECT_EQ(isnan(c).to_vector<bool>(), (std::vector<bool>{false, false, true})) << device.id();
    EXPECT_EQ(isinf(c).to_vector<bool>(), (std::vector<bool>{false, true, false})) << device.id();
    EXPECT_EQ(isfinite(c).to_vector<bool>(), (std::vector<bool>{true, false, false}))
        << device.id();
  }
}

}  // namespace
}  // namespace switchyard

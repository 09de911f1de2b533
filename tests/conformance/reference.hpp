// Float64 host references for every operation, following the semantics documented in
// src/expr/kernel_ir.hpp, and NumPy's promotion table written out by hand.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "switchyard/dtype.hpp"

namespace switchyard::conformance {

// NumPy's result_type for two arrays of these dtypes (NumPy 2 table, written out).
inline DType numpy_promotion(DType a, DType b) {
  using D = DType;
  constexpr D B = D::Bool, I = D::Int32, L = D::Int64, F = D::Float32, G = D::Float64;
  constexpr D table[5][5] = {
      /*          bool int32 int64 f32 f64 */
      /* bool */ {B, I, L, F, G},
      /* int32*/ {I, I, L, G, G},
      /* int64*/ {L, L, L, G, G},
      /* f32  */ {F, G, G, F, G},
      /* f64  */ {G, G, G, G, G},
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

// Converts a float64 value as a store into `t` does.
inline double as_dtype(double x, DType t) {
  switch (t) {
    case DType::Bool:
      return x != 0 || std::isnan(x) ? 1 : 0;
    case DType::Int32:
    case DType::Int64: {
      // NumPy on x86: NaN and values whose truncation does not fit give the minimum.
      const double lo = t == DType::Int32 ? -0x1p31 : -0x1p63, whole = std::trunc(x);
      return whole >= lo && whole < -lo ? whole : lo;
    }
    case DType::Float32:
      return static_cast<float>(x);
    case DType::Float64:
    case DType::Complex64:  // a real value is the real part of a complex one
    case DType::Complex128:
      return x;
  }
  return x;
}

inline double floor_div(double a, double b, bool integer) {
  if (integer && b == 0) return 0;
  return std::floor(a / b);
}

inline double python_mod(double a, double b, bool integer) {
  if (b == 0) return integer ? 0 : std::nan("");
  if (integer) return a - std::floor(a / b) * b;
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

inline double integer_pow(double base, double exponent) {
  if (exponent < 0) return base == 1 ? 1 : base == -1 ? (std::fmod(exponent, 2) == 0 ? 1 : -1) : 0;
  double r = 1;
  for (int i = 0; i < static_cast<int>(exponent); ++i) r *= base;
  return r;
}

// NumPy's logaddexp (npy_logaddexp), in long double: equal operands give a + log(2), so
// infinities of one sign give themselves.
inline double logaddexp_reference(double a, double b) {
  const long double x = a, y = b;
  if (x == y) return static_cast<double>(x + std::log(2.0L));
  const long double d = x - y;
  if (std::isnan(d)) return static_cast<double>(d);
  return static_cast<double>(std::max(x, y) + std::log1p(std::exp(-std::fabs(d))));
}

inline double nan_min(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}
inline double nan_max(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}

}  // namespace switchyard::conformance

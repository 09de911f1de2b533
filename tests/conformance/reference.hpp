// Float64 host references for every operation, following the semantics documented in
// src/ir/kernel_ir.hpp, NumPy's promotion table written out by hand, and the error bounds that
// every tolerance in tests/ derives from.
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

// ---- error bounds

// The gap between 1 and the next value of dtype t (of its parts, for complex dtypes); 0 for
// bool and integers, which compute exactly.
inline double epsilon(DType t) {
  switch (t) {
    case DType::Float32:
    case DType::Complex64:
      return std::numeric_limits<float>::epsilon();
    case DType::Float64:
    case DType::Complex128:
      return std::numeric_limits<double>::epsilon();
    default:
      return 0;
  }
}

// The gap between |x| and the next larger value of dtype t: one unit in the last place of a
// result near x. 0 for exact dtypes.
inline double ulp(double x, DType t) {
  if (epsilon(t) == 0 || !std::isfinite(x)) return 0;
  if (epsilon(t) == std::numeric_limits<float>::epsilon()) {
    const float f = std::abs(static_cast<float>(x));
    return static_cast<double>(std::nextafter(f, std::numeric_limits<float>::infinity()) - f);
  }
  return std::nextafter(std::abs(x), std::numeric_limits<double>::infinity()) - std::abs(x);
}

// The bound behind every floating tolerance: a result computed in dtype t with at most
// `roundings` roundings on the path of any value into it, from values whose magnitudes add up to
// `magnitude`, is within γ_k · magnitude of the exact result (γ_k = k·u / (1 - k·u), u = eps/2;
// Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.1), plus its own rounding
// into t; never less than one ulp of the result.
inline double rounding_error_bound(DType t, double roundings, double magnitude, double result) {
  const double u = epsilon(t) / 2;
  const double gamma = roundings * u / (1 - roundings * u);
  return std::max(gamma * magnitude + u * std::abs(result), ulp(result, t));
}

// A sum of `count` terms whose absolute values add up to `sum_abs`, each computed on the device
// with `term_roundings` roundings of its own. Every backend's reductions sum at least as
// accurately as pairwise summation (src/codegen/codegen.hpp: Kahan per work-item and a pairwise
// tree; the CPU accumulates float32 in float64), whatever the ISA or the order: ⌈log2 count⌉
// roundings (Higham §4.2).
inline double sum_error_bound(DType t, std::int64_t count, double sum_abs, double result,
                              int term_roundings = 0) {
  const double levels = std::ceil(std::log2(static_cast<double>(std::max<std::int64_t>(count, 1))));
  return rounding_error_bound(t, levels + term_roundings, sum_abs, result);
}

// A dot product of length k (sum_abs_products = Σ|a_i·b_i|), or a product of k factors
// (sum_abs_products = |result|), in any order, with or without fused multiply-adds: k roundings
// (Higham §3.1), and `term_roundings` more for each factor computed on the device. BLAS
// libraries block and order their sums by ISA.
inline double dot_error_bound(DType t, std::int64_t k, double sum_abs_products, double result,
                              int term_roundings = 0) {
  const double steps = static_cast<double>(std::max<std::int64_t>(k, 1));
  return rounding_error_bound(t, steps * (1 + term_roundings), sum_abs_products, result);
}

// Absolute error bound of each value of an FFT of `points` points in dtype t whose input has L2
// norm `norm`: rounding grows with the log2(points) stages, each scaled by the signal's norm.
inline double fft_error_bound(DType t, std::int64_t points, double norm) {
  return 8 * epsilon(t) * (std::log2(static_cast<double>(points)) + 1) * (norm + 1);
}

inline double nan_min(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}
inline double nan_max(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}

}  // namespace switchyard::conformance

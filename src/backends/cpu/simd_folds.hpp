// Folds of one contiguous block of float values, vectorised with Highway (simd_folds.cpp).
#pragma once

#include <cstdint>

namespace switchyard::cpu {

template <class T>
struct FloatBlockFolds {
  double (*sum)(const T* x, std::int64_t n);  // accumulated in float64 lanes
  T (*prod)(const T* x, std::int64_t n);
  T (*min)(const T* x, std::int64_t n);  // NaN when any element is NaN; n >= 1
  T (*max)(const T* x, std::int64_t n);
};

// The folds for the machine's best ISA.
const FloatBlockFolds<float>& simd_folds_f32();
const FloatBlockFolds<double>& simd_folds_f64();

}  // namespace switchyard::cpu

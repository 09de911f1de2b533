// tan, pow and atan2 through SLEEF (1-ulp "u10" variants), which Highway's math library does
// not have. SLEEF's 128-bit entry points pick the best SSE-level implementation for the
// machine on first use; these ops are rare in fused kernels, so the 128-bit width suffices.
#include <sleef.h>

#include <cstdint>

#include "backends/cpu/block_kernels.hpp"

#if !defined(__x86_64__)
#error "vector_math_kernels.cpp uses SLEEF's x86 SSE entry points; add the target's variants"
#endif

namespace switchyard::cpu {
namespace {

template <class T>
struct Sse;
template <>
struct Sse<float> {
  using V = __m128;
  static constexpr int kLanes = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static void store(float* p, V v) { _mm_storeu_ps(p, v); }
};
template <>
struct Sse<double> {
  using V = __m128d;
  static constexpr int kLanes = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static void store(double* p, V v) { _mm_storeu_pd(p, v); }
};

// Calls f on full vectors, then on the last partial one through a buffer padded with ones.
template <class T, auto f>
void unary(const void* a, const void*, const void*, void* out, std::int64_t n) {
  using S = Sse<T>;
  const T* x = static_cast<const T*>(a);
  T* y = static_cast<T*>(out);
  std::int64_t i = 0;
  for (; i + S::kLanes <= n; i += S::kLanes) S::store(y + i, f(S::load(x + i)));
  if (i == n) return;
  T buffer[S::kLanes];
  for (int k = 0; k < S::kLanes; ++k) buffer[k] = i + k < n ? x[i + k] : T{1};
  S::store(buffer, f(S::load(buffer)));
  for (int k = 0; i + k < n; ++k) y[i + k] = buffer[k];
}

template <class T, auto f>
void binary(const void* a, const void* b, const void*, void* out, std::int64_t n) {
  using S = Sse<T>;
  const T* x = static_cast<const T*>(a);
  const T* z = static_cast<const T*>(b);
  T* y = static_cast<T*>(out);
  std::int64_t i = 0;
  for (; i + S::kLanes <= n; i += S::kLanes) S::store(y + i, f(S::load(x + i), S::load(z + i)));
  if (i == n) return;
  T left[S::kLanes], right[S::kLanes];
  for (int k = 0; k < S::kLanes; ++k) {
    left[k] = i + k < n ? x[i + k] : T{1};
    right[k] = i + k < n ? z[i + k] : T{1};
  }
  S::store(left, f(S::load(left), S::load(right)));
  for (int k = 0; i + k < n; ++k) y[i + k] = left[k];
}

}  // namespace

BlockFn vector_math_block_kernel(ir::OpCode op, DType t) {
  const bool f32 = t == DType::Float32;
  if (!f32 && t != DType::Float64) return nullptr;
  switch (op) {
    case ir::OpCode::Tan:
      if (f32) return &unary<float, Sleef_tanf4_u10>;
      return &unary<double, Sleef_tand2_u10>;
    case ir::OpCode::Pow:
      if (f32) return &binary<float, Sleef_powf4_u10>;
      return &binary<double, Sleef_powd2_u10>;
    case ir::OpCode::Atan2:
      if (f32) return &binary<float, Sleef_atan2f4_u10>;
      return &binary<double, Sleef_atan2d2_u10>;
    default:
      return nullptr;
  }
}

}  // namespace switchyard::cpu

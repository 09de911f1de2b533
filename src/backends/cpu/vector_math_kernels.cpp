// tan, pow, atan2, the inverse trigonometric and the hyperbolic functions, expm1, log1p, log2,
// log10, hypot and copysign through SLEEF (1-ulp "u10" variants; hypot 0.5 ulp). Highway's math
// library lacks some (tan, pow, atan2, cosh) and documents narrower ranges for the others, so
// one provider serves them all. SLEEF's 128-bit functions come at three SSE levels; the one used
// follows the SIMD target (simd_target.hpp), so SWITCHYARD_SIMD caps it too. These ops are rare
// in fused kernels, so the 128-bit width suffices.
#include <sleef.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "backends/cpu/block_kernels.hpp"
#include "backends/cpu/simd_target.hpp"

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

// SLEEF documents its accuracy inside a range and gives infinity beyond it where the true value
// is finite: sinhf(89) and coshf(89) (finite up to 89.4), asinhf(1e20), acoshf(1e20) and
// log1pf(3e38) all come back as inf. Lanes whose |x| exceeds the op's limit, and NaN lanes, are
// recomputed with libm, so results never depend on the neighbouring elements.
template <class T, auto f, class Libm>
void guarded_unary(const void* a, const void*, const void*, void* out, std::int64_t n) {
  using S = Sse<T>;
  const T* x = static_cast<const T*>(a);
  T* y = static_cast<T*>(out);
  const T limit = static_cast<T>(sizeof(T) == 4 ? Libm::kFloatLimit : Libm::kDoubleLimit);
  for (std::int64_t i = 0; i < n; i += S::kLanes) {
    const int m = static_cast<int>(std::min<std::int64_t>(S::kLanes, n - i));
    T in[S::kLanes], result[S::kLanes];
    for (int k = 0; k < S::kLanes; ++k) in[k] = k < m ? x[i + k] : T{1};
    S::store(result, f(S::load(in)));
    for (int k = 0; k < m; ++k) y[i + k] = std::abs(in[k]) <= limit ? result[k] : Libm{}(in[k]);
  }
}

constexpr double kWhole = std::numeric_limits<double>::infinity();  // SLEEF is right everywhere

// Each: libm's function, and the |x| up to which SLEEF is documented to be within 1 ulp.
#define SWITCHYARD_LIBM(fn, float_limit, double_limit)   \
  struct Libm_##fn {                                     \
    static constexpr double kFloatLimit = float_limit;   \
    static constexpr double kDoubleLimit = double_limit; \
    template <class T>                                   \
    T operator()(T x) const {                            \
      return std::fn(x);                                 \
    }                                                    \
  };
SWITCHYARD_LIBM(asin, kWhole, kWhole)
SWITCHYARD_LIBM(acos, kWhole, kWhole)
SWITCHYARD_LIBM(atan, kWhole, kWhole)
SWITCHYARD_LIBM(sinh, 88.5, 709)
SWITCHYARD_LIBM(cosh, 88.5, 709)
SWITCHYARD_LIBM(asinh, 1.84e19, 1.34e154)
SWITCHYARD_LIBM(acosh, 1.84e19, 1.34e154)
SWITCHYARD_LIBM(atanh, kWhole, kWhole)
SWITCHYARD_LIBM(expm1, kWhole, kWhole)
SWITCHYARD_LIBM(log1p, 1e38, 1e307)
SWITCHYARD_LIBM(log2, kWhole, kWhole)
SWITCHYARD_LIBM(log10, kWhole, kWhole)
#undef SWITCHYARD_LIBM

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

// SLEEF's functions at one level, named as its dispatching entry points are:
// Sleef<SleefLevel::Sse4>::tanf4_u10 is Sleef_tanf4_u10sse4.
template <SleefLevel>
struct Sleef;

// (member, symbol stem) of each function used here, for float (f4) and double (d2).
// clang-format off
#define SWITCHYARD_SLEEF_FUNCTIONS(X, level)                                              \
  X(tanf4_u10, tanf4_u10, level) X(tand2_u10, tand2_u10, level)                         \
  X(powf4_u10, powf4_u10, level) X(powd2_u10, powd2_u10, level)                         \
  X(atan2f4_u10, atan2f4_u10, level) X(atan2d2_u10, atan2d2_u10, level)                 \
  X(hypotf4_u05, hypotf4_u05, level) X(hypotd2_u05, hypotd2_u05, level)                 \
  X(copysignf4, copysignf4_, level) X(copysignd2, copysignd2_, level)                   \
  X(asinf4_u10, asinf4_u10, level) X(asind2_u10, asind2_u10, level)                     \
  X(acosf4_u10, acosf4_u10, level) X(acosd2_u10, acosd2_u10, level)                     \
  X(atanf4_u10, atanf4_u10, level) X(atand2_u10, atand2_u10, level)                     \
  X(sinhf4_u10, sinhf4_u10, level) X(sinhd2_u10, sinhd2_u10, level)                     \
  X(coshf4_u10, coshf4_u10, level) X(coshd2_u10, coshd2_u10, level)                     \
  X(asinhf4_u10, asinhf4_u10, level) X(asinhd2_u10, asinhd2_u10, level)                 \
  X(acoshf4_u10, acoshf4_u10, level) X(acoshd2_u10, acoshd2_u10, level)                 \
  X(atanhf4_u10, atanhf4_u10, level) X(atanhd2_u10, atanhd2_u10, level)                 \
  X(expm1f4_u10, expm1f4_u10, level) X(expm1d2_u10, expm1d2_u10, level)                 \
  X(log1pf4_u10, log1pf4_u10, level) X(log1pd2_u10, log1pd2_u10, level)                 \
  X(log2f4_u10, log2f4_u10, level) X(log2d2_u10, log2d2_u10, level)                     \
  X(log10f4_u10, log10f4_u10, level) X(log10d2_u10, log10d2_u10, level)
#define SWITCHYARD_SLEEF_MEMBER(member, stem, level) \
  static constexpr auto member = &Sleef_##stem##level;
template <> struct Sleef<SleefLevel::Sse2> { SWITCHYARD_SLEEF_FUNCTIONS(SWITCHYARD_SLEEF_MEMBER, sse2) };
template <> struct Sleef<SleefLevel::Sse4> { SWITCHYARD_SLEEF_FUNCTIONS(SWITCHYARD_SLEEF_MEMBER, sse4) };
template <> struct Sleef<SleefLevel::Avx2> { SWITCHYARD_SLEEF_FUNCTIONS(SWITCHYARD_SLEEF_MEMBER, avx2128) };
// clang-format on
#undef SWITCHYARD_SLEEF_MEMBER
#undef SWITCHYARD_SLEEF_FUNCTIONS

template <SleefLevel L>
BlockFn kernel_at(ir::OpCode op, bool f32) {
  using S = Sleef<L>;
  switch (op) {
    case ir::OpCode::Tan:
      if (f32) return &unary<float, S::tanf4_u10>;
      return &unary<double, S::tand2_u10>;
    case ir::OpCode::Pow:
      if (f32) return &binary<float, S::powf4_u10>;
      return &binary<double, S::powd2_u10>;
    case ir::OpCode::Atan2:
      if (f32) return &binary<float, S::atan2f4_u10>;
      return &binary<double, S::atan2d2_u10>;
    case ir::OpCode::Hypot:
      if (f32) return &binary<float, S::hypotf4_u05>;
      return &binary<double, S::hypotd2_u05>;
    case ir::OpCode::CopySign:
      if (f32) return &binary<float, S::copysignf4>;
      return &binary<double, S::copysignd2>;
#define SWITCHYARD_GUARDED(opcode, fn)                               \
  case ir::OpCode::opcode:                                           \
    if (f32) return &guarded_unary<float, S::fn##f4_u10, Libm_##fn>; \
    return &guarded_unary<double, S::fn##d2_u10, Libm_##fn>;
      SWITCHYARD_GUARDED(Asin, asin)
      SWITCHYARD_GUARDED(Acos, acos)
      SWITCHYARD_GUARDED(Atan, atan)
      SWITCHYARD_GUARDED(Sinh, sinh)
      SWITCHYARD_GUARDED(Cosh, cosh)
      SWITCHYARD_GUARDED(Asinh, asinh)
      SWITCHYARD_GUARDED(Acosh, acosh)
      SWITCHYARD_GUARDED(Atanh, atanh)
      SWITCHYARD_GUARDED(Expm1, expm1)
      SWITCHYARD_GUARDED(Log1p, log1p)
      SWITCHYARD_GUARDED(Log2, log2)
      SWITCHYARD_GUARDED(Log10, log10)
#undef SWITCHYARD_GUARDED
    default:
      return nullptr;
  }
}

}  // namespace

BlockFn vector_math_block_kernel(ir::OpCode op, DType t) {
  const bool f32 = t == DType::Float32;
  if (!f32 && t != DType::Float64) return nullptr;
  switch (sleef_level()) {
    case SleefLevel::Sse2:
      return kernel_at<SleefLevel::Sse2>(op, f32);
    case SleefLevel::Sse4:
      return kernel_at<SleefLevel::Sse4>(op, f32);
    case SleefLevel::Avx2:
      break;
  }
  return kernel_at<SleefLevel::Avx2>(op, f32);
}

}  // namespace switchyard::cpu

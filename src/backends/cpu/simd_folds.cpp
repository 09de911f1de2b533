// Highway block folds for float reductions. Sums accumulate in float64 lanes, so a float32 sum
// is more accurate than pairwise summation in float32; four independent accumulators hide the
// add latency so the loop runs at memory speed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/simd_folds.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "backends/cpu/simd_folds.hpp"
#include "backends/cpu/simd_target.hpp"

HWY_BEFORE_NAMESPACE();
namespace switchyard::cpu::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

template <class T>
double Sum(const T* HWY_RESTRICT x, std::int64_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<T, decltype(dd)> dt;  // as many T lanes as float64 lanes
  const std::int64_t lanes = static_cast<std::int64_t>(hn::Lanes(dd));
  auto widen = [&](std::int64_t i) {
    if constexpr (std::is_same_v<T, double>)
      return hn::LoadU(dd, x + i);
    else
      return hn::PromoteTo(dd, hn::LoadU(dt, x + i));
  };
  auto s0 = hn::Zero(dd), s1 = hn::Zero(dd), s2 = hn::Zero(dd), s3 = hn::Zero(dd);
  std::int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    s0 = hn::Add(s0, widen(i));
    s1 = hn::Add(s1, widen(i + lanes));
    s2 = hn::Add(s2, widen(i + 2 * lanes));
    s3 = hn::Add(s3, widen(i + 3 * lanes));
  }
  for (; i + lanes <= n; i += lanes) s0 = hn::Add(s0, widen(i));
  double total = hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3))));
  for (; i < n; ++i) total += x[i];
  return total;
}

template <class T>
T Prod(const T* HWY_RESTRICT x, std::int64_t n) {
  const hn::ScalableTag<T> d;
  const std::int64_t lanes = static_cast<std::int64_t>(hn::Lanes(d));
  auto p0 = hn::Set(d, T{1}), p1 = p0;
  std::int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    p0 = hn::Mul(p0, hn::LoadU(d, x + i));
    p1 = hn::Mul(p1, hn::LoadU(d, x + i + lanes));
  }
  HWY_ALIGN T products[hn::MaxLanes(decltype(d)())];
  hn::Store(hn::Mul(p0, p1), d, products);
  T result = 1;
  for (std::int64_t k = 0; k < lanes; ++k) result *= products[k];
  for (; i < n; ++i) result *= x[i];
  return result;
}

// NaN is tracked separately because x86 min/max drop a NaN in their first operand.
template <class T, bool kMax>
T Extreme(const T* HWY_RESTRICT x, std::int64_t n) {
  const hn::ScalableTag<T> d;
  const std::int64_t lanes = static_cast<std::int64_t>(hn::Lanes(d));
  auto better = [](T a, T b) { return kMax ? (b > a ? b : a) : (b < a ? b : a); };
  if (n < lanes) {
    T result = x[0];
    for (std::int64_t i = 0; i < n; ++i) {
      if (std::isnan(x[i])) return x[i];
      result = better(result, x[i]);
    }
    return result;
  }
  auto fold = [](auto acc, auto v) { return kMax ? hn::Max(acc, v) : hn::Min(acc, v); };
  auto acc = hn::LoadU(d, x);
  auto nan = hn::IsNaN(acc);
  for (std::int64_t i = lanes; i < n; i += lanes) {
    // The last vector may overlap the previous one: harmless for min and max.
    const auto v = hn::LoadU(d, x + (i + lanes <= n ? i : n - lanes));
    acc = fold(acc, v);
    nan = hn::Or(nan, hn::IsNaN(v));
  }
  if (!hn::AllFalse(d, nan)) return std::numeric_limits<T>::quiet_NaN();
  HWY_ALIGN T extremes[hn::MaxLanes(decltype(d)())];
  hn::Store(acc, d, extremes);
  T result = extremes[0];
  for (std::int64_t k = 1; k < lanes; ++k) result = better(result, extremes[k]);
  return result;
}

template <class T>
FloatBlockFolds<T> Folds() {
  return {&Sum<T>, &Prod<T>, &Extreme<T, false>, &Extreme<T, true>};
}

}  // namespace

FloatBlockFolds<float> FoldsF32() {
  return Folds<float>();
}
FloatBlockFolds<double> FoldsF64() {
  return Folds<double>();
}

}  // namespace switchyard::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace switchyard::cpu {

HWY_EXPORT(FoldsF32);
HWY_EXPORT(FoldsF64);

const FloatBlockFolds<float>& simd_folds_f32() {
  static const FloatBlockFolds<float> folds = (apply_simd_cap(), HWY_DYNAMIC_DISPATCH(FoldsF32)());
  return folds;
}

const FloatBlockFolds<double>& simd_folds_f64() {
  static const FloatBlockFolds<double> folds = (apply_simd_cap(), HWY_DYNAMIC_DISPATCH(FoldsF64)());
  return folds;
}

}  // namespace switchyard::cpu
#endif  // HWY_ONCE

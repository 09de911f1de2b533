// Highway compiles this file once per x86 target and picks the best at run time (as the library's
// CPU backend does), so no -march flag is needed to get AVX2 / AVX-512.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fused_loop.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <hwy/contrib/math/math-inl.h>

#include <cmath>
#include <cstddef>

#include "fused_loop.hpp"

HWY_BEFORE_NAMESPACE();
namespace switchyard::bench::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

template <class D, class V>
HWY_INLINE V Expression(D d, V a, V b, V c) {
  V sin_c = hn::Sin(d, c);
  // Highway's Sin is accurate up to |x| ~ 39000; beyond, lanes take std::sin, as the library's
  // kernel does, so both compute the same function for any input.
  const auto in_range = hn::Le(hn::Abs(c), hn::Set(d, 39000.0f));
  if (HWY_UNLIKELY(!hn::AllTrue(d, in_range))) {
    HWY_ALIGN float lanes[hn::MaxLanes(D())];
    hn::Store(c, d, lanes);
    for (std::size_t k = 0; k < hn::Lanes(d); ++k) lanes[k] = std::sin(lanes[k]);
    sin_c = hn::IfThenElse(in_range, sin_c, hn::Load(d, lanes));
  }
  return hn::Sub(hn::MulAdd(sin_c, hn::Set(d, 2.5f), hn::Mul(a, b)), hn::Sqrt(hn::Abs(a)));
}

}  // namespace

void FusedRange(const float* HWY_RESTRICT a, const float* HWY_RESTRICT b,
                const float* HWY_RESTRICT c, float* HWY_RESTRICT y, std::size_t n) {
  const hn::ScalableTag<float> d;
  const std::size_t lanes = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(Expression(d, hn::LoadU(d, a + i), hn::LoadU(d, b + i), hn::LoadU(d, c + i)), d,
               y + i);
  if (i == n) return;
  // The last partial vector goes through buffers padded with zeros, a valid input.
  HWY_ALIGN float ta[hn::MaxLanes(d)], tb[hn::MaxLanes(d)], tc[hn::MaxLanes(d)];
  for (std::size_t k = 0; k < lanes; ++k) {
    const bool inside = i + k < n;
    ta[k] = inside ? a[i + k] : 0.0f;
    tb[k] = inside ? b[i + k] : 0.0f;
    tc[k] = inside ? c[i + k] : 0.0f;
  }
  hn::Store(Expression(d, hn::Load(d, ta), hn::Load(d, tb), hn::Load(d, tc)), d, ta);
  for (std::size_t k = 0; i + k < n; ++k) y[i + k] = ta[k];
}

}  // namespace switchyard::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace switchyard::bench {
namespace {

// The library's elementwise task size (8 blocks of 2048 elements); below it one thread is faster.
constexpr std::size_t kElementsPerTask = 16 * 1024;

}  // namespace

HWY_EXPORT(FusedRange);

void fused_expression(const float* a, const float* b, const float* c, float* y, std::size_t n) {
  if (n <= kElementsPerTask) return HWY_DYNAMIC_DISPATCH(FusedRange)(a, b, c, y, n);
  // The default arena: tbb::this_task_arena::max_concurrency() threads, the library's own.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kElementsPerTask), [&](auto r) {
    HWY_DYNAMIC_DISPATCH(FusedRange)
    (a + r.begin(), b + r.begin(), c + r.begin(), y + r.begin(), r.size());
  });
}

}  // namespace switchyard::bench
#endif  // HWY_ONCE

// Float32/float64 block kernels with Highway: compiled once per x86 target (see CMakeLists.txt
// for the target list) and chosen at run time for the machine's best ISA.
//
// exp, log, sin, cos and tanh use Highway's vector math inside the range where it documents
// its accuracy (1-4 ulp); the rare lanes outside it (|x| > 39000 for sin/cos, infinities,
// NaN, log of x <= 0, exp overflow) are recomputed with libm, so results match libm's special
// cases and never depend on the neighbouring elements.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/simd_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <hwy/contrib/math/math-inl.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "backends/cpu/block_kernels.hpp"
#include "backends/cpu/simd_target.hpp"

HWY_BEFORE_NAMESPACE();
namespace switchyard::cpu::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using ir::OpCode;

// clang-format off
struct AddOp { template <class D, class V> V operator()(D, V a, V b) const { return hn::Add(a, b); } };
struct SubOp { template <class D, class V> V operator()(D, V a, V b) const { return hn::Sub(a, b); } };
struct MulOp { template <class D, class V> V operator()(D, V a, V b) const { return hn::Mul(a, b); } };
struct DivOp { template <class D, class V> V operator()(D, V a, V b) const { return hn::Div(a, b); } };
struct FloorDivOp { template <class D, class V> V operator()(D, V a, V b) const { return hn::Floor(hn::Div(a, b)); } };
// NumPy's minimum/maximum: a NaN operand wins (x86 min/max would return the second operand).
struct MinOp { template <class D, class V> V operator()(D, V a, V b) const {
  return hn::IfThenElse(hn::IsNaN(a), a, hn::IfThenElse(hn::IsNaN(b), b, hn::Min(a, b))); } };
struct MaxOp { template <class D, class V> V operator()(D, V a, V b) const {
  return hn::IfThenElse(hn::IsNaN(a), a, hn::IfThenElse(hn::IsNaN(b), b, hn::Max(a, b))); } };

// clang-format on

// C's nextafter on the bits, as the GLSL form (codegen/spelling.cpp): b beyond a on a's side of
// zero makes |a| one step larger, anything else one step smaller; exact, with no libm call.
struct NextAfterOp {
  template <class D, class V>
  V operator()(D d, V a, V b) const {
    const hn::RebindToUnsigned<D> du;
    using U = hn::TFromD<decltype(du)>;
    const auto sign = hn::Set(du, U{1} << (8 * sizeof(U) - 1));
    const auto inf = hn::BitCast(du, hn::Inf(d));
    const auto one = hn::Set(du, U{1});
    const auto ua = hn::BitCast(du, a), ub = hn::BitCast(du, b);
    const auto ma = hn::AndNot(sign, ua), mb = hn::AndNot(sign, ub);
    const auto away = hn::And(hn::Eq(hn::And(hn::Xor(ua, ub), sign), hn::Zero(du)), hn::Gt(mb, ma));
    auto r = hn::IfThenElse(away, hn::Add(ua, one), hn::Sub(ua, one));
    r = hn::IfThenElse(hn::Eq(ma, hn::Zero(du)), hn::Or(hn::And(ub, sign), one), r);
    r = hn::IfThenElse(hn::Or(hn::Eq(ua, ub), hn::Eq(hn::Or(ma, mb), hn::Zero(du))), ub, r);
    const auto nan = hn::Or(hn::Gt(ma, inf), hn::Gt(mb, inf));
    return hn::IfThenElse(hn::RebindMask(d, nan), hn::Add(a, b), hn::BitCast(d, r));
  }
};

// clang-format off
struct NegOp   { static constexpr bool kRanged = false; template <class D, class V> V operator()(D, V x) const { return hn::Neg(x); } };
struct AbsOp   { static constexpr bool kRanged = false; template <class D, class V> V operator()(D, V x) const { return hn::Abs(x); } };
struct SqrtOp  { static constexpr bool kRanged = false; template <class D, class V> V operator()(D, V x) const { return hn::Sqrt(x); } };
struct FloorOp { static constexpr bool kRanged = false; template <class D, class V> V operator()(D, V x) const { return hn::Floor(x); } };
struct CeilOp  { static constexpr bool kRanged = false; template <class D, class V> V operator()(D, V x) const { return hn::Ceil(x); } };
struct RoundOp { static constexpr bool kRanged = false; template <class D, class V> V operator()(D, V x) const { return hn::Round(x); } };  // ties to even
struct TruncOp { static constexpr bool kRanged = false; template <class D, class V> V operator()(D, V x) const { return hn::Trunc(x); } };
// clang-format on

template <class D>
hn::Vec<D> Splat(D d, double value) {
  return hn::Set(d, static_cast<hn::TFromD<D>>(value));
}

struct ExpOp {
  static constexpr bool kRanged = true;
  template <class D, class V>
  V operator()(D d, V x) const {
    return hn::Exp(d, x);
  }
  // Finite results up to ln(max) (88.7 / 709.8); beyond that libm gives +inf.
  template <class D, class V>
  auto valid(D d, V x) const {
    const auto lowest = hn::Set(d, std::numeric_limits<hn::TFromD<D>>::lowest());
    return hn::And(hn::Ge(x, lowest),
                   hn::Le(x, Splat(d, sizeof(hn::TFromD<D>) == 4 ? 88.0 : 709.0)));
  }
  template <class T>
  T exact(T x) const {
    return std::exp(x);
  }
};

struct LogOp {
  static constexpr bool kRanged = true;
  template <class D, class V>
  V operator()(D d, V x) const {
    return hn::Log(d, x);
  }
  template <class D, class V>
  auto valid(D d, V x) const {
    const auto largest = hn::Set(d, std::numeric_limits<hn::TFromD<D>>::max());
    return hn::And(hn::Gt(x, hn::Zero(d)), hn::Le(x, largest));
  }
  template <class T>
  T exact(T x) const {
    return std::log(x);
  }
};

template <bool kSin>
struct SinCosOp {
  static constexpr bool kRanged = true;
  // Highway's Sin gives +0.0 for -0.0, and its float64 Cos gives 1 - 2^-53 for |x| up to about
  // 1e-8 (its float32 Cos is exact there). Zero lanes of sin take x itself; below 2^-27 the next
  // term of cos's series, x^2/2, is under half an ulp of 1, so cos(x) rounds to 1. Each fix is
  // one compare and one blend, and only where Highway is wrong.
  template <class D, class V>
  V operator()(D d, V x) const {
    if constexpr (kSin) {
      return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, hn::Sin(d, x));
    } else if constexpr (sizeof(hn::TFromD<D>) == 8) {
      return hn::IfThenElse(hn::Lt(hn::Abs(x), Splat(d, 0x1p-27)), Splat(d, 1.0), hn::Cos(d, x));
    } else {
      return hn::Cos(d, x);
    }
  }
  template <class D, class V>
  auto valid(D d, V x) const {
    return hn::Le(hn::Abs(x), Splat(d, 39000.0));
  }
  template <class T>
  T exact(T x) const {
    return kSin ? std::sin(x) : std::cos(x);
  }
};

struct TanhOp {
  static constexpr bool kRanged = true;
  template <class D, class V>
  V operator()(D d, V x) const {
    return hn::Tanh(d, x);
  }
  template <class D, class V>
  auto valid(D d, V x) const {
    return hn::Le(hn::Abs(x), hn::Set(d, std::numeric_limits<hn::TFromD<D>>::max()));
  }
  template <class T>
  T exact(T x) const {
    return std::tanh(x);
  }
};

template <class Op, class D, class V>
HWY_INLINE V ApplyUnary(D d, V x) {
  V y = Op{}(d, x);
  if constexpr (Op::kRanged) {
    const auto ok = Op{}.valid(d, x);
    if (HWY_UNLIKELY(!hn::AllTrue(d, ok))) {
      HWY_ALIGN hn::TFromD<D> lanes[hn::MaxLanes(D())];
      hn::Store(x, d, lanes);
      for (size_t i = 0; i < hn::Lanes(d); ++i) lanes[i] = Op{}.exact(lanes[i]);
      y = hn::IfThenElse(ok, y, hn::Load(d, lanes));
    }
  }
  return y;
}

// The last partial vector is computed in a buffer padded with ones, a valid input for every op.
template <class T, class Op>
void UnaryBlock(const void* a, const void*, const void*, void* out, std::int64_t n) {
  const hn::ScalableTag<T> d;
  const std::int64_t lanes = static_cast<std::int64_t>(hn::Lanes(d));
  const T* HWY_RESTRICT x = static_cast<const T*>(a);
  T* HWY_RESTRICT y = static_cast<T*>(out);
  std::int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(ApplyUnary<Op>(d, hn::LoadU(d, x + i)), d, y + i);
  if (i == n) return;
  HWY_ALIGN T buffer[hn::MaxLanes(decltype(d)())];
  for (std::int64_t k = 0; k < lanes; ++k) buffer[k] = i + k < n ? x[i + k] : T{1};
  hn::Store(ApplyUnary<Op>(d, hn::Load(d, buffer)), d, buffer);
  for (std::int64_t k = 0; i + k < n; ++k) y[i + k] = buffer[k];
}

template <class T, class Op>
void BinaryBlock(const void* a, const void* b, const void*, void* out, std::int64_t n) {
  const hn::ScalableTag<T> d;
  const std::int64_t lanes = static_cast<std::int64_t>(hn::Lanes(d));
  const T* HWY_RESTRICT x = static_cast<const T*>(a);
  const T* HWY_RESTRICT z = static_cast<const T*>(b);
  T* HWY_RESTRICT y = static_cast<T*>(out);
  std::int64_t i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(Op{}(d, hn::LoadU(d, x + i), hn::LoadU(d, z + i)), d, y + i);
  if (i == n) return;
  HWY_ALIGN T left[hn::MaxLanes(decltype(d)())];
  HWY_ALIGN T right[hn::MaxLanes(decltype(d)())];
  for (std::int64_t k = 0; k < lanes; ++k) {
    left[k] = i + k < n ? x[i + k] : T{1};
    right[k] = i + k < n ? z[i + k] : T{1};
  }
  hn::Store(Op{}(d, hn::Load(d, left), hn::Load(d, right)), d, left);
  for (std::int64_t k = 0; i + k < n; ++k) y[i + k] = left[k];
}

template <class T>
BlockFn KernelFor(OpCode op) {
  switch (op) {
    case OpCode::Neg:
      return &UnaryBlock<T, NegOp>;
    case OpCode::Abs:
      return &UnaryBlock<T, AbsOp>;
    case OpCode::Sqrt:
      return &UnaryBlock<T, SqrtOp>;
    case OpCode::Floor:
      return &UnaryBlock<T, FloorOp>;
    case OpCode::Ceil:
      return &UnaryBlock<T, CeilOp>;
    case OpCode::Round:
      return &UnaryBlock<T, RoundOp>;
    case OpCode::Trunc:
      return &UnaryBlock<T, TruncOp>;
    case OpCode::Exp:
      return &UnaryBlock<T, ExpOp>;
    case OpCode::Log:
      return &UnaryBlock<T, LogOp>;
    case OpCode::Sin:
      return &UnaryBlock<T, SinCosOp<true>>;
    case OpCode::Cos:
      return &UnaryBlock<T, SinCosOp<false>>;
    case OpCode::Tanh:
      return &UnaryBlock<T, TanhOp>;
    case OpCode::Add:
      return &BinaryBlock<T, AddOp>;
    case OpCode::Sub:
      return &BinaryBlock<T, SubOp>;
    case OpCode::Mul:
      return &BinaryBlock<T, MulOp>;
    case OpCode::Div:
      return &BinaryBlock<T, DivOp>;
    case OpCode::FloorDiv:
      return &BinaryBlock<T, FloorDivOp>;
    case OpCode::Min:
      return &BinaryBlock<T, MinOp>;
    case OpCode::Max:
      return &BinaryBlock<T, MaxOp>;
    case OpCode::NextAfter:
      return &BinaryBlock<T, NextAfterOp>;
    default:
      return nullptr;
  }
}

}  // namespace

BlockFn SimdKernel(OpCode op, DType t) {
  if (t == DType::Float32) return KernelFor<float>(op);
  if (t == DType::Float64) return KernelFor<double>(op);
  return nullptr;
}

const char* TargetName() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace switchyard::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace switchyard::cpu {

HWY_EXPORT(SimdKernel);
HWY_EXPORT(TargetName);

BlockFn simd_block_kernel(ir::OpCode op, DType t) {
  apply_simd_cap();
  return HWY_DYNAMIC_DISPATCH(SimdKernel)(op, t);
}

const char* simd_target_name() {
  apply_simd_cap();
  return HWY_DYNAMIC_DISPATCH(TargetName)();
}

}  // namespace switchyard::cpu
#endif  // HWY_ONCE

#include "backends/cpu/reductions.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "backends/cpu/element_ops.hpp"
#include "backends/cpu/simd_folds.hpp"

namespace switchyard::cpu {
namespace {

using ir::ReduceOp;

template <class T>
constexpr bool kFloat = std::is_floating_point_v<T>;

template <class T>
auto& value(Partial& p) {
  if constexpr (kFloat<T>)
    return p.f;
  else
    return p.i;
}
template <class T>
auto value(const Partial& p) {
  if constexpr (kFloat<T>)
    return p.f;
  else
    return p.i;
}

template <class T>
const FloatBlockFolds<T>& simd_folds() {
  if constexpr (std::is_same_v<T, float>)
    return simd_folds_f32();
  else
    return simd_folds_f64();
}

template <class T, bool kMax>
T extreme(const T* x, std::int64_t n) {
  if constexpr (kFloat<T>) {
    return kMax ? simd_folds<T>().max(x, n) : simd_folds<T>().min(x, n);
  } else {
    T m = x[0];
    for (std::int64_t i = 1; i < n; ++i) m = kMax ? std::max(m, x[i]) : std::min(m, x[i]);
    return m;
  }
}

// Position of the first element equal to the block's extreme m (or of the first NaN).
template <class T>
std::int64_t first_position(const T* x, T m) {
  std::int64_t k = 0;
  if constexpr (kFloat<T>)
    if (std::isnan(m)) {
      while (!std::isnan(x[k])) ++k;
      return k;
    }
  while (x[k] != m) ++k;
  return k;
}

// Bool and integer sums and products accumulate in int64 and wrap around, as NumPy's do.
template <class T>
std::int64_t int_sum(const T* x, std::int64_t n) {
  std::uint64_t s = 0;
  for (std::int64_t i = 0; i < n; ++i)
    s += static_cast<std::uint64_t>(static_cast<std::int64_t>(x[i]));
  return static_cast<std::int64_t>(s);
}
template <class T>
std::int64_t int_prod(const T* x, std::int64_t n) {
  std::int64_t p = 1;
  for (std::int64_t i = 0; i < n; ++i) p = element::wrap_mul(p, static_cast<std::int64_t>(x[i]));
  return p;
}

constexpr bool is_max(ReduceOp op) {
  return op == ReduceOp::Max || op == ReduceOp::ArgMax;
}

// Computes the Partial of n >= 1 values.
template <class T, ReduceOp kOp>
Partial block_partial(const T* x, std::int64_t n, std::int64_t first) {
  Partial p;
  p.empty = false;
  if constexpr (kOp == ReduceOp::Sum) {
    if constexpr (kFloat<T>)
      p.f = simd_folds<T>().sum(x, n);
    else
      p.i = int_sum(x, n);
  } else if constexpr (kOp == ReduceOp::Prod) {
    if constexpr (kFloat<T>)
      p.f = simd_folds<T>().prod(x, n);
    else
      p.i = int_prod(x, n);
  } else {
    const T m = extreme<T, is_max(kOp)>(x, n);
    value<T>(p) = m;
    if constexpr (kOp == ReduceOp::ArgMin || kOp == ReduceOp::ArgMax)
      p.index = first + first_position(x, m);
  }
  return p;
}

// Merges two non-empty Partials; `later` covers later positions, so ties keep `acc`.
template <class T, ReduceOp kOp>
void merge(Partial& acc, const Partial& later) {
  auto& a = value<T>(acc);
  const auto b = value<T>(later);
  if constexpr (kOp == ReduceOp::Sum) {
    if constexpr (kFloat<T>)
      a += b;
    else
      a = element::wrap_add(a, b);
  } else if constexpr (kOp == ReduceOp::Prod) {
    if constexpr (kFloat<T>)
      a = static_cast<T>(static_cast<T>(a) * static_cast<T>(b));
    else
      a = element::wrap_mul(a, b);
  } else if constexpr (kOp == ReduceOp::Min) {
    a = element::min(a, b);
  } else if constexpr (kOp == ReduceOp::Max) {
    a = element::max(a, b);
  } else {
    if constexpr (kFloat<T>) {
      if (std::isnan(a)) return;
      if (std::isnan(b)) return void(acc = later);
    }
    if (is_max(kOp) ? b > a : b < a) acc = later;
  }
}

template <class T, ReduceOp kOp>
void combine(Partial& acc, const Partial& later) {
  if (later.empty) return;
  if (acc.empty) return void(acc = later);
  merge<T, kOp>(acc, later);
}

template <class T, ReduceOp kOp>
void fold_block(const void* values, std::int64_t n, std::int64_t first, Partial& acc) {
  if (n == 0) return;
  combine<T, kOp>(acc, block_partial<T, kOp>(static_cast<const T*>(values), n, first));
}

template <class T, ReduceOp kOp>
void store(const Partial& acc, void* out) {
  if constexpr (kOp == ReduceOp::ArgMin || kOp == ReduceOp::ArgMax) {
    *static_cast<std::int64_t*>(out) = acc.index;
  } else if constexpr (kOp == ReduceOp::Min || kOp == ReduceOp::Max) {
    *static_cast<T*>(out) = static_cast<T>(value<T>(acc));
  } else {
    using R = std::conditional_t<kFloat<T>, T, std::int64_t>;
    const auto identity = kOp == ReduceOp::Sum ? 0 : 1;
    *static_cast<R*>(out) = acc.empty ? R(identity) : static_cast<R>(value<T>(acc));
  }
}

template <ReduceOp kOp>
Fold fold_of(DType t) {
  return visit_dtype(t, [](auto v) {
    using T = decltype(v);
    return Fold{&fold_block<T, kOp>, &combine<T, kOp>, &store<T, kOp>};
  });
}

}  // namespace

Fold fold_for(ReduceOp op, DType t) {
  switch (op) {
    case ReduceOp::Sum:
      return fold_of<ReduceOp::Sum>(t);
    case ReduceOp::Prod:
      return fold_of<ReduceOp::Prod>(t);
    case ReduceOp::Min:
      return fold_of<ReduceOp::Min>(t);
    case ReduceOp::Max:
      return fold_of<ReduceOp::Max>(t);
    case ReduceOp::ArgMin:
      return fold_of<ReduceOp::ArgMin>(t);
    case ReduceOp::ArgMax:
      break;
  }
  return fold_of<ReduceOp::ArgMax>(t);
}

}  // namespace switchyard::cpu

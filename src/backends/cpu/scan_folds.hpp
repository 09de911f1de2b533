// The folds a scan runs (sum, product, minimum, maximum) per element type, with the identity an
// exclusive scan starts from. As NumPy: integers wrap around, float minimum and maximum
// propagate NaN, and on bool the sum and maximum are "or", the product and minimum "and".
#pragma once

#include <limits>
#include <type_traits>

#include "backends/cpu/element_ops.hpp"
#include "ir/kernel_ir.hpp"

namespace switchyard::cpu {

template <class T, ir::ReduceOp Op>
struct Fold {
  static constexpr bool kOr = Op == ir::ReduceOp::Sum || Op == ir::ReduceOp::Max;

  static constexpr T identity() {
    if constexpr (std::is_same_v<T, bool>) return !kOr;
    if constexpr (Op == ir::ReduceOp::Sum) return T{0};
    if constexpr (Op == ir::ReduceOp::Prod) return T{1};
    using Limits = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<T>)
      return Op == ir::ReduceOp::Min ? Limits::infinity() : -Limits::infinity();
    return Op == ir::ReduceOp::Min ? Limits::max() : Limits::lowest();
  }

  static T combine(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return kOr ? (a || b) : (a && b);
    } else if constexpr (Op == ir::ReduceOp::Sum) {
      if constexpr (element::kIsInt<T>) return element::wrap_add(a, b);
      return a + b;
    } else if constexpr (Op == ir::ReduceOp::Prod) {
      if constexpr (element::kIsInt<T>) return element::wrap_mul(a, b);
      return a * b;
    } else if constexpr (Op == ir::ReduceOp::Min) {
      return (a < b || a != a) ? a : b;  // a != a: a is NaN and stays
    } else {
      return (a > b || a != a) ? a : b;
    }
  }
};

}  // namespace switchyard::cpu

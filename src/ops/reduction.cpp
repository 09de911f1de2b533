// Reductions over all elements, one axis or several, recorded as nodes of the lazy graph: the
// fusion pass runs each with its producer (the expression it reduces) in one kernel.
#include <span>
#include <string>

#include "core/checked.hpp"
#include "expr/node.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

// Bit i set: axis i of an array of rank `rank` is reduced (all of them when `axes` is absent).
std::uint32_t axis_mask(std::string_view fn, const Array& a,
                        std::optional<std::span<const int>> axes) {
  const int rank = a.ndim();
  if (!axes) return rank == 0 ? 0 : static_cast<std::uint32_t>((1ull << rank) - 1);
  std::uint32_t mask = 0;
  for (int axis : *axes) {
    const std::uint32_t bit = 1u << normalize_axis(axis, rank);
    if (mask & bit)
      throw ValueError(std::string(fn) + " repeats axis " + std::to_string(axis) +
                       ": expected each axis at most once");
    mask |= bit;
  }
  return mask;
}

Array reduce(ir::ReduceOp op, const Array& a, std::optional<std::span<const int>> axes,
             bool keepdims) {
  const std::string_view fn = ir::name(op);
  if (!a) throw ValueError(std::string(fn) + " of a null Array: expected an array");
  const expr::ReduceSpec spec{op, axis_mask(fn, a, axes), keepdims};
  Shape out_shape;
  std::int64_t reduced = 1;
  for (int i = 0; i < a.ndim(); ++i) {
    if ((spec.axes >> i) & 1u) {
      reduced *= a.shape()[i];
      if (keepdims) out_shape.push_back(1);
    } else {
      out_shape.push_back(a.shape()[i]);
    }
  }
  const bool has_identity = op == ir::ReduceOp::Sum || op == ir::ReduceOp::Prod;
  if (reduced == 0 && !has_identity)
    throw ValueError(std::string(fn) + " of an empty array (shape " + to_string(a.shape()) +
                     "): expected at least one element, since it has no identity");
  const DType result = ir::reduce_result(op, a.dtype());
  byte_count(out_shape, result);
  return Array(expr::make_reduce(spec, result, out_shape, expr::node_of(a)));
}

std::optional<std::span<const int>> one_axis(const std::optional<int>& axis) {
  if (!axis) return std::nullopt;
  return std::span<const int>(&*axis, 1);
}

Array mean_over(const Array& a, std::optional<std::span<const int>> axes, bool keepdims) {
  const Array total = reduce(ir::ReduceOp::Sum, a, axes, keepdims);
  const std::uint32_t mask = axis_mask("mean", a, axes);
  std::int64_t count = 1;
  for (int i = 0; i < a.ndim(); ++i)
    if ((mask >> i) & 1u) count *= a.shape()[i];
  const DType t = is_floating(a.dtype()) ? a.dtype() : DType::Float64;
  return divide(total.dtype() == t ? total : total.astype(t), static_cast<double>(count));
}

}  // namespace

#define SWITCHYARD_DEFINE_REDUCTION(fn, op)                            \
  Array fn(const Array& a, std::optional<int> axis, bool keepdims) {   \
    return reduce(ir::ReduceOp::op, a, one_axis(axis), keepdims);      \
  }                                                                    \
  Array fn(const Array& a, std::span<const int> axes, bool keepdims) { \
    return reduce(ir::ReduceOp::op, a, axes, keepdims);                \
  }
SWITCHYARD_DEFINE_REDUCTION(sum, Sum)
SWITCHYARD_DEFINE_REDUCTION(prod, Prod)
SWITCHYARD_DEFINE_REDUCTION(min, Min)
SWITCHYARD_DEFINE_REDUCTION(max, Max)
#undef SWITCHYARD_DEFINE_REDUCTION

Array argmin(const Array& a, std::optional<int> axis, bool keepdims) {
  return reduce(ir::ReduceOp::ArgMin, a, one_axis(axis), keepdims);
}
Array argmax(const Array& a, std::optional<int> axis, bool keepdims) {
  return reduce(ir::ReduceOp::ArgMax, a, one_axis(axis), keepdims);
}

Array mean(const Array& a, std::optional<int> axis, bool keepdims) {
  return mean_over(a, one_axis(axis), keepdims);
}
Array mean(const Array& a, std::span<const int> axes, bool keepdims) {
  return mean_over(a, axes, keepdims);
}

}  // namespace switchyard

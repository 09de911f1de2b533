// Reductions over all elements or one axis, recorded as nodes of the lazy graph: the fusion
// pass runs each with its producer (the expression it reduces) in one kernel.
#include <string>

#include "core/checked.hpp"
#include "expr/node.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

Array reduce(ir::ReduceOp op, const Array& a, std::optional<int> axis) {
  if (!a) throw ValueError(std::string(ir::name(op)) + " of a null Array: expected an array");
  expr::ReduceSpec spec{op};
  Shape out_shape;
  std::int64_t reduced = a.size();
  if (axis) {
    const int ax = normalize_axis(*axis, a.ndim());
    for (int i = 0; i < a.ndim(); ++i)
      if (i != ax) out_shape.push_back(a.shape()[i]);
    spec.axes = 1u << ax;
    reduced = a.shape()[ax];
  } else {
    spec.axes = a.ndim() == 0 ? 0 : (1u << a.ndim()) - 1;
  }
  const bool has_identity = op == ir::ReduceOp::Sum || op == ir::ReduceOp::Prod;
  if (reduced == 0 && !has_identity)
    throw ValueError(std::string(ir::name(op)) + " of an empty array (shape " +
                     to_string(a.shape()) +
                     "): expected at least one element, since it has no identity");
  const DType result = ir::reduce_result(op, a.dtype());
  byte_count(out_shape, result);
  return Array(expr::make_reduce(spec, result, out_shape, expr::node_of(a)));
}

}  // namespace

Array sum(const Array& a, std::optional<int> axis) {
  return reduce(ir::ReduceOp::Sum, a, axis);
}
Array prod(const Array& a, std::optional<int> axis) {
  return reduce(ir::ReduceOp::Prod, a, axis);
}
Array min(const Array& a, std::optional<int> axis) {
  return reduce(ir::ReduceOp::Min, a, axis);
}
Array max(const Array& a, std::optional<int> axis) {
  return reduce(ir::ReduceOp::Max, a, axis);
}
Array argmin(const Array& a, std::optional<int> axis) {
  return reduce(ir::ReduceOp::ArgMin, a, axis);
}
Array argmax(const Array& a, std::optional<int> axis) {
  return reduce(ir::ReduceOp::ArgMax, a, axis);
}

Array mean(const Array& a, std::optional<int> axis) {
  const Array total = sum(a, axis);
  const std::int64_t count = axis ? a.shape()[normalize_axis(*axis, a.ndim())] : a.size();
  const DType t = is_floating(a.dtype()) ? a.dtype() : DType::Float64;
  return divide(total.dtype() == t ? total : total.astype(t), static_cast<double>(count));
}

}  // namespace switchyard

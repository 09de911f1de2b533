// Reductions over all elements or one axis. An axis reduction is launched with that axis moved
// last, so the IR only knows "over all" and "over the last axis".
#include <string>

#include "core/checked.hpp"
#include "runtime/executor.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

Array reduce(ir::ReduceOp op, const Array& a, std::optional<int> axis) {
  if (!a) throw ValueError(std::string(ir::name(op)) + " of a null Array: expected an array");
  Array source = a;
  Shape out_shape;
  std::int64_t reduced = a.size();
  if (axis) {
    const int ax = normalize_axis(*axis, a.ndim());
    std::vector<int> order;
    for (int i = 0; i < a.ndim(); ++i)
      if (i != ax) order.push_back(i), out_shape.push_back(a.shape()[i]);
    order.push_back(ax);
    source = a.permute(order);
    reduced = a.shape()[ax];
  }
  const bool has_identity = op == ir::ReduceOp::Sum || op == ir::ReduceOp::Prod;
  if (reduced == 0 && !has_identity)
    throw ValueError(std::string(ir::name(op)) + " of an empty array (shape " +
                     to_string(a.shape()) +
                     "): expected at least one element, since it has no identity");
  byte_count(out_shape, ir::reduce_result(op, a.dtype()));
  const runtime::LaunchInput in = runtime::launch_input(source, source.shape());
  ir::KernelBuilder k;
  k.output(k.load(a.dtype(), in.layout));
  k.reduce(op, axis ? ir::ReduceOver::TrailingAxes : ir::ReduceOver::All);
  return runtime::run(k.build(), source.shape(), out_shape, std::span(&in, 1));
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

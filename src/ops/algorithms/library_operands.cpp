#include "ops/algorithms/library_operands.hpp"

#include <string>

#include "expr/node.hpp"
#include "expr/realize.hpp"
#include "ops/nodes.hpp"

namespace switchyard::algorithms {
namespace {

// The stored array behind `a`, realising it first when pending.
Array stored(const Array& a) {
  if (!a.node()) return a;
  if (a.pending()) expr::realize_for(a.node(), expr::FusionStop::LibraryOp);
  return array_of(a.node()->value());
}

}  // namespace

void require_array(std::string_view fn, const Array& a) {
  if (!a) throw ValueError(std::string(fn) + " of a null Array: expected an array");
}

Array contiguous_operand(const Array& a) {
  const runtime::MakingLibraryOperands operands;
  const Array s = stored(a);
  return s.is_contiguous() ? s : stored(s.copy());
}

AxisLast move_axis_last(const Array& a, int axis) {
  std::vector<int> order;
  for (int i = 0; i < a.ndim(); ++i)
    if (i != axis) order.push_back(i);
  order.push_back(axis);
  return {contiguous_operand(a.permute(order)), order};
}

Array restore_axis_order(const Array& result, const std::vector<int>& order) {
  std::vector<int> inverse(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int>(i);
  return result.permute(inverse);
}

Array flattened(const Array& a) {
  return a.reshape(Shape{a.size()});
}

std::vector<Array> run_library_op(const LibraryOp& op, const LibraryArgs& args,
                                  std::initializer_list<Array> inputs,
                                  std::initializer_list<runtime::LibraryOutput> outputs) {
  std::vector<runtime::View> views;
  for (const Array& x : inputs)
    views.push_back({x.buffer(), x.dtype(), x.shape(), x.strides(), x.offset()});
  std::vector<Array> results;
  for (const runtime::View& v : runtime::run_library(op, args, views, outputs))
    results.emplace_back(v.buffer, v.dtype, v.shape, v.strides, v.offset);
  return results;
}

}  // namespace switchyard::algorithms

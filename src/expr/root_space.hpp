// Where a kernel's elements come from: its iteration space, and how an array of its root's shape
// is viewed over it. The fusion pass and the eager plan (eager_plan.hpp) build their kernels
// over it, so that one op realised either way is the same kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "core/geometry.hpp"
#include "expr/node.hpp"
#include "ir/kernel_ir.hpp"

namespace switchyard::expr {

struct RootSpace {
  Shape shape;             // iteration space
  Shape broadcast_to;      // what every array is first broadcast to
  std::vector<int> order;  // then permuted (empty: not)
  ir::ReduceOver over = ir::ReduceOver::All;
  bool reduction = false;
  std::uint32_t axes = 0;  // reduced axes of broadcast_to (reductions)

  // Axes a reduction folds per output element, as its reduce instruction counts them.
  int reduced_axes() const;

  friend bool operator==(const RootSpace& a, const RootSpace& b) {
    return a.reduction == b.reduction && a.broadcast_to == b.broadcast_to && a.axes == b.axes;
  }
};

// The space of `root`, whose first operand is `operand`: for a reduction the operand's shape
// with the reduced axes moved last, else root's own shape.
RootSpace space_of(const Node& root, const NodePtr& operand);

// `g` (an array's geometry, already through any enclosing views) over the space: broadcast,
// then permuted.
Geometry over_space(Geometry g, const RootSpace& space);

}  // namespace switchyard::expr

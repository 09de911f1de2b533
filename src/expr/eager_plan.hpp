// The plan of an eager op: one elementwise op over values already computed (or scalars), or one
// reduction of a computed value, what a program written op by op (NumPy style) realises at every
// step. Its kernel depends only on the
// op and on each operand's dtype, layout and argument slot, so it is built and hashed once per
// thread and shared; planning it then walks no graph and builds no IR.
#pragma once

#include <optional>

#include "expr/fusion.hpp"
#include "expr/node.hpp"

namespace switchyard::expr {

// The one kernel realising `root`, the same kernel the fusion pass would build for it (same IR,
// same signature); nullopt when root is neither an elementwise op over ready operands and scalars
// nor a reduction of a ready operand.
std::optional<PlannedKernel> plan_eager_op(const NodePtr& root);

}  // namespace switchyard::expr

#include "ops/contiguous.hpp"

#include "expr/node.hpp"
#include "ops/nodes.hpp"
#include "runtime/executor.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {

Array contiguous_storage(const Array& a) {
  const runtime::MakingLibraryOperands operands;
  Array stored = a;
  if (a.node()) {
    eval(a);
    stored = array_of(a.node()->value());  // the realised value, with its own layout
  }
  return stored.is_contiguous() ? stored : contiguous_storage(stored.copy());
}

}  // namespace switchyard

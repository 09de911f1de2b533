// Where arrays meet the lazy graph (expr/node.hpp): the node an operation on an array reads, and
// the array over a node's realised value.
#pragma once

#include "expr/node.hpp"
#include "runtime/executor.hpp"
#include "switchyard/array.hpp"

namespace switchyard {

// The node standing for `a`: its pending node, or a new leaf over its storage. Throws DTypeError
// for a complex array, which elementwise operations and reductions do not take.
expr::NodePtr node_of(const Array& a);

Array array_of(const runtime::View& value);

}  // namespace switchyard

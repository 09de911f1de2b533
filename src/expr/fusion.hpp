// The fusion pass: from the pending nodes someone needs to the kernels that compute them.
//
// Nodes are grouped by iteration space: elementwise roots of one shape share a kernel (one
// output each), a reduction's kernel runs over its operand with the reduced axes moved last.
// Within a kernel every pending node under a root becomes instructions once (identical nodes,
// and identical loads of one input, are emitted once); broadcasting and views become the strides
// each input is loaded through, so neither copies. Whatever a kernel cannot contain must be
// realised first: a reduction whose result another node consumes.
#pragma once

#include <string>
#include <vector>

#include "expr/node.hpp"
#include "runtime/executor.hpp"

namespace switchyard::expr {

// Why a pending graph was cut into more than one kernel (shown by explain).
enum class FusionStop : std::uint8_t {
  ReductionConsumed,  // a reduction's result is read by another node: it is realised first
  GraphBound,         // the graph outgrew kMaxGraphSize nodes or the backends' input limit
  Reshape,            // reshaping a pending result that is not a view of it
  LibraryOp,          // a library operation (matmul) reads materialised operands
  IterationSpace,     // results of different shapes or reductions are different kernels
  DeviceScope,        // an operand was made under another DeviceScope: it runs there first
};
std::string_view name(FusionStop stop);

// Whether two nodes were made under the same DeviceScope (or both under none).
bool same_pin(const Node& a, const Node& b);

struct PlannedKernel {
  runtime::Group group;
  std::vector<NodePtr> roots;  // output i realises roots[i]
};

// Nodes (pending, not ready) that must be realised before `roots` can be planned.
std::vector<NodePtr> dependencies(const std::vector<NodePtr>& roots);

// The kernels realising `roots`, which must be pending with no pending dependencies.
std::vector<PlannedKernel> plan(const std::vector<NodePtr>& roots);

}  // namespace switchyard::expr

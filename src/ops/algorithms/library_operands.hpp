// How the algorithms hand arrays to a library op: operands realised and in C order, an axis
// moved last (rows × length) and back, outputs returned as arrays.
#pragma once

#include <initializer_list>
#include <string_view>
#include <vector>

#include "runtime/executor.hpp"
#include "switchyard/array.hpp"

namespace switchyard::algorithms {

// Throws ValueError for a null array, naming the function.
void require_array(std::string_view fn, const Array& a);

// The elements of `a` in C order in storage: a pending array is realised (its fusion ends at the
// library op), a strided view copied; a contiguous stored array is itself.
Array contiguous_operand(const Array& a);

// `a` with `axis` moved last, contiguous, and the axis order that view took.
struct AxisLast {
  Array rows;
  std::vector<int> order;
};
AxisLast move_axis_last(const Array& a, int axis);
// A view of `result` (laid out as move_axis_last's rows) in the original axis order: no copy.
Array restore_axis_order(const Array& result, const std::vector<int>& order);

// The elements of `a` as one axis (a view when the strides allow it).
Array flattened(const Array& a);

// Runs `op` on the operands (a, then b), returning its outputs (c, then d).
std::vector<Array> run_library_op(const LibraryOp& op, const LibraryArgs& args,
                                  std::initializer_list<Array> inputs,
                                  std::initializer_list<runtime::LibraryOutput> outputs);

}  // namespace switchyard::algorithms

// Sorting along one axis: the axis is moved last and each row sorted by the library op; top_k
// reads the ends of the stable ascending order.
#include <string>

#include "ops/algorithms/library_operands.hpp"
#include "switchyard/algorithms.hpp"

namespace switchyard {
namespace {

void require_numeric(std::string_view fn, const Array& a) {
  algorithms::require_array(fn, a);
  if (a.dtype() == DType::Bool)
    throw DTypeError(std::string(fn) +
                     " of a bool array: expected a numeric dtype (int32, int64, " +
                     "float32 or float64; cast with astype)");
}

// The sorted values and, with `indices`, the stable permutation, both in a's axis order.
std::vector<Array> sort_along(const Array& a_in, std::optional<int> axis_in, bool indices) {
  const Array a = axis_in ? a_in : algorithms::flattened(a_in);
  const int axis = normalize_axis(axis_in.value_or(0), a.ndim());
  if (a.size() == 0) {
    std::vector<Array> empty{Array::zeros(a.shape(), a.dtype())};
    if (indices) empty.push_back(Array::zeros(a.shape(), DType::Int64));
    return empty;
  }
  const algorithms::AxisLast in = algorithms::move_axis_last(a, axis);
  LibraryOp op{LibraryOp::Kind::Sort, a.dtype()};
  op.indices = indices;
  LibraryArgs args;
  args.length = a.shape()[axis];
  args.rows = a.size() / args.length;
  const Shape& rows = in.rows.shape();
  std::vector<Array> out =
      indices ? algorithms::run_library_op(op, args, {in.rows},
                                           {{a.dtype(), rows}, {DType::Int64, rows}})
              : algorithms::run_library_op(op, args, {in.rows}, {{a.dtype(), rows}});
  for (Array& x : out) x = algorithms::restore_axis_order(x, in.order);
  return out;
}

}  // namespace

Array sort(const Array& a, std::optional<int> axis) {
  require_numeric("sort", a);
  return sort_along(a, axis, false).front();
}

Array argsort(const Array& a, std::optional<int> axis) {
  require_numeric("argsort", a);
  return sort_along(a, axis, true).back();
}

TopK top_k(const Array& a, std::int64_t k, int axis_in, bool largest) {
  require_numeric("top_k", a);
  const int axis = normalize_axis(axis_in, a.ndim());
  const std::int64_t extent = a.shape()[axis];
  if (k < 0 || k > extent)
    throw ValueError("top_k with k = " + std::to_string(k) + " along axis " +
                     std::to_string(axis_in) + " of extent " + std::to_string(extent) +
                     ": expected 0 <= k <= " + std::to_string(extent));
  const std::vector<Array> sorted = sort_along(a, axis, true);
  // Copies, so that the whole sorted axis is not kept alive by k elements of it.
  auto ends = [&](const Array& x) {
    if (!largest) return x.slice(axis, 0, k).copy();
    const std::int64_t stop = extent - 1 - k;
    return x.slice(axis, extent - 1, stop >= 0 ? std::optional(stop) : std::nullopt, -1).copy();
  };
  return {ends(sorted[0]), ends(sorted[1])};
}

}  // namespace switchyard

// Sorting along one axis: the axis is moved last and each row sorted by the library op (complex
// rows by three of them); top_k reads the ends of the stable ascending order.
#include <string>

#include "ops/algorithms/library_operands.hpp"
#include "switchyard/algorithms.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

void require_numeric(std::string_view fn, const Array& a) {
  algorithms::require_array(fn, a);
  if (a.dtype() == DType::Bool)
    throw DTypeError(std::string(fn) +
                     " of a bool array: expected a numeric dtype (int32, int64, float32, " +
                     "float64, complex64 or complex128; cast with astype)");
}

// Each row (the last axis) of contiguous `rows` sorted by the library op: the values and, with
// `indices`, the stable permutation.
std::vector<Array> sort_rows(const Array& rows, bool indices) {
  LibraryOp op{LibraryOp::Kind::Sort, rows.dtype()};
  op.indices = indices;
  LibraryArgs args;
  args.length = rows.shape().back();
  args.rows = rows.size() / args.length;
  const Shape& shape = rows.shape();
  return indices ? algorithms::run_library_op(op, args, {rows},
                                              {{rows.dtype(), shape}, {DType::Int64, shape}})
                 : algorithms::run_library_op(op, args, {rows}, {{rows.dtype(), shape}});
}

// Complex rows in NumPy's order: those with no NaN part first, then those with a NaN imaginary
// part, a NaN real part, both (R + Rj < R + nanj < nan + Rj < nan + nanj); within each, by real
// part, then imaginary part. Three stable sorts, from the last key to the first: ties (-0 and 0
// included) keep their positions, as a real sort's do.
std::vector<Array> sort_complex_rows(const Array& rows_in) {
  const std::int64_t length = rows_in.shape().back(), count = rows_in.size() / length;
  const Array rows = rows_in.reshape(Shape{count, length});
  // Row r's elements are at r · length + i of the flattened rows: one take gathers every row.
  const Array starts =
      Array::arange(std::int64_t{0}, count * length, length).reshape(Shape{count, 1});
  const auto along_rows = [&](const Array& values, const Array& permutation) {
    return take(values, add(permutation, starts));
  };
  Array order;
  const auto then_by = [&](const Array& keys) {
    const auto by = [](const Array& k) {
      return sort_rows(algorithms::contiguous_operand(k), true).back();
    };
    order = order ? along_rows(order, by(along_rows(keys, order))) : by(keys);
  };
  const Array re = real(rows), im = imag(rows);
  then_by(im);
  then_by(re);
  then_by(isnan(im).astype(DType::Int32) + isnan(re).astype(DType::Int32) * 2);
  return {along_rows(rows, order).reshape(rows_in.shape()), order.reshape(rows_in.shape())};
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
  std::vector<Array> out =
      is_complex(a.dtype()) ? sort_complex_rows(in.rows) : sort_rows(in.rows, indices);
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

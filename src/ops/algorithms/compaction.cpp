// Selection whose size depends on the data: compress (a[mask]), nonzero and flatnonzero. The
// library op writes into an output of the full length and reports the count; the result is that
// many leading elements.
#include <string>

#include "ops/algorithms/library_operands.hpp"
#include "switchyard/algorithms.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

// The first `count` elements of `full`: a view, or a right-sized copy when most of `full` would
// be kept alive for nothing.
Array leading(const Array& full, std::int64_t count) {
  const Array kept = full.slice(0, 0, count);
  if (count >= full.size() / 2) return kept;
  const Array copy = kept.copy();
  eval(copy);
  return copy;
}

// The elements of `values` (or, with `positions`, their positions) where `mask` is true; both
// 1-D of one length, mask bool.
Array compact(const Array& values, const Array& mask, bool positions) {
  const std::int64_t n = mask.size();
  const DType out = positions ? DType::Int64 : values.dtype();
  if (n == 0) return Array::zeros(Shape{0}, out);
  const Array a = algorithms::contiguous_operand(values);
  const Array b = positions ? a : algorithms::contiguous_operand(mask);
  LibraryOp op{LibraryOp::Kind::Compact, values.dtype()};
  op.indices = positions;
  LibraryArgs args;
  args.rows = 1;
  args.length = n;
  const std::vector<Array> result =
      algorithms::run_library_op(op, args, {a, b}, {{out, Shape{n}}, {DType::Int64, Shape{1}}});
  return leading(result[0], result[1].item<std::int64_t>());
}

// The flat positions where `a` is non-zero.
Array flat_positions(const Array& a) {
  const Array flat = algorithms::flattened(a);
  const Array mask = flat.dtype() == DType::Bool ? flat : not_equal(flat, 0);
  return compact(mask, mask, true);
}

}  // namespace

Array compress(const Array& a, const Array& mask) {
  algorithms::require_array("compress", a);
  algorithms::require_array("compress", mask);
  if (mask.dtype() != DType::Bool)
    throw DTypeError("compress with a " + std::string(name(mask.dtype())) +
                     " mask: expected a bool mask (compare, or cast with astype)");
  // a[mask] with a mask of another shape is NumPy's IndexError.
  if (mask.shape() != a.shape())
    throw IndexError("boolean index of shape " + to_string(mask.shape()) +
                     " did not match indexed array of shape " + to_string(a.shape()) +
                     ": expected the mask to have the array's shape");
  // Complex elements move as their (re, im) pairs: a gather (take) from the kept positions.
  if (is_complex(a.dtype())) return take(a, flat_positions(mask));
  return compact(algorithms::flattened(a), algorithms::flattened(mask), false);
}

Array flatnonzero(const Array& a) {
  algorithms::require_array("flatnonzero", a);
  return flat_positions(a);
}

std::vector<Array> nonzero(const Array& a) {
  algorithms::require_array("nonzero", a);
  if (a.ndim() == 0)
    throw ValueError(
        "nonzero of a 0-d array: expected at least one axis (as NumPy 2; use "
        "a.reshape({1}))");
  const Array flat = flat_positions(a);
  std::vector<Array> per_axis(a.ndim());
  std::int64_t stride = 1;
  for (int i = a.ndim() - 1; i >= 0; --i) {
    const Array along = stride == 1 ? flat : floor_divide(flat, stride);
    per_axis[i] = i == 0 ? along : mod(along, a.shape()[i]);
    stride *= a.shape()[i];
  }
  return per_axis;
}

}  // namespace switchyard

// take and integer/bool indexing: indices checked once with a fused min/max reduction, negative
// ones normalised in a fused expression, then one gather of rows × indices × inner elements.
#include <string>

#include "ops/algorithms/library_operands.hpp"
#include "ops/complex_parts.hpp"
#include "switchyard/algorithms.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

// Throws IndexError, as NumPy words it, unless every index lies in [-extent, extent).
void check_range(const Array& indices, int axis, std::int64_t extent) {
  if (indices.size() == 0) return;
  const Array low = min(indices), high = max(indices);
  eval(low, high);
  const std::int64_t lo = low.item<std::int64_t>(), hi = high.item<std::int64_t>();
  if (lo >= -extent && hi < extent) return;
  const std::int64_t bad = hi >= extent ? hi : lo;
  throw IndexError("take: index " + std::to_string(bad) + " is out of bounds for axis " +
                   std::to_string(axis) + " with size " + std::to_string(extent) + ": expected -" +
                   std::to_string(extent) + " <= index < " + std::to_string(extent));
}

}  // namespace

Array take(const Array& a_in, const Array& indices, std::optional<int> axis_in) {
  algorithms::require_array("take", a_in);
  algorithms::require_array("take", indices);
  if (indices.dtype() != DType::Int32 && indices.dtype() != DType::Int64)
    throw DTypeError("take with " + std::string(name(indices.dtype())) +
                     " indices: expected int32 or int64 indices");
  const Array a = axis_in ? a_in : algorithms::flattened(a_in);
  const int axis = normalize_axis(axis_in.value_or(0), a.ndim());
  const std::int64_t extent = a.shape()[axis];
  check_range(indices, axis, extent);
  // Complex elements move as their (re, im) pairs: the gather of the float view, the pair axis
  // riding along as the innermost one.
  if (is_complex(a.dtype()))
    return complex_parts::from_pairs(take(complex_parts::pairs_of(a), indices, axis));

  Shape out_shape;
  std::int64_t rows = 1, inner = 1;
  for (int i = 0; i < axis; ++i) out_shape.push_back(a.shape()[i]), rows *= a.shape()[i];
  for (std::int64_t e : indices.shape()) out_shape.push_back(e);
  for (int i = axis + 1; i < a.ndim(); ++i)
    out_shape.push_back(a.shape()[i]), inner *= a.shape()[i];
  if (element_count(out_shape) == 0) return Array::zeros(out_shape, a.dtype());

  const Array wide = indices.astype(DType::Int64);
  const Array positions = where(less(wide, 0), add(wide, extent), wide);
  LibraryOp op{LibraryOp::Kind::Gather, a.dtype()};
  LibraryArgs args;
  args.rows = rows;
  args.length = extent;
  args.inner = inner;
  args.count = indices.size();
  const Array source = algorithms::contiguous_operand(a);
  const Array flat_positions = algorithms::contiguous_operand(algorithms::flattened(positions));
  return algorithms::run_library_op(op, args, {source, flat_positions}, {{a.dtype(), out_shape}})
      .front();
}

Array Array::operator[](const Array& index) const {
  require();
  if (index && index.dtype() == DType::Bool) return compress(*this, index);
  return take(*this, index, 0);
}

}  // namespace switchyard

// Reductions over all elements, one axis or several, recorded as nodes of the lazy graph: the
// fusion pass runs each with its producer (the expression it reduces) in one kernel.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "core/checked.hpp"
#include "expr/node.hpp"
#include "ops/complex_parts.hpp"
#include "ops/nodes.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

// Bit i set: axis i of an array of rank `rank` is reduced (all of them when `axes` is absent).
std::uint32_t axis_mask(std::string_view fn, const Array& a,
                        std::optional<std::span<const int>> axes) {
  const int rank = a.ndim();
  if (!axes) return rank == 0 ? 0 : static_cast<std::uint32_t>((1ull << rank) - 1);
  std::uint32_t mask = 0;
  for (int axis : *axes) {
    const std::uint32_t bit = 1u << normalize_axis(axis, rank);
    if (mask & bit)
      throw ValueError(std::string(fn) + " repeats axis " + std::to_string(axis) +
                       ": expected each axis at most once");
    mask |= bit;
  }
  return mask;
}

// The result's shape and how many elements each result folds.
struct Reduced {
  Shape shape;
  std::int64_t count = 1;
};

Reduced reduced(const Array& a, std::uint32_t axes, bool keepdims) {
  Reduced r;
  for (int i = 0; i < a.ndim(); ++i) {
    if ((axes >> i) & 1u) {
      r.count *= a.shape()[i];
      if (keepdims) r.shape.push_back(1);
    } else {
      r.shape.push_back(a.shape()[i]);
    }
  }
  return r;
}

// A reduction over no axes (axis=(), or a 0-d array's axis=None) folds each element alone: the
// input in the result's dtype, as a new array, and index 0 for argmin/argmax.
Array reduce_nothing(ir::ReduceOp op, const Array& a, DType result) {
  if (op == ir::ReduceOp::ArgMin || op == ir::ReduceOp::ArgMax)
    return Array::zeros(a.shape(), result);
  return a.astype(result);
}

void require(const Array& a, std::string_view fn) {
  if (!a) throw ValueError(std::string(fn) + " of a null Array: expected an array");
}

Array reduce(ir::ReduceOp op, const Array& a, std::optional<std::span<const int>> axes,
             bool keepdims) {
  const std::string_view fn = ir::name(op);
  require(a, fn);
  const expr::ReduceSpec spec{op, axis_mask(fn, a, axes), keepdims};
  const Reduced r = reduced(a, spec.axes, keepdims);
  const bool has_identity = op == ir::ReduceOp::Sum || op == ir::ReduceOp::Prod;
  if (r.count == 0 && !has_identity)
    throw ValueError(std::string(fn) + " of an empty array (shape " + to_string(a.shape()) +
                     "): expected at least one element, since it has no identity");
  if ((op == ir::ReduceOp::Sum || op == ir::ReduceOp::Prod) && is_complex(a.dtype())) {
    std::vector<int> over;
    for (int i = 0; i < a.ndim(); ++i)
      if ((spec.axes >> i) & 1u) over.push_back(i);
    return op == ir::ReduceOp::Sum ? complex_parts::sum(a, over, keepdims)
                                   : complex_parts::prod(a, over, keepdims);
  }
  const DType result = ir::reduce_result(op, a.dtype());
  byte_count(r.shape, result);
  if (spec.axes == 0) return reduce_nothing(op, a, result);
  return Array(expr::make_reduce(spec, result, r.shape, node_of(a)));
}

// any and all: the maximum and minimum of the truth values, fused with the expression that
// produces the operand; folding nothing gives the identity (any: false, all: true).
Array truth_reduce(std::string_view fn, const Array& a, std::optional<std::span<const int>> axes,
                   bool keepdims) {
  require(a, fn);
  const bool is_any = fn == "any";
  const Reduced r = reduced(a, axis_mask(fn, a, axes), keepdims);
  if (r.count == 0) return Array::full(r.shape, is_any ? 0 : 1, DType::Bool);
  // A complex number is true where either part is nonzero.
  const Array truth =
      is_complex(a.dtype()) ? a != 0 : Array(expr::make_cast(node_of(a), DType::Bool));
  return reduce(is_any ? ir::ReduceOp::Max : ir::ReduceOp::Min, truth, axes, keepdims);
}

std::optional<std::span<const int>> one_axis(const std::optional<int>& axis) {
  if (!axis) return std::nullopt;
  return std::span<const int>(&*axis, 1);
}

// Floats and complex numbers keep their dtype; integers and bools are averaged in float64, as
// NumPy.
DType mean_dtype(DType t) {
  return is_floating(t) || is_complex(t) ? t : DType::Float64;
}

Array mean_over(const Array& a, std::optional<std::span<const int>> axes, bool keepdims) {
  const Array total = reduce(ir::ReduceOp::Sum, a, axes, keepdims);
  const Reduced r = reduced(a, axis_mask("mean", a, axes), keepdims);
  const DType t = mean_dtype(a.dtype());
  return divide(total.dtype() == t ? total : total.astype(t), static_cast<double>(r.count));
}

// Two passes, each one kernel: the mean, then the mean of squared deviations from it (more
// accurate than E[x²] - E[x]², which cancels catastrophically for data far from zero). Divides
// by max(N - ddof, 0), as NumPy: too few elements give inf or NaN.
Array var_over(const Array& a, std::optional<std::span<const int>> axes, bool keepdims,
               double ddof) {
  require(a, "var");
  const DType t = mean_dtype(a.dtype());
  const Array x = a.dtype() == t ? a : a.astype(t);
  const Array deviation = subtract(x, mean_over(x, axes, true));
  // |deviation|²: of a complex deviation re² + im², a real variance in its parts' dtype.
  const Array re = real(deviation), im = imag(deviation);
  const Array squared = is_complex(t) ? re * re + im * im : deviation * deviation;
  const Array squares = reduce(ir::ReduceOp::Sum, squared, axes, keepdims);
  const Reduced r = reduced(a, axis_mask("var", a, axes), keepdims);
  return divide(squares, std::max(static_cast<double>(r.count) - ddof, 0.0));
}

}  // namespace

#define SWITCHYARD_DEFINE_REDUCTION(fn, op)                            \
  Array fn(const Array& a, std::optional<int> axis, bool keepdims) {   \
    return reduce(ir::ReduceOp::op, a, one_axis(axis), keepdims);      \
  }                                                                    \
  Array fn(const Array& a, std::span<const int> axes, bool keepdims) { \
    return reduce(ir::ReduceOp::op, a, axes, keepdims);                \
  }
SWITCHYARD_DEFINE_REDUCTION(sum, Sum)
SWITCHYARD_DEFINE_REDUCTION(prod, Prod)
SWITCHYARD_DEFINE_REDUCTION(min, Min)
SWITCHYARD_DEFINE_REDUCTION(max, Max)
#undef SWITCHYARD_DEFINE_REDUCTION

Array argmin(const Array& a, std::optional<int> axis, bool keepdims) {
  return reduce(ir::ReduceOp::ArgMin, a, one_axis(axis), keepdims);
}
Array argmax(const Array& a, std::optional<int> axis, bool keepdims) {
  return reduce(ir::ReduceOp::ArgMax, a, one_axis(axis), keepdims);
}

Array any(const Array& a, std::optional<int> axis, bool keepdims) {
  return truth_reduce("any", a, one_axis(axis), keepdims);
}
Array any(const Array& a, std::span<const int> axes, bool keepdims) {
  return truth_reduce("any", a, axes, keepdims);
}
Array all(const Array& a, std::optional<int> axis, bool keepdims) {
  return truth_reduce("all", a, one_axis(axis), keepdims);
}
Array all(const Array& a, std::span<const int> axes, bool keepdims) {
  return truth_reduce("all", a, axes, keepdims);
}

Array var(const Array& a, std::optional<int> axis, bool keepdims, double ddof) {
  return var_over(a, one_axis(axis), keepdims, ddof);
}
Array var(const Array& a, std::span<const int> axes, bool keepdims, double ddof) {
  return var_over(a, axes, keepdims, ddof);
}
Array stddev(const Array& a, std::optional<int> axis, bool keepdims, double ddof) {
  return sqrt(var_over(a, one_axis(axis), keepdims, ddof));
}
Array stddev(const Array& a, std::span<const int> axes, bool keepdims, double ddof) {
  return sqrt(var_over(a, axes, keepdims, ddof));
}

Array mean(const Array& a, std::optional<int> axis, bool keepdims) {
  return mean_over(a, one_axis(axis), keepdims);
}
Array mean(const Array& a, std::span<const int> axes, bool keepdims) {
  return mean_over(a, axes, keepdims);
}

}  // namespace switchyard

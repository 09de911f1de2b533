// Cumulative folds along one axis: the axis is moved last and each row scanned by the library op.
#include "ops/algorithms/library_operands.hpp"
#include "ops/complex_parts.hpp"
#include "switchyard/algorithms.hpp"
#include "switchyard/complex.hpp"

namespace switchyard {
namespace {

ir::ReduceOp fold_of(Accumulate op) {
  switch (op) {
    case Accumulate::Sum:
      return ir::ReduceOp::Sum;
    case Accumulate::Prod:
      return ir::ReduceOp::Prod;
    case Accumulate::Min:
      return ir::ReduceOp::Min;
    case Accumulate::Max:
      break;
  }
  return ir::ReduceOp::Max;
}

}  // namespace

Array scan(const Array& a_in, Accumulate op, std::optional<int> axis_in, bool exclusive) {
  algorithms::require_array("scan", a_in);
  // A complex sum is the sums of its parts; a complex product is computed by multiplications.
  if (is_complex(a_in.dtype()) && op == Accumulate::Sum)
    return complex_from(scan(real(a_in), op, axis_in, exclusive),
                        scan(imag(a_in), op, axis_in, exclusive));
  if (is_complex(a_in.dtype()) && op == Accumulate::Prod) {
    const Array a = axis_in ? a_in : algorithms::flattened(a_in);
    return complex_parts::cumulative_prod(a, normalize_axis(axis_in.value_or(0), a.ndim()),
                                          exclusive);
  }
  const ir::ReduceOp fold = fold_of(op);
  const DType t = ir::reduce_result(fold, a_in.dtype());
  const Array shaped = axis_in ? a_in : algorithms::flattened(a_in);
  const Array a = shaped.dtype() == t ? shaped : shaped.astype(t);
  const int axis = normalize_axis(axis_in.value_or(0), a.ndim());
  if (a.size() == 0) return Array::zeros(a.shape(), t);

  const algorithms::AxisLast in = algorithms::move_axis_last(a, axis);
  LibraryOp library{LibraryOp::Kind::Scan, t};
  library.scan = fold;
  library.exclusive = exclusive;
  LibraryArgs args;
  args.length = a.shape()[axis];
  args.rows = a.size() / args.length;
  const Array out =
      algorithms::run_library_op(library, args, {in.rows}, {{t, in.rows.shape()}}).front();
  return algorithms::restore_axis_order(out, in.order);
}

Array cumsum(const Array& a, std::optional<int> axis) {
  return scan(a, Accumulate::Sum, axis);
}

Array cumprod(const Array& a, std::optional<int> axis) {
  return scan(a, Accumulate::Prod, axis);
}

}  // namespace switchyard

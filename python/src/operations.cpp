#include "operations.hpp"

#include <string>

namespace switchyard::python {
namespace {

// Each member's function-pointer type picks its overload of fn.
#define SWITCHYARD_BINARY(fn)                              \
  BinaryOp {                                               \
#fn, &switchyard::fn, &switchyard::fn, &switchyard::fn \
  }

const BinaryOp kBinary[] = {
    SWITCHYARD_BINARY(add),          SWITCHYARD_BINARY(subtract),
    SWITCHYARD_BINARY(multiply),     SWITCHYARD_BINARY(divide),
    SWITCHYARD_BINARY(floor_divide), SWITCHYARD_BINARY(mod),
    SWITCHYARD_BINARY(power),        SWITCHYARD_BINARY(minimum),
    SWITCHYARD_BINARY(maximum),      SWITCHYARD_BINARY(arctan2),
    SWITCHYARD_BINARY(equal),        SWITCHYARD_BINARY(not_equal),
    SWITCHYARD_BINARY(less),         SWITCHYARD_BINARY(less_equal),
    SWITCHYARD_BINARY(greater),      SWITCHYARD_BINARY(greater_equal),
    SWITCHYARD_BINARY(logical_and),  SWITCHYARD_BINARY(logical_or),
    SWITCHYARD_BINARY(logical_xor),  SWITCHYARD_BINARY(bitwise_and),
    SWITCHYARD_BINARY(bitwise_or),   SWITCHYARD_BINARY(bitwise_xor),
    SWITCHYARD_BINARY(left_shift),   SWITCHYARD_BINARY(right_shift),
    SWITCHYARD_BINARY(hypot),        SWITCHYARD_BINARY(copysign),
    SWITCHYARD_BINARY(nextafter),    SWITCHYARD_BINARY(logaddexp),
};
#undef SWITCHYARD_BINARY

#define SWITCHYARD_UNARY(fn) \
  UnaryOp {                  \
#fn, &switchyard::fn     \
  }

const UnaryOp kUnary[] = {
    SWITCHYARD_UNARY(negative),    SWITCHYARD_UNARY(abs),     SWITCHYARD_UNARY(sign),
    SWITCHYARD_UNARY(logical_not), SWITCHYARD_UNARY(invert),  SWITCHYARD_UNARY(exp),
    SWITCHYARD_UNARY(log),         SWITCHYARD_UNARY(sqrt),    SWITCHYARD_UNARY(sin),
    SWITCHYARD_UNARY(cos),         SWITCHYARD_UNARY(tan),     SWITCHYARD_UNARY(tanh),
    SWITCHYARD_UNARY(floor),       SWITCHYARD_UNARY(ceil),    SWITCHYARD_UNARY(round),
    SWITCHYARD_UNARY(trunc),       SWITCHYARD_UNARY(isnan),   SWITCHYARD_UNARY(isinf),
    SWITCHYARD_UNARY(isfinite),    SWITCHYARD_UNARY(real),    SWITCHYARD_UNARY(imag),
    SWITCHYARD_UNARY(conj),        SWITCHYARD_UNARY(arcsin),  SWITCHYARD_UNARY(arccos),
    SWITCHYARD_UNARY(arctan),      SWITCHYARD_UNARY(sinh),    SWITCHYARD_UNARY(cosh),
    SWITCHYARD_UNARY(arcsinh),     SWITCHYARD_UNARY(arccosh), SWITCHYARD_UNARY(arctanh),
    SWITCHYARD_UNARY(expm1),       SWITCHYARD_UNARY(log1p),   SWITCHYARD_UNARY(log2),
    SWITCHYARD_UNARY(log10),       SWITCHYARD_UNARY(signbit),
};
#undef SWITCHYARD_UNARY

}  // namespace

std::span<const BinaryOp> binary_ops() {
  return kBinary;
}

std::span<const UnaryOp> unary_ops() {
  return kUnary;
}

const BinaryOp& binary_op(std::string_view name) {
  for (const BinaryOp& op : kBinary)
    if (name == op.name) return op;
  throw ValueError("no elementwise binary function named " + std::string(name));
}

Array apply(const BinaryOp& op, const Operand& a, const Operand& b) {
  const Array* x = std::get_if<Array>(&a);
  const Array* y = std::get_if<Array>(&b);
  if (x && y) return op.arrays(*x, *y);
  if (x) return op.array_scalar(*x, std::get<Scalar>(b));
  if (y) return op.scalar_array(std::get<Scalar>(a), *y);
  // Two Python scalars: NumPy computes them as 0-d arrays of their default dtypes.
  const Scalar sa = std::get<Scalar>(a), sb = std::get<Scalar>(b);
  return op.arrays(zero_d(sa, default_dtype(sa)), zero_d(sb, default_dtype(sb)));
}

}  // namespace switchyard::python

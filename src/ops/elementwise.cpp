// Eager elementwise operations: each builds a one-operation Kernel IR (with the casts NumPy's
// promotion implies) and hands it to the executor. Fusion of longer chains produces the same IR.
#include <cstdint>
#include <string>

#include "core/checked.hpp"
#include "runtime/executor.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

using ir::OpCode;

// The dtype operands are converted to and the dtype produced, for a binary op on arrays whose
// promoted dtype is `t`.
struct Typing {
  OpCode op;
  DType operands;
  DType result;
};

[[noreturn]] void unsupported(std::string_view fn, DType t) {
  throw DTypeError(std::string(fn) + " does not support " + std::string(name(t)) +
                   " operands: expected int32, int64, float32 or float64 (cast with astype)");
}

Typing binary_typing(OpCode op, DType t, std::string_view fn) {
  const bool is_bool = t == DType::Bool;
  switch (op) {
    case OpCode::Add:
      return is_bool ? Typing{OpCode::Or, t, t} : Typing{op, t, t};
    case OpCode::Mul:
      return is_bool ? Typing{OpCode::And, t, t} : Typing{op, t, t};
    case OpCode::Min:
      return is_bool ? Typing{OpCode::And, t, t} : Typing{op, t, t};
    case OpCode::Max:
      return is_bool ? Typing{OpCode::Or, t, t} : Typing{op, t, t};
    case OpCode::Div: {
      const DType f = is_floating(t) ? t : DType::Float64;
      return {op, f, f};
    }
    case OpCode::Atan2:
      return {op, floating_result(t), floating_result(t)};
    case OpCode::Eq:
    case OpCode::Ne:
    case OpCode::Lt:
    case OpCode::Le:
    case OpCode::Gt:
    case OpCode::Ge:
      return {op, t, DType::Bool};
    case OpCode::And:
    case OpCode::Or:
    case OpCode::Xor:
      return {op, DType::Bool, DType::Bool};
    default:
      if (is_bool) unsupported(fn, t);
      return {op, t, t};
  }
}

ScalarValue scalar_as(Scalar s, DType dtype) {
  ScalarValue v{dtype};
  if (is_floating(dtype))
    v.f = s.kind == ScalarKind::Float ? s.f : static_cast<double>(s.i);
  else if (dtype == DType::Bool)
    v.i = s.kind == ScalarKind::Float ? s.f != 0 : s.i != 0;
  else
    v.i = s.kind == ScalarKind::Float ? static_cast<std::int64_t>(s.f) : s.i;
  return v;
}

// NumPy 2 (NEP 50): a Python integer meets an integer array in the array's dtype, and one that
// does not fit raises there (NumPy's OverflowError "Python integer 300 out of bounds for int8";
// ours is a ValueError, the bad-argument-value error). Comparisons are the exception: NumPy
// answers them exactly, which comparing in int64 does. Returns the operand dtype to use.
DType check_integer_scalar(OpCode op, std::string_view fn, DType operands, Scalar s) {
  if (s.kind != ScalarKind::Int || operands != DType::Int32) return operands;
  if (s.i >= INT32_MIN && s.i <= INT32_MAX) return operands;
  if (ir::is_comparison(op)) return DType::Int64;
  throw ValueError(std::string(fn) + ": Python integer " + std::to_string(s.i) +
                   " out of bounds for int32: expected a value in [-2147483648, 2147483647] to "
                   "combine with int32 operands; cast the array with astype(int64) first");
}

// NumPy raises for an integer power with any negative exponent, rather than giving 0.
[[noreturn]] void negative_integer_power(DType t, const std::string& given) {
  throw ValueError("Integers to negative integer powers are not allowed: power on " +
                   std::string(name(t)) + " operands given the exponent " + given +
                   ", expected exponents >= 0; cast the base to float64 for reciprocals");
}

// Checks an integer exponent array's values: one eager min() over it, paid only by integer
// powers with array exponents.
void check_integer_exponents(DType t, const Array& exponents) {
  if (!is_integer(t) || !is_integer(exponents.dtype()) || exponents.size() == 0) return;
  const auto lowest = min(exponents).item<std::int64_t>();
  if (lowest < 0) negative_integer_power(t, std::to_string(lowest) + " (the lowest in the array)");
}

Array binary(OpCode op, std::string_view fn, const Array& a, const Array& b) {
  const Typing t = binary_typing(op, promote_types(a.dtype(), b.dtype()), fn);
  if (op == OpCode::Pow) check_integer_exponents(t.operands, b);
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  byte_count(shape, t.result);  // broadcast views can ask for a result no memory holds
  const runtime::LaunchInput ins[2] = {runtime::launch_input(a, shape),
                                       runtime::launch_input(b, shape)};
  ir::KernelBuilder k;
  const auto x = k.cast(k.load(a.dtype(), ins[0].layout), t.operands);
  const auto y = k.cast(k.load(b.dtype(), ins[1].layout), t.operands);
  k.output(k.binary(t.op, x, y, t.result));
  return runtime::run(k.build(), shape, shape, ins);
}

Array binary(OpCode op, std::string_view fn, const Array& a, Scalar s, bool scalar_first) {
  Typing t = binary_typing(op, promote_with_scalar(a.dtype(), s.kind), fn);
  t.operands = check_integer_scalar(op, fn, t.operands, s);
  if (op == OpCode::Pow && is_integer(t.operands)) {
    if (!scalar_first && s.kind == ScalarKind::Int && s.i < 0)
      negative_integer_power(t.operands, std::to_string(s.i));
    if (scalar_first) check_integer_exponents(t.operands, a);
  }
  byte_count(a.shape(), t.result);
  const runtime::LaunchInput in = runtime::launch_input(a, a.shape());
  const ScalarValue value = scalar_as(s, t.operands);
  ir::KernelBuilder k;
  const auto x = k.cast(k.load(a.dtype(), in.layout), t.operands);
  const auto y = k.scalar(t.operands);
  k.output(scalar_first ? k.binary(t.op, y, x, t.result) : k.binary(t.op, x, y, t.result));
  return runtime::run(k.build(), a.shape(), a.shape(), std::span(&in, 1), std::span(&value, 1));
}

Array unary(OpCode op, const Array& a, DType compute) {
  byte_count(a.shape(), op == OpCode::Not ? DType::Bool : compute);
  const runtime::LaunchInput in = runtime::launch_input(a, a.shape());
  ir::KernelBuilder k;
  const auto x = k.cast(k.load(a.dtype(), in.layout), compute);
  k.output(k.unary(op, x, op == OpCode::Not ? DType::Bool : compute));
  return runtime::run(k.build(), a.shape(), a.shape(), std::span(&in, 1));
}

Array numeric_unary(OpCode op, std::string_view fn, const Array& a) {
  if (a.dtype() == DType::Bool) unsupported(fn, a.dtype());
  return unary(op, a, a.dtype());
}

}  // namespace

#define SWITCHYARD_DEFINE_BINARY(fn, opcode)         \
  Array fn(const Array& a, const Array& b) {         \
    return binary(OpCode::opcode, #fn, a, b);        \
  }                                                  \
  Array fn(const Array& a, Scalar b) {               \
    return binary(OpCode::opcode, #fn, a, b, false); \
  }                                                  \
  Array fn(Scalar a, const Array& b) {               \
    return binary(OpCode::opcode, #fn, b, a, true);  \
  }
SWITCHYARD_DEFINE_BINARY(add, Add)
SWITCHYARD_DEFINE_BINARY(subtract, Sub)
SWITCHYARD_DEFINE_BINARY(multiply, Mul)
SWITCHYARD_DEFINE_BINARY(divide, Div)
SWITCHYARD_DEFINE_BINARY(floor_divide, FloorDiv)
SWITCHYARD_DEFINE_BINARY(mod, Mod)
SWITCHYARD_DEFINE_BINARY(power, Pow)
SWITCHYARD_DEFINE_BINARY(minimum, Min)
SWITCHYARD_DEFINE_BINARY(maximum, Max)
SWITCHYARD_DEFINE_BINARY(arctan2, Atan2)
SWITCHYARD_DEFINE_BINARY(equal, Eq)
SWITCHYARD_DEFINE_BINARY(not_equal, Ne)
SWITCHYARD_DEFINE_BINARY(less, Lt)
SWITCHYARD_DEFINE_BINARY(less_equal, Le)
SWITCHYARD_DEFINE_BINARY(greater, Gt)
SWITCHYARD_DEFINE_BINARY(greater_equal, Ge)
SWITCHYARD_DEFINE_BINARY(logical_and, And)
SWITCHYARD_DEFINE_BINARY(logical_or, Or)
SWITCHYARD_DEFINE_BINARY(logical_xor, Xor)
#undef SWITCHYARD_DEFINE_BINARY

Array negative(const Array& a) {
  return numeric_unary(OpCode::Neg, "negative", a);
}
Array abs(const Array& a) {
  return a.dtype() == DType::Bool ? a.copy() : unary(OpCode::Abs, a, a.dtype());
}
Array sign(const Array& a) {
  return numeric_unary(OpCode::Sign, "sign", a);
}
Array logical_not(const Array& a) {
  return unary(OpCode::Not, a, DType::Bool);
}
Array exp(const Array& a) {
  return unary(OpCode::Exp, a, floating_result(a.dtype()));
}
Array log(const Array& a) {
  return unary(OpCode::Log, a, floating_result(a.dtype()));
}
Array sqrt(const Array& a) {
  return unary(OpCode::Sqrt, a, floating_result(a.dtype()));
}
Array sin(const Array& a) {
  return unary(OpCode::Sin, a, floating_result(a.dtype()));
}
Array cos(const Array& a) {
  return unary(OpCode::Cos, a, floating_result(a.dtype()));
}
Array tan(const Array& a) {
  return unary(OpCode::Tan, a, floating_result(a.dtype()));
}
Array tanh(const Array& a) {
  return unary(OpCode::Tanh, a, floating_result(a.dtype()));
}
Array floor(const Array& a) {
  return unary(OpCode::Floor, a, floating_result(a.dtype()));
}
Array ceil(const Array& a) {
  return unary(OpCode::Ceil, a, floating_result(a.dtype()));
}

Array where(const Array& cond, const Array& a, const Array& b) {
  const DType t = promote_types(a.dtype(), b.dtype());
  const Shape shape = broadcast_shapes(broadcast_shapes(cond.shape(), a.shape()), b.shape());
  byte_count(shape, t);
  const runtime::LaunchInput ins[3] = {runtime::launch_input(cond, shape),
                                       runtime::launch_input(a, shape),
                                       runtime::launch_input(b, shape)};
  ir::KernelBuilder k;
  const auto c = k.cast(k.load(cond.dtype(), ins[0].layout), DType::Bool);
  const auto x = k.cast(k.load(a.dtype(), ins[1].layout), t);
  const auto y = k.cast(k.load(b.dtype(), ins[2].layout), t);
  k.output(k.where(c, x, y));
  return runtime::run(k.build(), shape, shape, ins);
}

}  // namespace switchyard

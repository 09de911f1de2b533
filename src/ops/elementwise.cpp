// Elementwise operations: each checks its operands, works out NumPy's promotion and records one
// node (with the casts that promotion implies) in the lazy graph; nothing runs until the value
// is needed, and then the whole chain runs as one kernel (expr/fusion.hpp).
#include <cstdint>
#include <string>

#include "core/checked.hpp"
#include "expr/node.hpp"
#include "expr/realize.hpp"
#include "ops/complex_parts.hpp"
#include "ops/nodes.hpp"
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
    case OpCode::Hypot:
    case OpCode::CopySign:
    case OpCode::NextAfter:
    case OpCode::LogAddExp:
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

// NumPy's bitwise operations: logical on bool (And, Or, Xor), on the bits of int32/int64; shifts
// take integers only. Floats have no bits to operate on.
Typing bits_typing(OpCode op, DType t, std::string_view fn) {
  const bool shift = op == OpCode::ShiftLeft || op == OpCode::ShiftRight;
  if (is_integer(t) || (t == DType::Bool && !shift)) return {op, t, t};
  throw DTypeError(std::string(fn) + " of " + std::string(name(t)) + " operands: expected " +
                   (shift ? "int32 or int64" : "bool, int32 or int64") +
                   " operands, as NumPy defines it for integers only" +
                   (is_floating(t) ? "; cast with astype(int64) first, or for the truth values "
                                     "of numbers use logical_and, logical_or or logical_xor"
                                   : ""));
}

using TypingFn = Typing (*)(OpCode, DType, std::string_view);

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

void require(const Array& a, std::string_view fn) {
  if (!a)
    throw ValueError(std::string(fn) + " of a null Array: expected an array made by a factory");
}

// The arithmetic complex operands have (complex_parts.hpp); other ops reject them (node_of).
bool complex_arithmetic(OpCode op) {
  return op == OpCode::Add || op == OpCode::Sub || op == OpCode::Mul || op == OpCode::Div;
}

expr::NodePtr operand(const Array& a, DType dtype) {
  return expr::make_cast(node_of(a), dtype);
}

Array binary(OpCode op, std::string_view fn, const Array& a, const Array& b,
             TypingFn typing = binary_typing) {
  require(a, fn), require(b, fn);
  if (is_complex(a.dtype()) || is_complex(b.dtype())) {
    if (complex_arithmetic(op)) return complex_parts::arithmetic(op, a, b);
    if (op == OpCode::Eq || op == OpCode::Ne) return complex_parts::equal(a, b, op == OpCode::Eq);
    if (op == OpCode::Pow) return complex_parts::power(a, b);
  }
  const Typing t = typing(op, promote_types(a.dtype(), b.dtype()), fn);
  if (op == OpCode::Pow) check_integer_exponents(t.operands, b);
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  byte_count(shape, t.result);  // broadcast views can ask for a result no memory holds
  return Array(
      expr::make_op(t.op, t.result, shape, operand(a, t.operands), operand(b, t.operands)));
}

Array binary(OpCode op, std::string_view fn, const Array& a, Scalar s, bool scalar_first,
             TypingFn typing = binary_typing) {
  require(a, fn);
  if (is_complex(a.dtype())) {
    if (complex_arithmetic(op)) return complex_parts::arithmetic(op, a, s, scalar_first);
    if (op == OpCode::Eq || op == OpCode::Ne) return complex_parts::equal(a, s, op == OpCode::Eq);
    if (op == OpCode::Pow) return complex_parts::power(a, s, scalar_first);
  }
  Typing t = typing(op, promote_with_scalar(a.dtype(), s.kind), fn);
  t.operands = check_integer_scalar(op, fn, t.operands, s);
  if (op == OpCode::Pow && is_integer(t.operands)) {
    if (!scalar_first && s.kind == ScalarKind::Int && s.i < 0)
      negative_integer_power(t.operands, std::to_string(s.i));
    if (scalar_first) check_integer_exponents(t.operands, a);
  }
  byte_count(a.shape(), t.result);
  expr::NodePtr x = operand(a, t.operands), y = expr::make_scalar(scalar_as(s, t.operands));
  if (scalar_first) std::swap(x, y);
  return Array(expr::make_op(t.op, t.result, a.shape(), std::move(x), std::move(y)));
}

Array unary(OpCode op, std::string_view fn, const Array& a, DType compute) {
  require(a, fn);
  const DType result = op == OpCode::Not ? DType::Bool : compute;
  byte_count(a.shape(), result);
  return Array(expr::make_op(op, result, a.shape(), operand(a, compute)));
}

Array numeric_unary(OpCode op, std::string_view fn, const Array& a) {
  require(a, fn);
  if (a.dtype() == DType::Bool) unsupported(fn, a.dtype());
  return unary(op, fn, a, a.dtype());
}

Array floating_unary(OpCode op, std::string_view fn, const Array& a) {
  require(a, fn);
  if (is_complex(a.dtype())) return complex_parts::function(op, a);
  return unary(op, fn, a, floating_result(a.dtype()));
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
SWITCHYARD_DEFINE_BINARY(hypot, Hypot)
SWITCHYARD_DEFINE_BINARY(copysign, CopySign)
SWITCHYARD_DEFINE_BINARY(nextafter, NextAfter)
SWITCHYARD_DEFINE_BINARY(logaddexp, LogAddExp)
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

#define SWITCHYARD_DEFINE_BITWISE(fn, opcode)                     \
  Array fn(const Array& a, const Array& b) {                      \
    return binary(OpCode::opcode, #fn, a, b, bits_typing);        \
  }                                                               \
  Array fn(const Array& a, Scalar b) {                            \
    return binary(OpCode::opcode, #fn, a, b, false, bits_typing); \
  }                                                               \
  Array fn(Scalar a, const Array& b) {                            \
    return binary(OpCode::opcode, #fn, b, a, true, bits_typing);  \
  }
SWITCHYARD_DEFINE_BITWISE(bitwise_and, And)
SWITCHYARD_DEFINE_BITWISE(bitwise_or, Or)
SWITCHYARD_DEFINE_BITWISE(bitwise_xor, Xor)
SWITCHYARD_DEFINE_BITWISE(left_shift, ShiftLeft)
SWITCHYARD_DEFINE_BITWISE(right_shift, ShiftRight)
#undef SWITCHYARD_DEFINE_BITWISE

Array negative(const Array& a) {
  if (a && is_complex(a.dtype())) return complex_parts::negative(a);
  return numeric_unary(OpCode::Neg, "negative", a);
}
Array abs(const Array& a) {
  require(a, "abs");
  if (is_complex(a.dtype())) return complex_parts::abs(a);
  return a.dtype() == DType::Bool ? a.copy() : unary(OpCode::Abs, "abs", a, a.dtype());
}
Array sign(const Array& a) {
  if (a && is_complex(a.dtype())) return complex_parts::function(OpCode::Sign, a);
  return numeric_unary(OpCode::Sign, "sign", a);
}
Array logical_not(const Array& a) {
  return unary(OpCode::Not, "logical_not", a, DType::Bool);
}
Array invert(const Array& a) {
  require(a, "invert");
  const DType t = bits_typing(OpCode::Not, a.dtype(), "invert").result;
  byte_count(a.shape(), t);
  return Array(expr::make_op(OpCode::Not, t, a.shape(), node_of(a)));
}
#define SWITCHYARD_DEFINE_FLOATING_UNARY(fn, opcode) \
  Array fn(const Array& a) {                         \
    return floating_unary(OpCode::opcode, #fn, a);   \
  }
SWITCHYARD_DEFINE_FLOATING_UNARY(exp, Exp)
SWITCHYARD_DEFINE_FLOATING_UNARY(log, Log)
SWITCHYARD_DEFINE_FLOATING_UNARY(sqrt, Sqrt)
SWITCHYARD_DEFINE_FLOATING_UNARY(sin, Sin)
SWITCHYARD_DEFINE_FLOATING_UNARY(cos, Cos)
SWITCHYARD_DEFINE_FLOATING_UNARY(tan, Tan)
SWITCHYARD_DEFINE_FLOATING_UNARY(tanh, Tanh)
SWITCHYARD_DEFINE_FLOATING_UNARY(arcsin, Asin)
SWITCHYARD_DEFINE_FLOATING_UNARY(arccos, Acos)
SWITCHYARD_DEFINE_FLOATING_UNARY(arctan, Atan)
SWITCHYARD_DEFINE_FLOATING_UNARY(sinh, Sinh)
SWITCHYARD_DEFINE_FLOATING_UNARY(cosh, Cosh)
SWITCHYARD_DEFINE_FLOATING_UNARY(arcsinh, Asinh)
SWITCHYARD_DEFINE_FLOATING_UNARY(arccosh, Acosh)
SWITCHYARD_DEFINE_FLOATING_UNARY(arctanh, Atanh)
SWITCHYARD_DEFINE_FLOATING_UNARY(expm1, Expm1)
SWITCHYARD_DEFINE_FLOATING_UNARY(log1p, Log1p)
SWITCHYARD_DEFINE_FLOATING_UNARY(log2, Log2)
SWITCHYARD_DEFINE_FLOATING_UNARY(log10, Log10)
#undef SWITCHYARD_DEFINE_FLOATING_UNARY

// NumPy: integers and bools are never NaN or infinite; only floats reach the IR. A complex
// number is NaN or infinite where either part is, finite where both are.
#define SWITCHYARD_DEFINE_FLOAT_TEST(fn, opcode, integers_answer)                             \
  Array fn(const Array& a) {                                                                  \
    require(a, #fn);                                                                          \
    if (is_complex(a.dtype())) return complex_parts::classify(OpCode::opcode, a);             \
    if (!is_floating(a.dtype())) return Array::full(a.shape(), integers_answer, DType::Bool); \
    byte_count(a.shape(), DType::Bool);                                                       \
    return Array(expr::make_op(OpCode::opcode, DType::Bool, a.shape(), node_of(a)));          \
  }
SWITCHYARD_DEFINE_FLOAT_TEST(isnan, IsNan, 0)
SWITCHYARD_DEFINE_FLOAT_TEST(isinf, IsInf, 0)
SWITCHYARD_DEFINE_FLOAT_TEST(isfinite, IsFinite, 1)
#undef SWITCHYARD_DEFINE_FLOAT_TEST

// NumPy computes signbit of integers and bools on their float conversion: true exactly for
// negative values.
Array signbit(const Array& a) {
  require(a, "signbit");
  byte_count(a.shape(), DType::Bool);
  return Array(expr::make_op(OpCode::SignBit, DType::Bool, a.shape(),
                             operand(a, floating_result(a.dtype()))));
}

// NumPy 2: integers and bools are whole already, so rounding gives them back in their own dtype.
// round() rounds each part of a complex number; floor, ceil and trunc do not take them.
#define SWITCHYARD_DEFINE_ROUNDING(fn, opcode)                                                    \
  Array fn(const Array& a) {                                                                      \
    require(a, #fn);                                                                              \
    if (is_complex(a.dtype()) && OpCode::opcode == OpCode::Round) return complex_parts::round(a); \
    if (a.dtype() == DType::Bool || is_integer(a.dtype())) return a.copy();                       \
    return unary(OpCode::opcode, #fn, a, a.dtype());                                              \
  }
SWITCHYARD_DEFINE_ROUNDING(floor, Floor)
SWITCHYARD_DEFINE_ROUNDING(ceil, Ceil)
SWITCHYARD_DEFINE_ROUNDING(round, Round)
SWITCHYARD_DEFINE_ROUNDING(trunc, Trunc)
#undef SWITCHYARD_DEFINE_ROUNDING

Array clip(const Array& a, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  require(a, "clip");
  Array result = a;
  if (lo) result = maximum(result, *lo);
  if (hi) result = minimum(result, *hi);
  return lo || hi ? result : a.copy();
}

Array clip(const Array& a, const Array& lo, const Array& hi) {
  require(a, "clip"), require(lo, "clip"), require(hi, "clip");
  return minimum(maximum(a, lo), hi);
}

Array where(const Array& cond, const Array& a, const Array& b) {
  require(cond, "where"), require(a, "where"), require(b, "where");
  if (is_complex(a.dtype()) || is_complex(b.dtype())) return complex_parts::where(cond, a, b);
  const DType t = promote_types(a.dtype(), b.dtype());
  const Shape shape = broadcast_shapes(broadcast_shapes(cond.shape(), a.shape()), b.shape());
  byte_count(shape, t);
  return Array(expr::make_op(OpCode::Where, t, shape, operand(cond, DType::Bool), operand(a, t),
                             operand(b, t)));
}

void eval(std::span<const Array> arrays) {
  std::vector<expr::NodePtr> nodes;
  for (const Array& a : arrays)
    if (a.pending()) nodes.push_back(a.node());
  expr::realize(nodes);
}

}  // namespace switchyard

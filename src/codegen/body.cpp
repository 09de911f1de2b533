#include "codegen/body.hpp"

#include <algorithm>

#include "switchyard/error.hpp"

namespace switchyard::codegen {
namespace {

using ir::OpCode;

[[noreturn]] void undefined(OpCode op, DType t) {
  const bool bits = op == OpCode::Not || op == OpCode::And || op == OpCode::Or ||
                    op == OpCode::Xor || op == OpCode::ShiftLeft || op == OpCode::ShiftRight;
  throw DTypeError("cannot generate code for " + std::string(ir::name(op)) + " on " +
                   std::string(name(t)) + " values: the Kernel IR defines it for " +
                   (bits ? "bool and integer" : "numeric") + " operands only; cast first");
}

// Instruction k's value; every operand is a named variable, so text substitution is safe.
class Ops {
 public:
  Ops(const Spelling& s, Helpers& helpers) : s_(s), helpers_(helpers) {}

  std::string expr(const ir::Kernel& k, const ir::Instr& in) const {
    const DType t = in.dtype;
    const std::string a = in.a >= 0 ? value_name(in.a) : "";
    const std::string b = in.b >= 0 ? value_name(in.b) : "";
    const std::string c = in.c >= 0 ? value_name(in.c) : "";
    const DType operand =
        in.a >= 0 && in.op != OpCode::Load && in.op != OpCode::Scalar ? k.body[in.a].dtype : t;
    switch (in.op) {
      case OpCode::Load:
      case OpCode::Scalar:
        break;  // rendered by load()
      case OpCode::Neg:
        if (t == DType::Bool) undefined(in.op, t);
        return is_integer(t) ? s_.wrap_neg(t, a) : "(-" + a + ")";
      case OpCode::Abs:
        if (t == DType::Bool) return a;
        return is_floating(t) ? math("fabs", t, a)
                              : s_.sel(a + " < " + zero(t), s_.wrap_neg(t, a), a);
      case OpCode::Sign:  // zero and NaN give themselves: ±0 and NaN
        if (t == DType::Bool) return a;
        return s_.sel(a + " > " + zero(t), one(t), s_.sel(a + " < " + zero(t), s_.lit(t, "-1"), a));
      case OpCode::Not:  // bool flips bit 0 only; integers flip every bit
        if (is_floating(t)) undefined(in.op, t);
        return t == DType::Bool ? "(" + a + " ^ " + one(t) + ")" : "(~" + a + ")";
      case OpCode::Exp:
        return floating(in, "exp", a);
      case OpCode::Log:
        return floating(in, "log", a);
      case OpCode::Sqrt:
        return floating(in, "sqrt", a);
      case OpCode::Sin:
        return floating(in, "sin", a);
      case OpCode::Cos:
        return floating(in, "cos", a);
      case OpCode::Tan:
        return floating(in, "tan", a);
      case OpCode::Tanh:
        return floating(in, "tanh", a);
      case OpCode::Asin:
        return floating(in, "asin", a);
      case OpCode::Acos:
        return floating(in, "acos", a);
      case OpCode::Atan:
        return floating(in, "atan", a);
      case OpCode::Sinh:
        return floating(in, "sinh", a);
      case OpCode::Cosh:
        return floating(in, "cosh", a);
      case OpCode::Asinh:
        return floating(in, "asinh", a);
      case OpCode::Acosh:
        return floating(in, "acosh", a);
      case OpCode::Atanh:
        return floating(in, "atanh", a);
      case OpCode::Expm1:
        return floating(in, "expm1", a);
      case OpCode::Log1p:
        return floating(in, "log1p", a);
      case OpCode::Log2:
        return floating(in, "log2", a);
      case OpCode::Log10:
        return floating(in, "log10", a);
      case OpCode::Floor:
        return floating(in, "floor", a);
      case OpCode::Ceil:
        return floating(in, "ceil", a);
      case OpCode::Round:  // rint rounds half to even in the default rounding mode
        return floating(in, "rint", a);
      case OpCode::Trunc:
        return floating(in, "trunc", a);
      case OpCode::IsNan:
        return classify(in, "isnan", operand, a);
      case OpCode::IsInf:
        return classify(in, "isinf", operand, a);
      case OpCode::IsFinite:
        return classify(in, "isfinite", operand, a);
      case OpCode::SignBit:
        return classify(in, "signbit", operand, a);
      case OpCode::Cast:
        return s_.convert(a, operand, t);
      case OpCode::Add:
        if (t == DType::Bool) return "(" + a + " | " + b + ")";  // NumPy: logical or
        return is_integer(t) ? s_.wrap(t, a, "+", b) : "(" + a + " + " + b + ")";
      case OpCode::Sub:
        if (t == DType::Bool) undefined(in.op, t);
        return is_integer(t) ? s_.wrap(t, a, "-", b) : "(" + a + " - " + b + ")";
      case OpCode::Mul:
        if (t == DType::Bool) return "(" + a + " & " + b + ")";  // NumPy: logical and
        return is_integer(t) ? s_.wrap(t, a, "*", b) : "(" + a + " * " + b + ")";
      case OpCode::Div:
        if (!is_floating(t)) undefined(in.op, t);
        return "(" + a + " / " + b + ")";
      case OpCode::FloorDiv:
        if (t == DType::Bool) undefined(in.op, t);
        if (is_floating(t)) return math("floor", t, a + " / " + b);
        return call(int_floordiv(t), a, b);
      case OpCode::Mod:
        if (t == DType::Bool) undefined(in.op, t);
        return call(is_floating(t) ? float_mod(t) : int_mod(t), a, b);
      case OpCode::Pow:
        if (t == DType::Bool) undefined(in.op, t);
        return is_floating(t) ? math("pow", t, a, b) : call(int_pow(t), a, b);
      case OpCode::Min:
        return min_max(s_, t, a, b, '<');
      case OpCode::Max:
        return min_max(s_, t, a, b, '>');
      case OpCode::Atan2:
        if (!is_floating(t)) undefined(in.op, t);
        return math("atan2", t, a, b);
      case OpCode::Hypot:
        if (!is_floating(t)) undefined(in.op, t);
        return math("hypot", t, a, b);
      case OpCode::CopySign:
        if (!is_floating(t)) undefined(in.op, t);
        return math("copysign", t, a, b);
      case OpCode::NextAfter:
        if (!is_floating(t)) undefined(in.op, t);
        return math("nextafter", t, a, b);
      case OpCode::LogAddExp:
        if (!is_floating(t)) undefined(in.op, t);
        return call(logaddexp(t), a, b);
      case OpCode::Eq:
        return s_.bool_from_mask(a + " == " + b);
      case OpCode::Ne:
        return s_.bool_from_mask(a + " != " + b);
      case OpCode::Lt:
        return s_.bool_from_mask(a + " < " + b);
      case OpCode::Le:
        return s_.bool_from_mask(a + " <= " + b);
      case OpCode::Gt:
        return s_.bool_from_mask(a + " > " + b);
      case OpCode::Ge:
        return s_.bool_from_mask(a + " >= " + b);
      case OpCode::And:
        return logical(in, a, " & ", b);
      case OpCode::Or:
        return logical(in, a, " | ", b);
      case OpCode::Xor:
        return logical(in, a, " ^ ", b);
      case OpCode::ShiftLeft:
        if (!is_integer(t)) undefined(in.op, t);
        return call(shift_left(t), a, b);
      case OpCode::ShiftRight:
        if (!is_integer(t)) undefined(in.op, t);
        return call(shift_right(t), a, b);
      case OpCode::Where:
        return s_.sel(s_.mask_from_bool(a, t), b, c);
    }
    return {};
  }

 private:
  std::string zero(DType t) const { return s_.lit(t, "0"); }
  std::string one(DType t) const { return s_.lit(t, "1"); }

  // s_.math, after defining the helpers it calls (GLSL's C99 functions).
  std::string math(std::string_view name, DType t, const std::string& a,
                   const std::string& b = {}) const {
    for (const auto& [fn, definition] : s_.math_helpers(name, t))
      if (!helpers_.has(fn)) helpers_.add(std::string(fn), std::string(definition));
    return s_.math(name, t, a, b);
  }

  std::string floating(const ir::Instr& in, std::string_view f, const std::string& a) const {
    if (!is_floating(in.dtype)) undefined(in.op, in.dtype);
    return math(f, in.dtype, a);
  }

  // OpenCL's vector forms give masks (-1 lanes) and its scalar forms 1, as comparisons do.
  std::string classify(const ir::Instr& in, std::string_view f, DType operand,
                       const std::string& a) const {
    if (!is_floating(operand)) undefined(in.op, operand);
    return s_.bool_from_mask(math(f, operand, a));
  }

  // Logical on bool's 0/1 bytes, bitwise on integers: the same operator serves both.
  std::string logical(const ir::Instr& in, const std::string& a, std::string_view op,
                      const std::string& b) const {
    if (is_floating(in.dtype)) undefined(in.op, in.dtype);
    return "(" + a + std::string(op) + b + ")";
  }

  static std::string call(const std::string& f, const std::string& a, const std::string& b) {
    return f + "(" + a + ", " + b + ")";
  }

  // Defines `sy_<what>_<type>(T a, T b)` once with the given statements; returns its name.
  std::string helper(std::string_view what, DType t, const std::string& statements) const {
    const std::string T = s_.type(t);
    std::string fn = "sy_" + std::string(what) + "_" + identifier(T);
    if (!helpers_.has(fn))
      helpers_.add(fn, s_.helper(T) + fn + "(" + T + " a, " + T + " b) {\n" + statements + "}\n");
    return fn;
  }

  // Integer a // b: rounds toward minus infinity; b == 0 gives 0; b == -1 negates with wrap
  // (so INT_MIN // -1 == INT_MIN); the divisor is made safe before dividing, never trapping.
  std::string int_floordiv(DType t) const {
    const std::string T = s_.type(t), z = zero(t), m1 = s_.lit(t, "-1");
    return helper(
        "floordiv", t,
        "  " + T + " d = " + s_.sel(s_.any("(b == " + z + ")", "(b == " + m1 + ")"), one(t), "b") +
            ";\n  " + T + " q = a / d;\n  " + T + " r = a - q * d;\n  q = " +
            s_.sel(s_.all("(r != " + z + ")", "((r ^ d) < " + z + ")"), "q - " + one(t), "q") +
            ";\n  q = " + s_.sel("b == " + m1, s_.wrap_neg(t, "a"), "q") + ";\n  return " +
            s_.sel("b == " + z, z, "q") + ";\n");
  }

  // Integer a % b with the divisor's sign (Python); b == 0 (and b == -1) give 0.
  std::string int_mod(DType t) const {
    const std::string T = s_.type(t), z = zero(t), m1 = s_.lit(t, "-1");
    return helper(
        "mod", t,
        "  " + T + " d = " + s_.sel(s_.any("(b == " + z + ")", "(b == " + m1 + ")"), one(t), "b") +
            ";\n  " + T + " r = " + s_.rem("a", "d") + ";\n  return " +
            s_.sel(s_.all("(r != " + z + ")", "((r ^ d) < " + z + ")"), "r + d", "r") + ";\n");
  }

  // Float a % b: fmod moved to the divisor's sign; zero takes the divisor's sign (NumPy);
  // b == 0 gives NaN from fmod.
  std::string float_mod(DType t) const {
    const std::string T = s_.type(t), z = zero(t);
    return helper("mod", t,
                  "  " + T + " r = " + math("fmod", t, "a", "b") + ";\n  r = " +
                      s_.sel(s_.all("(r != " + z + ")", "((r < " + z + ") != (b < " + z + "))"),
                             "r + b", "r") +
                      ";\n  return " + s_.sel("r == " + z, math("copysign", t, z, "b"), "r") +
                      ";\n");
  }

  // Integer a ** b by exact repeated squaring (wrapping); a negative exponent gives 0 unless
  // the base is 1 or -1.
  std::string int_pow(DType t) const {
    const std::string T = s_.type(t), z = zero(t), o = one(t), m1 = s_.lit(t, "-1");
    const int bits = t == DType::Int32 ? 31 : 63;
    const std::string negative =
        s_.sel("a == " + o, o, s_.sel("a == " + m1, s_.sel("(b & " + o + ") != " + z, m1, o), z));
    return helper("pow", t,
                  "  " + T + " r = " + o + ", x = a, e = b;\n  for (int i = 0; i < " +
                      std::to_string(bits) + "; ++i) {\n    r = " +
                      s_.sel("(e & " + o + ") != " + z, s_.wrap(t, "r", "*", "x"), "r") +
                      ";\n    x = " + s_.wrap(t, "x", "*", "x") + ";\n    e = e >> " + o +
                      ";\n  }\n  return " + s_.sel("b < " + z, negative, "r") + ";\n");
  }

  // NumPy's logaddexp (npy_logaddexp): equal operands give a + log(2), which keeps inf, inf
  // and -inf, -inf out of inf - inf; a NaN difference is returned as the result.
  std::string logaddexp(DType t) const {
    const std::string T = s_.type(t);
    const std::string tail = math("log1p", t, math("exp", t, "-" + math("fabs", t, "d")));
    return helper("logaddexp", t,
                  "  " + T + " d = a - b;\n  " + T + " r = " + s_.sel("d > " + zero(t), "a", "b") +
                      " + " + tail + ";\n  r = " + s_.sel(math("isnan", t, "d"), "d", "r") +
                      ";\n  return " +
                      s_.sel("a == b", "a + " + s_.lit(t, "0.6931471805599453094"), "r") + ";\n");
  }

  // The count is clamped into [0, bits - 1] before shifting, so no shift is ever out of range
  // (undefined in C and CUDA, taken modulo the width in OpenCL C).
  std::string out_of_range_count(DType t) const {
    return s_.any("(b < " + zero(t) + ")", "(b > " + s_.lit(t, bits_minus_one(t)) + ")");
  }
  static std::string bits_minus_one(DType t) { return t == DType::Int32 ? "31" : "63"; }

  // a << b shifted as unsigned (wrapping); counts out of range give 0.
  std::string shift_left(DType t) const {
    const std::string T = s_.type(t), z = zero(t), out = out_of_range_count(t);
    if (s_.kind() == Dialect::Glsl) {
      // One unsigned comparison and a masked count: llvmpipe (Mesa 22.3) gives 0 for the select
      // below when the count was widened from an int32.
      const std::string U = std::string(s_.dialect().unsigned_types[t == DType::Int32 ? 1 : 2]);
      return helper("shl", t,
                    "  return " + U + "(b) > " + U + "(" + bits_minus_one(t) + ") ? " + z +
                        " : a << (b & " + s_.lit(t, bits_minus_one(t)) + ");\n");
    }
    return helper("shl", t,
                  "  " + T + " n = " + s_.sel(out, z, "b") + ";\n  return " +
                      s_.sel(out, z, s_.wrap(t, "a", "<<", "n")) + ";\n");
  }

  // Arithmetic a >> b; a count out of range shifts by bits - 1, which gives 0 or -1 by sign.
  // A negative value is shifted as ~(~a >> n): only non-negative values are ever shifted.
  std::string shift_right(DType t) const {
    const std::string T = s_.type(t), z = zero(t);
    if (s_.kind() == Dialect::Glsl) {  // GLSL's >> is arithmetic; no select (see shift_left)
      const std::string U = std::string(s_.dialect().unsigned_types[t == DType::Int32 ? 1 : 2]);
      return helper("shr", t,
                    "  return a >> min(" + U + "(b), " + U + "(" + bits_minus_one(t) + "));\n");
    }
    return helper("shr", t,
                  "  " + T +
                      " n = " + s_.sel(out_of_range_count(t), s_.lit(t, bits_minus_one(t)), "b") +
                      ";\n  return " + s_.sel("a < " + z, "~(~a >> n)", "a >> n") + ";\n");
  }

  const Spelling& s_;
  Helpers& helpers_;
};

// sy_offset(e, rank, shape, strides): the strided element offset of row-major element e.
void define_offset(const Spelling& s, Helpers& helpers) {
  if (helpers.has("sy_offset")) return;
  const std::string I(s.dialect().index);
  helpers.add("sy_offset", s.helper(I) + "sy_offset(" + I +
                               " e, int rank, sy_dims shape, sy_dims strides) {\n  " + I +
                               " off = 0;\n  for (int d = rank - 1; d >= 0; --d) {\n    " + I +
                               " i = e % shape.v[d];\n    e /= shape.v[d];\n    off += i * "
                               "strides.v[d];\n  }\n  return off;\n}\n");
}

std::string load(const ir::Kernel& k, const ir::Instr& in, const Spelling& s, Helpers& helpers,
                 std::string_view element, const std::string& indent, StridedAccess strided) {
  const std::string T = s.type(in.dtype), v = value_name(static_cast<int>(&in - k.body.data()));
  if (in.op == OpCode::Scalar)
    return indent + T + " " + v + " = " + s.splat(in.dtype, scalar_name(in.a)) + ";\n";
  const std::string p = input_name(in.a), off = p + "_off", e(element);
  switch (k.inputs[in.a].layout) {
    case ir::Layout::Contiguous:
      return indent + T + " " + v + " = " + s.vload(in.dtype, p, off + " + " + e) + ";\n";
    case ir::Layout::Broadcast:
      return indent + T + " " + v + " = " + s.splat(in.dtype, s.element(in.dtype, p, off)) + ";\n";
    case ir::Layout::Strided:
      break;
  }
  if (strided == StridedAccess::AlongRow)
    return indent + T + " " + v + " = " +
           s.element(in.dtype, p, p + "_row + " + e + " * " + p + "_step") + ";\n";
  define_offset(s, helpers);
  const auto at = [&](const std::string& i) {
    return s.element(in.dtype, p, off + " + sy_offset(" + i + ", rank, shape, " + p + "_strides)");
  };
  if (!s.vector()) return indent + T + " " + v + " = " + at(e) + ";\n";
  const std::string W = std::to_string(s.width());
  return indent + T + " " + v + ";\n" + indent + "{\n" + indent + "  " + s.scalar_type(in.dtype) +
         " lanes[" + W + "];\n" + indent + "  for (int l = 0; l < " + W +
         "; ++l) lanes[l] = " + at(e + " + l") + ";\n" + indent + "  " + v + " = " +
         s.vload(in.dtype, "lanes") + ";\n" + indent + "}\n";
}

}  // namespace

bool Helpers::has(std::string_view name) const {
  return std::any_of(defs_.begin(), defs_.end(), [&](const auto& d) { return d.first == name; });
}

void Helpers::add(std::string name, std::string definition) {
  defs_.emplace_back(std::move(name), std::move(definition));
}

std::string Helpers::definitions() const {
  std::string s;
  for (const auto& d : defs_) s += d.second + "\n";
  return s;
}

std::string min_max(const Spelling& s, DType t, const std::string& a, const std::string& b,
                    char op) {
  const std::string pick = s.sel(a + " " + op + " " + b, a, b);
  if (!is_floating(t)) return pick;
  return s.sel(s.any(s.math("isnan", t, a), s.math("isnan", t, b)), a + " + " + b, pick);
}

std::string input_name(int i) {
  return "in" + std::to_string(i);
}
std::string scalar_name(int j) {
  return "s" + std::to_string(j);
}
std::string value_name(int k) {
  return "v" + std::to_string(k);
}

std::string render_body(const ir::Kernel& kernel, const Spelling& s, Helpers& helpers,
                        std::string_view element, std::string_view indent, StridedAccess strided) {
  const Ops ops(s, helpers);
  const std::string ind(indent);
  std::string out;
  for (std::size_t k = 0; k < kernel.body.size(); ++k) {
    const ir::Instr& in = kernel.body[k];
    if (in.op == OpCode::Load || in.op == OpCode::Scalar)
      out += load(kernel, in, s, helpers, element, ind, strided);
    else
      out += ind + s.type(in.dtype) + " " + value_name(static_cast<int>(k)) + " = " +
             ops.expr(kernel, in) + ";\n";
  }
  return out;
}

std::string strided_steps(const ir::Kernel& kernel, const Spelling& s, std::string_view indent) {
  const std::string I(s.dialect().index), ind(indent);
  std::string out = ind + "const " + I + " inner = rank > 0 ? shape.v[rank - 1] : 1;\n";
  for (std::size_t i = 0; i < kernel.inputs.size(); ++i) {
    if (kernel.inputs[i].layout != ir::Layout::Strided) continue;
    const std::string p = input_name(static_cast<int>(i));
    out += ind + "const " + I + " " + p + "_step = rank > 0 ? " + p + "_strides.v[rank - 1] : 0;\n";
  }
  return out;
}

std::string strided_rows(const ir::Kernel& kernel, const Spelling& s, Helpers& helpers,
                         std::string_view first, std::string_view indent) {
  define_offset(s, helpers);
  const std::string I(s.dialect().index), ind(indent), f(first);
  std::string out;
  for (std::size_t i = 0; i < kernel.inputs.size(); ++i) {
    if (kernel.inputs[i].layout != ir::Layout::Strided) continue;
    const std::string p = input_name(static_cast<int>(i));
    out += ind + "const " + I + " " + p + "_row = " + p + "_off + sy_offset(" + f +
           ", rank, shape, " + p + "_strides) - " + f + " * " + p + "_step;\n";
  }
  return out;
}

}  // namespace switchyard::codegen

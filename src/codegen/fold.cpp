#include "codegen/fold.hpp"

namespace switchyard::codegen {
namespace {

using ir::ReduceOp;

bool is_min(ReduceOp op) {
  return op == ReduceOp::Min || op == ReduceOp::ArgMin;
}

// The largest (want_max) or smallest value of t, as a C expression.
std::string extreme(const Spelling& s, DType t, bool want_max) {
  const std::string inf(s.dialect().infinity);
  switch (t) {
    case DType::Bool:
      return want_max ? "1" : "0";
    case DType::Int32:
      return want_max ? "2147483647" : "(-2147483647 - 1)";
    case DType::Int64:
      return want_max ? "9223372036854775807" + std::string(s.dialect().int64_suffix)
                      : "(-9223372036854775807" + std::string(s.dialect().int64_suffix) + " - 1)";
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:  // never reaches a kernel: the expression layer rejects complex
    case DType::Complex128:
      break;
  }
  return want_max ? inf : "-" + inf;
}

}  // namespace

DType partial_dtype(const ir::Kernel& kernel, std::size_t output) {
  const ReduceOp op = kernel.reductions[output].op;
  const DType value = kernel.outputs[output].dtype;
  return op == ReduceOp::Sum || op == ReduceOp::Prod ? ir::reduce_result(op, value) : value;
}

Fold::Fold(const ir::Kernel& kernel, std::size_t output, const Spelling& s, Helpers& helpers)
    : s_(s),
      helpers_(helpers),
      op_(kernel.reductions[output].op),
      value_(kernel.outputs[output].dtype),
      acc_(partial_dtype(kernel, output)),
      arg_(op_ == ReduceOp::ArgMin || op_ == ReduceOp::ArgMax),
      kahan_(op_ == ReduceOp::Sum && is_floating(acc_)) {}

std::string Fold::identity() const {
  switch (op_) {
    case ReduceOp::Sum:
      return s_.lit(acc_, "0");
    case ReduceOp::Prod:
      return s_.lit(acc_, "1");
    default:
      break;
  }
  return s_.lit(acc_, extreme(s_, acc_, is_min(op_)));
}

std::string Fold::declare(const std::string& p, const std::string& indent) const {
  const std::string T = (kahan_ ? std::string(s_.dialect().precise) : "") + s_.type(acc_);
  std::string out = indent + T + " " + p + "acc = " + identity() + ";\n";
  if (kahan_) out += indent + T + " " + p + "comp = " + s_.lit(acc_, "0") + ";\n";
  if (arg_)
    out += indent + s_.index_type() + " " + p +
           "idx = " + s_.lit(DType::Int64, extreme(s_, DType::Int64, true)) + ";\n";
  return out;
}

std::string Fold::add_next(const std::string& p, const std::string& x, const std::string& ix,
                           const std::string& first, const std::string& indent) const {
  if (kahan_) {
    // Kahan summation; an infinite sum keeps no compensation (inf - inf would poison it).
    // GLSL's `precise` keeps compilers from simplifying (t - acc) - y to 0.
    const std::string T = std::string(s_.dialect().precise) + s_.type(acc_), acc = p + "acc",
                      comp = p + "comp";
    return indent + "{\n" + indent + "  " + T + " y = " + x + " - " + comp + ";\n" + indent + "  " +
           T + " t = " + acc + " + y;\n" + indent + "  " + comp + " = " +
           s_.sel(s_.math("isinf", acc_, "t"), s_.lit(acc_, "0"), "(t - " + acc + ") - y") + ";\n" +
           indent + "  " + acc + " = t;\n" + indent + "}\n";
  }
  if (!arg_) return merge(p + "acc", "", x, "", indent);
  // Later elements have larger indices, so a tie keeps the current one.
  const std::string acc = p + "acc", idx = p + "idx";
  const char cmp = is_min(op_) ? '<' : '>';
  std::string better = x + " " + cmp + " " + acc;
  if (is_floating(value_))
    better = s_.any(
        "(" + better + ")",
        "(" + s_.all(s_.math("isnan", value_, x), "!" + s_.math("isnan", value_, acc)) + ")");
  return indent + "if (" + first + ") {\n" + indent + "  " + acc + " = " + x + ";\n" + indent +
         "  " + idx + " = " + ix + ";\n" + indent + "} else {\n" + indent + "  " + idx + " = " +
         s_.sel(s_.index_mask(better, value_), ix, idx) + ";\n" + indent + "  " + acc + " = " +
         s_.sel(better, x, acc) + ";\n" + indent + "}\n";
}

std::string Fold::add(const std::string& p, const std::string& x, const std::string& ix,
                      const std::string& indent) const {
  if (kahan_) return add_next(p, x, ix, "", indent);
  return merge(p + "acc", p + "idx", x, ix, indent);
}

std::string Fold::merge(const std::string& dv, const std::string& di, const std::string& xv,
                        const std::string& xi, const std::string& indent) const {
  switch (op_) {
    case ReduceOp::Sum:
      return indent + dv + " = " +
             (is_integer(acc_) ? s_.wrap(acc_, dv, "+", xv) : dv + " + " + xv) + ";\n";
    case ReduceOp::Prod:
      return indent + dv + " = " +
             (is_integer(acc_) ? s_.wrap(acc_, dv, "*", xv) : dv + " * " + xv) + ";\n";
    case ReduceOp::Min:
      return indent + dv + " = " + min_max(s_, acc_, dv, xv, '<') + ";\n";
    case ReduceOp::Max:
      return indent + dv + " = " + min_max(s_, acc_, dv, xv, '>') + ";\n";
    case ReduceOp::ArgMin:
    case ReduceOp::ArgMax:
      break;
  }
  return indent + "if (" + arg_take() + "(" + dv + ", " + di + ", " + xv + ", " + xi + ")) {\n" +
         indent + "  " + dv + " = " + xv + ";\n" + indent + "  " + di + " = " + xi + ";\n" +
         indent + "}\n";
}

std::string Fold::value(const std::string& p) const {
  return kahan_ ? "(" + p + "acc - " + p + "comp)" : p + "acc";
}

// Whether (v, j) replaces (m, i) as the extreme: strictly better, or equal with a smaller
// index; the first NaN beats every number.
std::string Fold::arg_take() const {
  const Spelling s = s_.scalar();
  const std::string T = s.type(value_), I = s.index_type();
  const std::string fn =
      std::string(is_min(op_) ? "sy_argmin_take_" : "sy_argmax_take_") + identifier(T);
  if (helpers_.has(fn)) return fn;
  const char cmp = is_min(op_) ? '<' : '>';
  std::string body;
  if (is_floating(value_))
    body = "  if (" + s.math("isnan", value_, "v") + ") return !" + s.math("isnan", value_, "m") +
           " || j < i;\n  if (" + s.math("isnan", value_, "m") + ") return " +
           std::string(s.dialect().no) + ";\n";
  body += "  return v " + std::string(1, cmp) + " m || (v == m && j < i);\n";
  helpers_.add(fn, s.helper(s.dialect().predicate) + fn + "(" + T + " m, " + I + " i, " + T +
                       " v, " + I + " j) {\n" + body + "}\n");
  return fn;
}

}  // namespace switchyard::codegen

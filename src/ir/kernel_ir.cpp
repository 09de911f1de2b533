#include "ir/kernel_ir.hpp"

#define XXH_STATIC_LINKING_ONLY  // XXH64_state_t on the stack
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "switchyard/error.hpp"

namespace switchyard::ir {
namespace {

struct OpInfo {
  std::string_view name;
  int arity;
  bool transcendental;
};

constexpr std::array<OpInfo, kOpCodeCount> kOps = {{
    {"load", 0, false},    {"scalar", 0, false},   {"neg", 1, false},       {"abs", 1, false},
    {"sign", 1, false},    {"not", 1, false},      {"exp", 1, true},        {"log", 1, true},
    {"sqrt", 1, false},    {"sin", 1, true},       {"cos", 1, true},        {"tan", 1, true},
    {"tanh", 1, true},     {"asin", 1, true},      {"acos", 1, true},       {"atan", 1, true},
    {"sinh", 1, true},     {"cosh", 1, true},      {"asinh", 1, true},      {"acosh", 1, true},
    {"atanh", 1, true},    {"expm1", 1, true},     {"log1p", 1, true},      {"log2", 1, true},
    {"log10", 1, true},    {"floor", 1, false},    {"ceil", 1, false},      {"round", 1, false},
    {"trunc", 1, false},   {"isnan", 1, false},    {"isinf", 1, false},     {"isfinite", 1, false},
    {"signbit", 1, false}, {"cast", 1, false},     {"add", 2, false},       {"sub", 2, false},
    {"mul", 2, false},     {"div", 2, false},      {"floordiv", 2, false},  {"mod", 2, false},
    {"pow", 2, true},      {"min", 2, false},      {"max", 2, false},       {"atan2", 2, true},
    {"hypot", 2, true},    {"copysign", 2, false}, {"nextafter", 2, false}, {"logaddexp", 2, true},
    {"eq", 2, false},      {"ne", 2, false},       {"lt", 2, false},        {"le", 2, false},
    {"gt", 2, false},      {"ge", 2, false},       {"and", 2, false},       {"or", 2, false},
    {"xor", 2, false},     {"shl", 2, false},      {"shr", 2, false},       {"where", 3, false},
}};
static_assert(kOps.back().name == "where", "one row per OpCode, in the enum's order");

const OpInfo& info(OpCode op) {
  return kOps[static_cast<int>(op)];
}

[[noreturn]] void invalid(const std::string& what) {
  throw ValueError("invalid kernel IR: " + what);
}

void validate_reductions(const Kernel& k) {
  if (!k.has_reduction) {
    if (!k.reductions.empty()) invalid("reductions given but has_reduction is false");
    return;
  }
  if (k.reductions.size() != k.outputs.size())
    invalid("every output is folded by one reduction: " + std::to_string(k.outputs.size()) +
            " outputs, " + std::to_string(k.reductions.size()) + " reductions");
  for (const auto& r : k.reductions) {
    if (r.axes < 1 || r.axes > kMaxRank)
      invalid("a reduction folds " + std::to_string(r.axes) + " trailing axes, expected 1.." +
              std::to_string(kMaxRank));
    if (r.over != k.reductions[0].over || r.axes != k.reductions[0].axes)
      invalid(
          "reductions fold different elements: every reduction of a kernel needs the same "
          "`over` and `axes`");
  }
}

}  // namespace

std::string_view name(OpCode op) {
  return info(op).name;
}
int arity(OpCode op) {
  return info(op).arity;
}
bool is_transcendental(OpCode op) {
  return info(op).transcendental;
}
bool is_comparison(OpCode op) {
  return op >= OpCode::Eq && op <= OpCode::Ge;
}
bool is_classification(OpCode op) {
  return op == OpCode::IsNan || op == OpCode::IsInf || op == OpCode::IsFinite ||
         op == OpCode::SignBit;
}

std::string_view name(ReduceOp op) {
  static constexpr std::string_view kNames[] = {"sum", "prod", "min", "max", "argmin", "argmax"};
  return kNames[static_cast<int>(op)];
}

DType reduce_result(ReduceOp op, DType t) {
  switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Prod:
      // Integers and bools accumulate in int64; floats and complex in their own dtype.
      return is_floating(t) || is_complex(t) ? t : DType::Int64;
    case ReduceOp::ArgMin:
    case ReduceOp::ArgMax:
      return DType::Int64;
    case ReduceOp::Min:
    case ReduceOp::Max:
      return t;
  }
  return t;
}

FoldedRows folded_rows(const Reduction& reduction, const Shape& shape) {
  const int rank = shape.size();
  const int lead = reduction.over == ReduceOver::All ? 0 : std::max(rank - reduction.axes, 0);
  FoldedRows r{1, 1};
  for (int d = 0; d < rank; ++d) (d < lead ? r.rows : r.length) *= shape[d];
  return r;
}

std::uint64_t Kernel::hash() const {
  // Canonical encoding: a version tag, then every field as a fixed-width little-endian integer,
  // gathered in a buffer on the stack and hashed a buffer at a time (the digest is that of the
  // whole stream). Runs for every eager op, so it must not allocate.
  XXH64_state_t state;
  XXH64_reset(&state, 0);
  unsigned char buffer[512];
  std::size_t used = 0;
  auto put = [&](std::int64_t v) {
    if (used + 8 > sizeof buffer) XXH64_update(&state, buffer, used), used = 0;
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(buffer + used, &v, 8);
      used += 8;
    } else {
      for (int i = 0; i < 8; ++i)
        buffer[used++] = static_cast<unsigned char>((v >> (8 * i)) & 0xff);
    }
  };
  // The tag changes whenever opcodes are renumbered, so no cached program is read under a key
  // whose opcodes meant something else.
  XXH64_update(&state, "swyd-ir-3", 9);
  put(static_cast<std::int64_t>(inputs.size()));
  for (const auto& in : inputs) put(static_cast<int>(in.dtype) << 8 | static_cast<int>(in.layout));
  put(static_cast<std::int64_t>(scalars.size()));
  for (auto s : scalars) put(static_cast<int>(s));
  put(static_cast<std::int64_t>(body.size()));
  for (const auto& i : body) {
    put(static_cast<int>(i.op) << 8 | static_cast<int>(i.dtype));
    put(i.a), put(i.b), put(i.c);
  }
  put(static_cast<std::int64_t>(outputs.size()));
  for (const auto& o : outputs) put(o.value), put(static_cast<int>(o.dtype));
  put(has_reduction ? static_cast<std::int64_t>(reductions.size()) : 0);
  for (const auto& r : reductions)
    put(static_cast<std::int64_t>(r.axes) << 16 | static_cast<int>(r.op) << 8 |
        static_cast<int>(r.over));
  XXH64_update(&state, buffer, used);
  return XXH64_digest(&state);
}

void Kernel::validate() const {
  for (std::size_t v = 0; v < body.size(); ++v) {
    const Instr& i = body[v];
    // Named only when it is wrong: this runs for every kernel an eager op builds.
    const auto here = [&] {
      return "instruction %" + std::to_string(v) + " (" + std::string(name(i.op)) + ")";
    };
    if (i.op == OpCode::Load && (i.a < 0 || i.a >= static_cast<int>(inputs.size())))
      invalid(here() + " loads input " + std::to_string(i.a) + ", expected 0.." +
              std::to_string(static_cast<int>(inputs.size()) - 1));
    if (i.op == OpCode::Load && inputs[i.a].dtype != i.dtype)
      invalid(here() + " loads " + std::string(switchyard::name(inputs[i.a].dtype)) + " input as " +
              std::string(switchyard::name(i.dtype)));
    if (i.op == OpCode::Scalar && (i.a < 0 || i.a >= static_cast<int>(scalars.size())))
      invalid(here() + " reads scalar " + std::to_string(i.a) + " of " +
              std::to_string(scalars.size()));
    const std::int32_t operands[3] = {i.a, i.b, i.c};
    for (int k = 0; k < arity(i.op); ++k)
      if (operands[k] < 0 || operands[k] >= static_cast<std::int32_t>(v))
        invalid(here() + " reads %" + std::to_string(operands[k]) +
                ", expected an earlier instruction");
    if (is_classification(i.op) && (i.dtype != DType::Bool || !is_floating(body[i.a].dtype)))
      invalid(here() + " gives " + std::string(switchyard::name(i.dtype)) + " from " +
              std::string(switchyard::name(body[i.a].dtype)) +
              ", expected a bool from a float operand");
  }
  if (outputs.empty()) invalid("no outputs");
  for (const auto& o : outputs) {
    if (o.value < 0 || o.value >= static_cast<std::int32_t>(body.size()))
      invalid("output reads %" + std::to_string(o.value) + " of " + std::to_string(body.size()));
    if (body[o.value].dtype != o.dtype) invalid("output dtype differs from its value's dtype");
  }
  validate_reductions(*this);
}

int Kernel::transcendental_count() const {
  int n = 0;
  for (const auto& i : body) n += is_transcendental(i.op);
  return n;
}

bool Kernel::uses_float64() const {
  const auto f64 = [](DType t) { return t == DType::Float64; };
  return std::any_of(inputs.begin(), inputs.end(), [&](const Input& i) { return f64(i.dtype); }) ||
         std::any_of(scalars.begin(), scalars.end(), f64) ||
         std::any_of(body.begin(), body.end(), [&](const Instr& i) { return f64(i.dtype); });
}

int Kernel::arithmetic_count() const {
  int n = 0;
  for (const auto& i : body)
    n += i.op != OpCode::Load && i.op != OpCode::Scalar && !is_transcendental(i.op);
  return n;
}

std::int32_t KernelBuilder::load(DType dtype, Layout layout) {
  kernel_.inputs.push_back({dtype, layout});
  kernel_.body.push_back(
      {OpCode::Load, dtype, static_cast<std::int32_t>(kernel_.inputs.size() - 1)});
  return static_cast<std::int32_t>(kernel_.body.size() - 1);
}

std::int32_t KernelBuilder::scalar(DType dtype) {
  kernel_.scalars.push_back(dtype);
  kernel_.body.push_back(
      {OpCode::Scalar, dtype, static_cast<std::int32_t>(kernel_.scalars.size() - 1)});
  return static_cast<std::int32_t>(kernel_.body.size() - 1);
}

std::int32_t KernelBuilder::unary(OpCode op, std::int32_t a, DType result) {
  kernel_.body.push_back({op, result, a});
  return static_cast<std::int32_t>(kernel_.body.size() - 1);
}

std::int32_t KernelBuilder::cast(std::int32_t a, DType to) {
  if (dtype(a) == to) return a;
  return unary(OpCode::Cast, a, to);
}

std::int32_t KernelBuilder::binary(OpCode op, std::int32_t a, std::int32_t b, DType result) {
  kernel_.body.push_back({op, result, a, b});
  return static_cast<std::int32_t>(kernel_.body.size() - 1);
}

std::int32_t KernelBuilder::where(std::int32_t cond, std::int32_t a, std::int32_t b) {
  kernel_.body.push_back({OpCode::Where, dtype(a), cond, a, b});
  return static_cast<std::int32_t>(kernel_.body.size() - 1);
}

void KernelBuilder::output(std::int32_t value) {
  kernel_.outputs.push_back({value, dtype(value)});
}

void KernelBuilder::reduce(ReduceOp op, ReduceOver over, std::int32_t axes) {
  kernel_.has_reduction = true;
  kernel_.reductions.push_back({op, over, axes});
}

Kernel KernelBuilder::build() {
  kernel_.validate();
  return std::move(kernel_);
}

}  // namespace switchyard::ir

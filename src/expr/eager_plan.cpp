#include "expr/eager_plan.hpp"

#include <cstring>
#include <unordered_map>

#include "expr/root_space.hpp"

namespace switchyard::expr {
namespace {

static_assert(ir::kOpCodeCount <= 256 && kDTypeCount <= 256);

// What a kernel of one op is made of, in 64 bits: the op and its result dtype (16 bits), then
// per operand its dtype, its layout, whether it is a scalar, and which input or scalar argument
// it reads (16 bits each; operands that read one array share an argument).
struct Arguments {
  std::uint64_t key = 0;
  int count = 0;
  std::int32_t operand_slot[3] = {};
  bool operand_scalar[3] = {};
  ir::Layout layout[3] = {};
  DType dtype[3] = {};
};

struct SharedKernel {
  std::shared_ptr<const ir::Kernel> kernel;
  std::uint64_t signature = 0;
};

SharedKernel shared(ir::KernelBuilder& k) {
  auto kernel = std::make_shared<const ir::Kernel>(k.build());
  const std::uint64_t signature = kernel->hash();
  return {std::move(kernel), signature};
}

// The kernel `key` names in this thread's `table`, built once. Each kind of eager op has its
// own table: their keys are laid out differently.
using KernelTable = std::unordered_map<std::uint64_t, SharedKernel>;
template <class Build>
const SharedKernel& kernel_in(KernelTable& table, std::uint64_t key, Build build) {
  auto it = table.find(key);
  if (it == table.end()) it = table.emplace(key, build()).first;
  return it->second;
}

// Built in operand order as the fusion pass emits it (KernelBuild in fusion.cpp): each new input
// or scalar where it is first read, then the instruction, then the output.
SharedKernel build(ir::OpCode op, DType result, const Arguments& a) {
  ir::KernelBuilder k;
  std::int32_t inputs[3], scalars[3], values[3];
  int loaded = 0, scalar_count = 0;
  for (int j = 0; j < a.count; ++j) {
    const std::int32_t slot = a.operand_slot[j];
    if (a.operand_scalar[j]) {
      if (slot == scalar_count) scalars[scalar_count++] = k.scalar(a.dtype[j]);
      values[j] = scalars[slot];
    } else {
      if (slot == loaded) inputs[loaded++] = k.load(a.dtype[j], a.layout[j]);
      values[j] = inputs[slot];
    }
  }
  std::int32_t value;
  if (op == ir::OpCode::Cast)
    value = k.dtype(values[0]) == result ? values[0] : k.cast(values[0], result);
  else if (a.count == 3)
    value = k.where(values[0], values[1], values[2]);
  else if (a.count == 2)
    value = k.binary(op, values[0], values[1], result);
  else
    value = k.unary(op, values[0], result);
  k.output(value);
  return shared(k);
}

const SharedKernel& kernel_for(ir::OpCode op, DType result, const Arguments& a) {
  thread_local KernelTable kernels;
  return kernel_in(kernels, a.key, [&] { return build(op, result, a); });
}

bool same_scalar(const ScalarValue& a, const ScalarValue& b) {
  return a.dtype == b.dtype && std::memcmp(&a.f, &b.f, sizeof a.f) == 0 && a.i == b.i;
}

bool same_view(const runtime::View& a, const runtime::View& b) {
  return a.buffer == b.buffer && a.dtype == b.dtype && a.offset == b.offset &&
         a.strides == b.strides;
}

// A reduction of one ready array, as the fusion pass builds it: load, output, reduce.
std::optional<PlannedKernel> plan_eager_reduction(const NodePtr& root) {
  const auto operands = root->pending_operands();
  const NodePtr& operand = operands[0];
  if (!operand || operand->kind == NodeKind::Scalar || !operand->ready()) return std::nullopt;
  const RootSpace space = space_of(*root, operand);
  const runtime::View& value = operand->value();
  PlannedKernel out;
  runtime::Group& g = out.group;
  g.shape = space.shape;
  g.output_shapes.push_back(root->shape);
  g.inputs.push_back(value.through(over_space(value.geometry(), space)));
  const runtime::View& input = g.inputs.back();
  const ir::Layout layout = runtime::classify(input.shape, input.strides);
  // The op (8 bits), the input's dtype (8) and layout (3), how it folds (1), and over how many
  // axes (up to 32).
  const std::uint64_t key =
      static_cast<std::uint64_t>(root->reduce.op) | static_cast<std::uint64_t>(input.dtype) << 8 |
      static_cast<std::uint64_t>(layout) << 16 | static_cast<std::uint64_t>(space.over) << 19 |
      static_cast<std::uint64_t>(space.reduced_axes()) << 20;
  thread_local KernelTable kernels;
  const SharedKernel& kernel = kernel_in(kernels, key, [&] {
    ir::KernelBuilder k;
    k.output(k.load(input.dtype, layout));
    k.reduce(root->reduce.op, space.over, space.reduced_axes());
    return shared(k);
  });
  g.kernel = kernel.kernel;
  g.signature = kernel.signature;
  out.roots.push_back(root);
  return out;
}

}  // namespace

std::optional<PlannedKernel> plan_eager_op(const NodePtr& root) {
  if (root->ready()) return std::nullopt;
  if (root->kind == NodeKind::Reduce) return plan_eager_reduction(root);
  if (root->kind != NodeKind::Op) return std::nullopt;
  const auto operands = root->pending_operands();
  const int arity = ir::arity(root->op);
  for (int j = 0; j < arity; ++j)
    if (!operands[j] || (operands[j]->kind != NodeKind::Scalar && !operands[j]->ready()))
      return std::nullopt;

  PlannedKernel out;
  runtime::Group& g = out.group;
  g.shape = root->shape;
  g.output_shapes.push_back(root->shape);
  g.inputs.reserve(arity);
  Arguments a;
  a.count = arity;
  a.key = static_cast<std::uint64_t>(root->op) | static_cast<std::uint64_t>(root->dtype) << 8;
  for (int j = 0; j < arity; ++j) {
    const Node& operand = *operands[j];
    std::int32_t slot = 0;
    if (operand.kind == NodeKind::Scalar) {
      auto& scalars = g.scalars;
      while (slot < static_cast<std::int32_t>(scalars.size()) &&
             !same_scalar(scalars[slot], operand.scalar))
        ++slot;
      if (slot == static_cast<std::int32_t>(scalars.size())) scalars.push_back(operand.scalar);
      a.operand_scalar[j] = true;
      a.dtype[j] = operand.scalar.dtype;
    } else {
      const runtime::View& value = operand.value();
      runtime::View input = value.shape == root->shape
                                ? value
                                : value.through(broadcast(value.geometry(), root->shape));
      auto& inputs = g.inputs;
      while (slot < static_cast<std::int32_t>(inputs.size()) && !same_view(inputs[slot], input))
        ++slot;
      a.dtype[j] = input.dtype;
      a.layout[j] = runtime::classify(input.shape, input.strides);
      if (slot == static_cast<std::int32_t>(inputs.size())) inputs.push_back(std::move(input));
    }
    a.operand_slot[j] = slot;
    a.key |=
        (static_cast<std::uint64_t>(a.dtype[j]) | static_cast<std::uint64_t>(a.layout[j]) << 8 |
         static_cast<std::uint64_t>(a.operand_scalar[j]) << 11 |
         static_cast<std::uint64_t>(slot) << 12)
        << (16 + 16 * j);
  }
  const SharedKernel& shared = kernel_for(root->op, root->dtype, a);
  g.kernel = shared.kernel;
  g.signature = shared.signature;
  out.roots.push_back(root);
  return out;
}

}  // namespace switchyard::expr

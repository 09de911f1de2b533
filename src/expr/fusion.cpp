#include "expr/fusion.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "expr/eager_plan.hpp"
#include "expr/root_space.hpp"

namespace switchyard::expr {

std::string_view name(FusionStop stop) {
  switch (stop) {
    case FusionStop::ReductionConsumed:
      return "reduction-consumed";
    case FusionStop::GraphBound:
      return "graph-bound";
    case FusionStop::Reshape:
      return "reshape";
    case FusionStop::LibraryOp:
      return "library-op";
    case FusionStop::IterationSpace:
      return "iteration-space";
    case FusionStop::DeviceScope:
      return "device-scope";
  }
  return "?";
}

namespace {

bool pending(const Node& n) {
  return n.kind != NodeKind::Leaf && n.kind != NodeKind::Scalar && !n.ready();
}

}  // namespace

bool same_pin(const Node& a, const Node& b) {
  return a.pin.device == b.pin.device && a.pin.parallelism == b.pin.parallelism;
}

namespace {

bool contains(const std::vector<const Node*>& seen, const Node* n) {
  return std::find(seen.begin(), seen.end(), n) != seen.end();
}

// Builds one kernel: emits each node once per view context, loads each distinct input view
// once, and collects the launch inputs and scalars.
class KernelBuild {
 public:
  KernelBuild(RootSpace space, runtime::Group& group) : space_(std::move(space)), group_(group) {}
  ~KernelBuild() { s_.clear(); }
  KernelBuild(const KernelBuild&) = delete;
  KernelBuild& operator=(const KernelBuild&) = delete;

  std::int32_t emit(const NodePtr& n, int context) {
    for (const auto& [node, ctx, value] : memo_)
      if (node == n && ctx == context) return value;
    const std::int32_t value = emit_new(n, context);
    memo_.emplace_back(n, context, value);
    return value;
  }

  ir::KernelBuilder& builder() { return k_; }

 private:
  struct Context {
    int outer;
    NodePtr view;  // the View node whose operand is read in this context
    Shape operand_shape;
  };
  // The build's bookkeeping, kept per thread and cleared after each build (planning does not
  // recurse): realising a small expression allocates no bookkeeping once warm.
  struct Scratch {
    std::vector<Context> contexts;
    std::vector<std::tuple<NodePtr, int, std::int32_t>> memo;  // keeps what it names alive
    std::vector<std::int32_t> loads, scalar_values;
    std::vector<std::pair<ir::Instr, std::int32_t>> computed;
    void clear() {
      contexts.clear(), memo.clear(), loads.clear(), scalar_values.clear(), computed.clear();
    }
  };
  static Scratch& scratch() {
    thread_local Scratch s;
    return s;
  }

  std::int32_t emit_new(const NodePtr& n, int context) {
    if (n->kind == NodeKind::Scalar) return scalar(n->scalar);
    const auto operands = n->ready() ? decltype(n->pending_operands()){} : n->pending_operands();
    // Ready (a leaf, or realised meanwhile by another thread): its value is an input.
    if (!operands[0]) return load(n->value(), context);
    if (n->kind == NodeKind::View)
      return emit(operands[0], context_for(context, n, operands[0]->shape));
    std::int32_t v[3] = {-1, -1, -1};
    for (int j = 0; j < ir::arity(n->op); ++j) v[j] = emit(operands[j], context);
    return instruction({n->op, n->dtype, v[0], v[1], v[2]});
  }

  int context_for(int outer, const NodePtr& view, const Shape& operand_shape) {
    for (int c = 0; c < static_cast<int>(contexts_.size()); ++c)
      if (contexts_[c].outer == outer && contexts_[c].view == view) return c;
    contexts_.push_back({outer, view, operand_shape});
    return static_cast<int>(contexts_.size()) - 1;
  }

  // `value` seen from the kernel: through every enclosing view, then over the iteration space.
  runtime::View place(const runtime::View& value, int context) const {
    Geometry g = value.geometry();
    for (int c = context; c >= 0; c = contexts_[c].outer)
      g = contexts_[c].view->view(broadcast(g, contexts_[c].operand_shape));
    return value.through(over_space(std::move(g), space_));
  }

  std::int32_t load(const runtime::View& value, int context) {
    runtime::View a = place(value, context);
    auto& inputs = group_.inputs;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].buffer == a.buffer && inputs[i].dtype == a.dtype &&
          inputs[i].offset == a.offset && inputs[i].strides == a.strides)
        return loads_[i];
    loads_.push_back(k_.load(a.dtype, runtime::classify(a.shape, a.strides)));
    inputs.push_back(std::move(a));
    return loads_.back();
  }

  std::int32_t scalar(const ScalarValue& s) {
    auto& scalars = group_.scalars;
    for (std::size_t i = 0; i < scalars.size(); ++i)
      if (scalars[i].dtype == s.dtype && std::memcmp(&scalars[i].f, &s.f, sizeof s.f) == 0 &&
          scalars[i].i == s.i)
        return scalar_values_[i];
    scalars.push_back(s);
    scalar_values_.push_back(k_.scalar(s.dtype));
    return scalar_values_.back();
  }

  // An instruction, or the identical one emitted before (common subexpressions once).
  std::int32_t instruction(const ir::Instr& i) {
    if (i.op == ir::OpCode::Cast && k_.dtype(i.a) == i.dtype) return i.a;
    for (const auto& [instr, value] : computed_)
      if (instr.op == i.op && instr.dtype == i.dtype && instr.a == i.a && instr.b == i.b &&
          instr.c == i.c)
        return value;
    const std::int32_t value = i.op == ir::OpCode::Cast ? k_.cast(i.a, i.dtype)
                               : ir::arity(i.op) == 3   ? k_.where(i.a, i.b, i.c)
                               : ir::arity(i.op) == 2   ? k_.binary(i.op, i.a, i.b, i.dtype)
                                                        : k_.unary(i.op, i.a, i.dtype);
    computed_.emplace_back(i, value);
    return value;
  }

  RootSpace space_;
  runtime::Group& group_;
  ir::KernelBuilder k_;
  Scratch& s_ = scratch();
  std::vector<Context>& contexts_ = s_.contexts;
  std::vector<std::tuple<NodePtr, int, std::int32_t>>& memo_ = s_.memo;
  std::vector<std::int32_t>& loads_ = s_.loads;
  std::vector<std::int32_t>& scalar_values_ = s_.scalar_values;
  std::vector<std::pair<ir::Instr, std::int32_t>>& computed_ = s_.computed;
};

}  // namespace

std::vector<NodePtr> dependencies(const std::vector<NodePtr>& roots) {
  std::vector<NodePtr> needed;
  // Reused across calls (this does not recurse): no allocation per realisation once warm.
  thread_local std::vector<const Node*> seen;
  thread_local std::vector<NodePtr> stack;
  seen.clear();
  for (const NodePtr& root : roots)
    for (const NodePtr& o : root->pending_operands())
      if (o) stack.push_back(o);
  while (!stack.empty()) {
    NodePtr n = std::move(stack.back());
    stack.pop_back();
    if (!pending(*n) || contains(seen, n.get())) continue;
    seen.push_back(n.get());
    if (n->kind == NodeKind::Reduce) {
      needed.push_back(std::move(n));
      continue;
    }
    for (const NodePtr& o : n->pending_operands())
      if (o) stack.push_back(o);
  }
  return needed;
}

std::vector<PlannedKernel> plan(const std::vector<NodePtr>& roots) {
  if (roots.size() == 1)
    if (auto eager = plan_eager_op(roots.front())) {
      std::vector<PlannedKernel> planned;
      planned.push_back(std::move(*eager));
      return planned;
    }
  struct Planned {
    RootSpace space;
    std::vector<NodePtr> roots;
    std::vector<NodePtr> sources;  // what each root's output computes
  };
  std::vector<Planned> kernels;
  for (const NodePtr& root : roots) {
    const auto operands = root->pending_operands();
    const NodePtr source = root->kind == NodeKind::Reduce ? operands[0] : root;
    if (!source) continue;  // realised meanwhile by another thread
    RootSpace space = space_of(*root, operands[0]);
    // Results of one space share a kernel, as many as one launch can write.
    auto fits = [&](const Planned& p) {
      return p.space == space && same_pin(*p.roots.front(), *root) &&
             p.roots.size() < runtime::kMaxKernelOutputs;
    };
    auto it = std::find_if(kernels.begin(), kernels.end(), fits);
    if (it == kernels.end()) it = kernels.insert(kernels.end(), Planned{std::move(space), {}, {}});
    it->roots.push_back(root);
    it->sources.push_back(source);
  }

  // Each root's graph reads at most kMaxKernelInputs inputs (node.cpp bounds it), but the roots
  // of one kernel together may read more: such a kernel is split in halves until each fits.
  std::vector<PlannedKernel> planned;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    PlannedKernel out;
    out.group.shape = kernels[k].space.shape;
    {
      const Planned& p = kernels[k];
      KernelBuild build(p.space, out.group);
      for (std::size_t i = 0; i < p.roots.size(); ++i) {
        build.builder().output(build.emit(p.sources[i], -1));
        out.group.output_shapes.push_back(p.roots[i]->shape);
        if (p.space.reduction)
          build.builder().reduce(p.roots[i]->reduce.op, p.space.over, p.space.reduced_axes());
      }
      if (out.group.inputs.size() <= runtime::kMaxKernelInputs || p.roots.size() == 1) {
        out.group.kernel = std::make_shared<const ir::Kernel>(build.builder().build());
        out.group.signature = out.group.kernel->hash();
      }
    }
    if (!out.group.kernel) {
      Planned first = std::move(kernels[k]);
      const auto half = static_cast<std::ptrdiff_t>(first.roots.size() / 2);
      Planned second{first.space,
                     {first.roots.begin() + half, first.roots.end()},
                     {first.sources.begin() + half, first.sources.end()}};
      first.roots.resize(half), first.sources.resize(half);
      kernels.push_back(std::move(first));
      kernels.push_back(std::move(second));
      continue;
    }
    out.roots = std::move(kernels[k].roots);
    planned.push_back(std::move(out));
  }
  return planned;
}

}  // namespace switchyard::expr

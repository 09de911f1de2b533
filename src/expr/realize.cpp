#include "expr/realize.hpp"

#include <algorithm>

#include "core/checked.hpp"
#include "runtime/executor.hpp"
#include "runtime/explain_recorder.hpp"

namespace switchyard::expr {
namespace {

void note(FusionStop stop, const Node& node) {
  if (auto* explain = runtime::ExplainRecorder::active())
    explain->fusion_stop(std::string(name(stop)) + ": " + describe(node));
}

// Runs a kernel where the DeviceScope its nodes were made under pointed, then restores the
// thread's own.
class PinFor {
 public:
  explicit PinFor(const runtime::Candidate& pin) : previous_(runtime::pinned_candidate()) {
    runtime::pin_candidate(pin);
  }
  ~PinFor() { runtime::pin_candidate(previous_); }
  PinFor(const PinFor&) = delete;
  PinFor& operator=(const PinFor&) = delete;

 private:
  runtime::Candidate previous_;
};

// Realises first what `roots` need and a kernel cannot contain (reductions consumed by them).
void realize_dependencies(const std::vector<NodePtr>& roots) {
  const auto first = dependencies(roots);
  if (first.empty()) return;
  for (const NodePtr& d : first) note(FusionStop::ReductionConsumed, *d);
  realize(first);
}

// Whether a kernel reading `input` while writing `output` (same storage, one iteration space)
// could read an element after writing it: only an input that reads at each position exactly the
// element written there is safe.
bool may_read_written(const runtime::View& input, const runtime::View& output) {
  if (input.buffer != output.buffer) return false;
  bool same = input.offset == output.offset && input.shape == output.shape;
  for (int i = 0; same && i < input.shape.size(); ++i)
    same = input.shape[i] == 1 || input.strides[i] == output.strides[i];
  if (same) return false;
  const auto in = element_span(input.shape, input.strides, input.offset);
  const auto out = element_span(output.shape, output.strides, output.offset);
  return !in || !out || (in->lo <= out->hi && out->lo <= in->hi);
}

}  // namespace

std::string describe(const Node& n) {
  std::string text;
  switch (n.kind) {
    case NodeKind::Leaf:
      text = "array";
      break;
    case NodeKind::Scalar:
      text = "scalar";
      break;
    case NodeKind::Op:
      text = std::string(ir::name(n.op));
      break;
    case NodeKind::Reduce:
      text = std::string(ir::name(n.reduce.op));
      break;
    case NodeKind::View:
      text = "view";
      break;
  }
  return text + " " + to_string(n.shape) + " " + std::string(name(n.dtype));
}

void realize(const std::vector<NodePtr>& nodes) {
  std::vector<NodePtr> roots;
  for (const NodePtr& n : nodes)
    if (n && !n->ready() && n->kind != NodeKind::Scalar &&
        std::find(roots.begin(), roots.end(), n) == roots.end())
      roots.push_back(n);
  if (roots.empty()) return;
  realize_dependencies(roots);
  const auto kernels = plan(roots);
  if (kernels.size() > 1)
    for (std::size_t i = 1; i < kernels.size(); ++i)
      note(FusionStop::IterationSpace, *kernels[i].roots.front());
  for (const PlannedKernel& k : kernels) {
    const PinFor pin(k.roots.front()->pin);
    const auto outputs = runtime::realize(k.group);
    for (std::size_t i = 0; i < outputs.size(); ++i) k.roots[i]->publish(outputs[i]);
  }
}

void realize_for(const NodePtr& node, FusionStop reason) {
  note(reason, *node);
  realize({node});
}

runtime::View storage_of(const NodePtr& node) {
  if (node->kind == NodeKind::View && node->ready())
    throw ValueError(
        "cannot write into a view of a lazily computed array after reading it: "
        "reading computed the view as a copy, which the write would not reach; "
        "expected a view taken after the array was computed (eval() it first)");
  if (const NodePtr viewed = node->pending_operands()[0]; viewed && node->kind == NodeKind::View) {
    const runtime::View storage = storage_of(viewed);
    return storage.through(node->view(storage.geometry()));
  }
  realize({node});
  return node->value();
}

bool realize_into(const NodePtr& node, const runtime::View& destination) {
  realize_dependencies({node});
  auto kernels = plan({node});
  runtime::Group& group = kernels.front().group;
  for (const runtime::View& input : group.inputs)
    if (may_read_written(input, destination)) return false;
  group.destinations = {destination};
  const PinFor pin(node->pin);
  runtime::realize(group);
  return true;
}

}  // namespace switchyard::expr

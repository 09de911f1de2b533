#include "expr/realize.hpp"

#include <algorithm>

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
  if (const auto first = dependencies(roots); !first.empty()) {
    for (const NodePtr& d : first) note(FusionStop::ReductionConsumed, *d);
    realize(first);
  }
  const auto kernels = plan(roots);
  if (kernels.size() > 1)
    for (std::size_t i = 1; i < kernels.size(); ++i)
      note(FusionStop::IterationSpace, *kernels[i].roots.front());
  for (const PlannedKernel& k : kernels) {
    const PinFor pin(k.roots.front()->pin);
    const auto outputs = runtime::realize(k.group);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const runtime::View& v = outputs[i];
      k.roots[i]->publish(Array(v.buffer, v.dtype, v.shape, v.strides, v.offset));
    }
  }
}

void realize_for(const NodePtr& node, FusionStop reason) {
  note(reason, *node);
  realize({node});
}

}  // namespace switchyard::expr

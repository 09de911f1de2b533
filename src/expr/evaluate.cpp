#include "expr/evaluate.hpp"

#include <algorithm>

#include "runtime/explain_recorder.hpp"

namespace switchyard::expr {
namespace {

void note(FusionStop stop, const Node& node) {
  if (auto* explain = runtime::ExplainRecorder::active())
    explain->fusion_stop(std::string(name(stop)) + ": " + describe(node));
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
  if (const auto first = dependencies(roots); !first.empty()) {
    for (const NodePtr& d : first) note(FusionStop::ReductionConsumed, *d);
    realize(first);
  }
  const auto kernels = plan(roots);
  if (kernels.size() > 1)
    for (std::size_t i = 1; i < kernels.size(); ++i)
      note(FusionStop::IterationSpace, *kernels[i].roots.front());
  for (const PlannedKernel& k : kernels) {
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

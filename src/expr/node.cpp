#include "expr/node.hpp"

#include <mutex>

#include "expr/realize.hpp"

namespace switchyard::expr {
namespace {

// Publishing is rare next to building, and two threads rarely publish at once: a few striped
// mutexes instead of one per node keep nodes small.
std::mutex& stripe(const Node* node) {
  static std::mutex stripes[64];
  return stripes[(reinterpret_cast<std::uintptr_t>(node) >> 6) % 64];
}

// Inputs a pending graph may gather before its largest operand is realised (the backends launch
// at most 16); leaves used twice count twice, so this errs toward splitting early.
constexpr std::int32_t kMaxGraphInputs = 16;

std::int32_t inputs_under(const Node& n) {
  if (n.ready() || n.kind == NodeKind::Leaf) return 1;
  return n.kind == NodeKind::Scalar ? 0 : n.input_count;
}

std::int32_t size_under(const Node& n) {
  return n.ready() ? 1 : n.graph_size;
}

// Keeps a pending graph under one DeviceScope (operands made under another run there first),
// within kMaxGraphSize nodes and kMaxGraphInputs inputs: realises the largest pending operands
// until the new node fits. Each realisation is a fusion stop.
void bound(Node& n) {
  n.pin = runtime::pinned_candidate();
  for (const auto& o : n.operands)
    if (o && o->kind != NodeKind::Scalar && !o->ready() && !same_pin(*o, n))
      realize_for(o, FusionStop::DeviceScope);
  for (;;) {
    std::int32_t size = 1, inputs = 0;
    const NodePtr* largest = nullptr;
    for (const auto& o : n.operands) {
      if (!o) continue;
      size += size_under(*o);
      inputs += inputs_under(*o);
      if (!o->ready() && o->kind != NodeKind::Leaf && o->kind != NodeKind::Scalar &&
          (!largest || o->graph_size > (*largest)->graph_size))
        largest = &o;
    }
    n.graph_size = size;
    n.input_count = inputs;
    if ((size <= kMaxGraphSize && inputs <= kMaxGraphInputs) || !largest) return;
    realize_for(*largest, FusionStop::GraphBound);
  }
}

NodePtr make(NodeKind kind, DType dtype, const Shape& shape) {
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->dtype = dtype;
  n->shape = shape;
  return n;
}

}  // namespace

std::array<std::shared_ptr<Node>, 3> Node::pending_operands() const {
  std::lock_guard lock(stripe(this));
  return operands;
}

void Node::publish(Array value) {
  std::array<std::shared_ptr<Node>, 3> released;
  {
    std::lock_guard lock(stripe(this));
    if (ready_.load(std::memory_order_relaxed)) return;
    value_ = std::move(value);
    released.swap(operands);
    ready_.store(true, std::memory_order_release);
  }
}

std::shared_ptr<Node> Node::leaf(const Array& a) {
  auto n = make(NodeKind::Leaf, a.dtype(), a.shape());
  n->value_ = a;
  n->ready_.store(true, std::memory_order_relaxed);
  return n;
}

NodePtr node_of(const Array& a) {
  if (const NodePtr& n = a.node()) return n;
  return Node::leaf(a);
}

NodePtr make_scalar(ScalarValue value) {
  auto n = make(NodeKind::Scalar, value.dtype, Shape{});
  n->scalar = value;
  return n;
}

NodePtr make_op(ir::OpCode op, DType dtype, const Shape& shape, NodePtr a, NodePtr b, NodePtr c) {
  auto n = make(NodeKind::Op, dtype, shape);
  n->op = op;
  n->operands = {std::move(a), std::move(b), std::move(c)};
  bound(*n);
  return n;
}

NodePtr make_cast(NodePtr a, DType dtype) {
  if (a->dtype == dtype) return a;
  const Shape shape = a->shape;
  return make_op(ir::OpCode::Cast, dtype, shape, std::move(a));
}

NodePtr make_reduce(ReduceSpec spec, DType dtype, const Shape& shape, NodePtr a) {
  auto n = make(NodeKind::Reduce, dtype, shape);
  n->reduce = spec;
  n->operands[0] = std::move(a);
  bound(*n);
  return n;
}

NodePtr make_view(NodePtr a, const Shape& shape, std::function<Array(const Array&)> view) {
  auto n = make(NodeKind::View, a->dtype, shape);
  n->view = std::move(view);
  n->operands[0] = std::move(a);
  bound(*n);
  return n;
}

}  // namespace switchyard::expr

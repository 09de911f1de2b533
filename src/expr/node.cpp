#include "expr/node.hpp"

#include <algorithm>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "expr/realize.hpp"
#include "runtime/buffer.hpp"

namespace switchyard::expr {
namespace {

// Publishing is rare next to building, and two threads rarely publish at once: a few striped
// mutexes instead of one per node keep nodes small.
std::mutex& stripe(const Node* node) {
  static std::mutex stripes[64];
  return stripes[(reinterpret_cast<std::uintptr_t>(node) >> 6) % 64];
}

// Distinct inputs a pending graph may gather before its largest operand is realised (the
// backends launch at most 16).
constexpr std::int32_t kMaxGraphInputs = 16;

bool is_source(const Node& n) {
  return n.ready() || n.kind == NodeKind::Leaf || n.kind == NodeKind::Scalar;
}

std::int32_t inputs_under(const Node& n) {
  if (n.kind == NodeKind::Scalar) return 0;
  return is_source(n) ? 1 : n.input_count;
}

// Operations only: inputs and scalars are bounded by kMaxGraphInputs.
std::int32_t size_under(const Node& n) {
  return is_source(n) ? 0 : n.graph_size;
}

// The operations and distinct inputs of the graph under `root`, counted exactly; stops once both
// are known to be past their bounds.
std::pair<std::int32_t, std::int32_t> exact_counts(const Node& root) {
  std::vector<const Node*> seen{&root};
  std::vector<const Node*> inputs;
  std::vector<NodePtr> stack;
  for (const auto& o : root.operands)
    if (o) stack.push_back(o);
  std::int32_t operations = 1;
  auto same_input = [](const Node* a, const Node* b) {
    const runtime::View &x = a->value(), &y = b->value();
    return x.buffer == y.buffer && x.dtype == y.dtype && x.offset == y.offset &&
           x.shape == y.shape && x.strides == y.strides;
  };
  while (!stack.empty() && (operations <= kMaxGraphSize ||
                            static_cast<std::int32_t>(inputs.size()) <= kMaxGraphInputs)) {
    NodePtr n = std::move(stack.back());
    stack.pop_back();
    if (std::find(seen.begin(), seen.end(), n.get()) != seen.end()) continue;
    seen.push_back(n.get());
    if (n->kind == NodeKind::Scalar) continue;
    if (is_source(*n)) {
      if (std::none_of(inputs.begin(), inputs.end(),
                       [&](const Node* i) { return same_input(i, n.get()); }))
        inputs.push_back(n.get());
      continue;
    }
    ++operations;
    for (const NodePtr& o : n->pending_operands())
      if (o) stack.push_back(o);
  }
  return {operations, static_cast<std::int32_t>(inputs.size())};
}

// Keeps a pending graph under one DeviceScope (operands made under another run there first),
// within kMaxGraphSize operations and kMaxGraphInputs distinct inputs: realises the largest
// pending operands until the new node fits. Each realisation is a fusion stop. The counts add up
// the operands' (a shared operand counts twice), and are recounted exactly when they pass a
// bound, so reuse does not split a graph that fits.
void bound(Node& n) {
  n.pin = runtime::pinned_candidate();
  for (const auto& o : n.operands)
    if (o && !is_source(*o) && !same_pin(*o, n)) realize_for(o, FusionStop::DeviceScope);
  for (;;) {
    std::int32_t size = 1, inputs = 0;
    const NodePtr* largest = nullptr;
    for (const NodePtr& o : n.operands) {
      if (!o) continue;
      size += size_under(*o);
      inputs += inputs_under(*o);
      if (!is_source(*o) && (!largest || o->graph_size > (*largest)->graph_size)) largest = &o;
    }
    if (size > kMaxGraphSize || inputs > kMaxGraphInputs) std::tie(size, inputs) = exact_counts(n);
    n.graph_size = size;
    n.input_count = inputs;
    if ((size <= kMaxGraphSize && inputs <= kMaxGraphInputs) || !largest) return;
    realize_for(*largest, FusionStop::GraphBound);
  }
}

// Registers `n` as a reader of each of its operands; true when one of them is shared storage,
// whose owner may write it unseen, so that `n` must be computed now.
bool register_reads(const NodePtr& n) {
  bool reads_shared = false;
  for (const NodePtr& o : n->operands) {
    if (!o || o->kind == NodeKind::Scalar) continue;
    if (!is_source(*o)) {
      o->add_reader(n);
      continue;
    }
    Buffer& storage = *o->value().buffer;
    reads_shared = reads_shared || storage.shared();
    storage.add_pending_reader(n);
  }
  return reads_shared;
}

// A new node over `n`'s operands, bounded and registered as their reader.
NodePtr built(NodePtr n) {
  bound(*n);
  if (register_reads(n)) realize({n});
  return n;
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

void Node::publish(runtime::View value) {
  std::array<std::shared_ptr<Node>, 3> released;
  std::vector<std::weak_ptr<Node>> readers;
  {
    std::lock_guard lock(stripe(this));
    if (ready_.load(std::memory_order_relaxed)) return;
    value_ = std::move(value);
    released.swap(operands);
    readers.swap(readers_);
    ready_.store(true, std::memory_order_release);
  }
  if (readers.empty()) return;
  Buffer& storage = *value_.buffer;
  for (auto& r : readers) storage.add_pending_reader(std::move(r));
}

void Node::add_reader(const std::shared_ptr<Node>& reader) {
  {
    std::lock_guard lock(stripe(this));
    if (!ready_.load(std::memory_order_relaxed)) {
      if (readers_.size() >= 8)  // a node read by many: drop the readers gone since
        std::erase_if(readers_, [](const std::weak_ptr<Node>& r) { return r.expired(); });
      readers_.push_back(reader);
      return;
    }
  }
  value_.buffer->add_pending_reader(reader);  // published meanwhile
}

std::shared_ptr<Node> Node::leaf(runtime::View value) {
  auto n = make(NodeKind::Leaf, value.dtype, value.shape);
  n->value_ = std::move(value);
  n->ready_.store(true, std::memory_order_relaxed);
  return n;
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
  return built(std::move(n));
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
  return built(std::move(n));
}

NodePtr make_view(NodePtr a, const Shape& shape, GeometryTransform view) {
  auto n = make(NodeKind::View, a->dtype, shape);
  n->view = std::move(view);
  n->operands[0] = std::move(a);
  return built(std::move(n));
}

}  // namespace switchyard::expr

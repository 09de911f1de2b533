#include <string>
#include <unordered_set>

#include "node.hpp"

namespace switchyard::apps::nn {
namespace {

using detail::Node;
using Rule = std::function<std::vector<Array>(const Array& grad)>;

const std::shared_ptr<Node>& checked(const Var& v, const char* what) {
  if (!v.node()) throw ValueError(std::string(what) + ": expected a Var, given a null one");
  return v.node();
}

// A result of an operation; the rule is kept only when a gradient can flow through it.
Var record(Array value, std::vector<std::shared_ptr<Node>> parents, Rule rule) {
  auto node = std::make_shared<Node>();
  node->value = std::move(value);
  for (const auto& p : parents) node->requires_grad = node->requires_grad || p->requires_grad;
  if (node->requires_grad) {
    node->parents = std::move(parents);
    node->backward = std::move(rule);
  }
  return Var(std::move(node));
}

// The gradient of an operand broadcast to grad's shape: summed over the leading axes it lacked
// and over the axes where it had extent 1.
Array sum_to_shape(const Array& grad, const Shape& shape) {
  Array g = grad;
  const int extra = g.ndim() - shape.size();
  if (extra > 0) {
    std::vector<int> leading(static_cast<std::size_t>(extra));
    for (int i = 0; i < extra; ++i) leading[static_cast<std::size_t>(i)] = i;
    g = sum(g, std::span<const int>(leading));
  }
  std::vector<int> ones;
  for (int d = 0; d < shape.size(); ++d)
    if (shape[d] == 1 && g.shape()[d] != 1) ones.push_back(d);
  if (!ones.empty()) g = sum(g, std::span<const int>(ones), /*keepdims=*/true);
  return g;
}

// Nodes reachable from root that carry gradients, parents before children.
std::vector<Node*> topological_order(Node* root) {
  std::vector<Node*> order;
  std::unordered_set<Node*> seen;
  std::vector<std::pair<Node*, std::size_t>> stack{{root, 0}};
  seen.insert(root);
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < node->parents.size()) {
      Node* parent = node->parents[next++].get();
      if (parent->requires_grad && seen.insert(parent).second) stack.emplace_back(parent, 0);
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace

Var::Var(Array value, bool requires_grad) : node_(std::make_shared<Node>()) {
  if (!value) throw ValueError("value: expected an array, given a null one");
  node_->value = std::move(value);
  node_->requires_grad = requires_grad;
}

const Array& Var::value() const {
  return checked(*this, "Var")->value;
}
const Array& Var::grad() const {
  return checked(*this, "Var")->grad;
}
bool Var::requires_grad() const {
  return checked(*this, "Var")->requires_grad;
}

void Var::backward() const {
  Node* root = checked(*this, "backward").get();
  if (root->value.size() != 1)
    throw ShapeError("backward: expected a Var of one element, given shape " +
                     to_string(root->value.shape()));
  if (!root->requires_grad) return;
  const std::vector<Node*> order = topological_order(root);
  for (Node* node : order) node->grad = Array();
  root->grad = Array::ones(root->value.shape(), root->value.dtype());
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node* node = *it;
    if (!node->backward || !node->grad) continue;
    const std::vector<Array> grads = node->backward(node->grad);
    for (std::size_t i = 0; i < grads.size(); ++i) {
      Node* parent = node->parents[i].get();
      if (!parent->requires_grad) continue;
      parent->grad = parent->grad ? parent->grad + grads[i] : grads[i];
    }
  }
}

Var add(const Var& a, const Var& b) {
  const Shape sa = checked(a, "a")->value.shape(), sb = checked(b, "b")->value.shape();
  return record(a.value() + b.value(), {a.node(), b.node()}, [sa, sb](const Array& g) {
    return std::vector<Array>{sum_to_shape(g, sa), sum_to_shape(g, sb)};
  });
}

Var subtract(const Var& a, const Var& b) {
  const Shape sa = checked(a, "a")->value.shape(), sb = checked(b, "b")->value.shape();
  return record(a.value() - b.value(), {a.node(), b.node()}, [sa, sb](const Array& g) {
    return std::vector<Array>{sum_to_shape(g, sa), sum_to_shape(-g, sb)};
  });
}

Var multiply(const Var& a, const Var& b) {
  const Array x = checked(a, "a")->value, y = checked(b, "b")->value;
  return record(x * y, {a.node(), b.node()}, [x, y](const Array& g) {
    return std::vector<Array>{sum_to_shape(g * y, x.shape()), sum_to_shape(g * x, y.shape())};
  });
}

Var matmul(const Var& a, const Var& b) {
  const Array x = checked(a, "a")->value, y = checked(b, "b")->value;
  if (x.ndim() != 2 || y.ndim() != 2)
    throw ShapeError("matmul: expected 2-D operands, given shapes " + to_string(x.shape()) +
                     " and " + to_string(y.shape()));
  // BLAS runs eagerly, so only the gradients some parameter needs are computed (not the
  // input's, in a network). Transposed views go to BLAS as transposed operands, without copies.
  const bool need_a = a.requires_grad(), need_b = b.requires_grad();
  return record(matmul(x, y), {a.node(), b.node()}, [x, y, need_a, need_b](const Array& g) {
    return std::vector<Array>{need_a ? matmul(g, y.transpose()) : Array(),
                              need_b ? matmul(x.transpose(), g) : Array()};
  });
}

Var relu(const Var& a) {
  const Array x = checked(a, "a")->value;
  return record(maximum(x, 0), {a.node()}, [x](const Array& g) {
    return std::vector<Array>{where(x > 0, g, Array::zeros(Shape{}, g.dtype()))};
  });
}

Var sigmoid(const Var& a) {
  const Array y = 1 / (1 + exp(-checked(a, "a")->value));
  return record(y, {a.node()}, [y](const Array& g) { return std::vector<Array>{g * y * (1 - y)}; });
}

Var tanh(const Var& a) {
  const Array y = switchyard::tanh(checked(a, "a")->value);
  return record(y, {a.node()}, [y](const Array& g) { return std::vector<Array>{g * (1 - y * y)}; });
}

Var mean(const Var& a) {
  const Array x = checked(a, "a")->value;
  const double count = static_cast<double>(x.size());
  return record(switchyard::mean(x), {a.node()}, [x, count](const Array& g) {
    return std::vector<Array>{(g / count).broadcast_to(x.shape())};
  });
}

}  // namespace switchyard::apps::nn

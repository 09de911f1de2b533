#include "api/expression/evaluate.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "api/expression/diagnostic.hpp"

namespace switchyard::expr {
namespace {

bool is_scalar(const Value& v) {
  return std::holds_alternative<Scalar>(v);
}

// NumPy's & | ^ ~ are bitwise on integers and undefined on floats; ours are logical only, so
// they refuse what NumPy would compute differently instead of answering something else.
void require_bool_operands(const SyntaxTree& tree, const Node& node,
                           std::span<const Value> operands) {
  if (std::ranges::all_of(operands, is_bool)) return;
  std::string given;
  for (const Value& v : operands) given += (given.empty() ? "" : " and ") + type_name(v);
  throw DTypeError(at_position(tree.text, node.position,
                               "expected bool operands for '" + std::string(node.logical_operator) +
                                   "' (" + std::string(node.function->name) + "), found " + given +
                                   "; compare first, as in (a > 0) & (b < 1), or call " +
                                   std::string(node.function->name) +
                                   "(...), which takes nonzero as true"));
}

Value call(const SyntaxTree& tree, const Node& node, std::vector<Value>& values) {
  // Each value has one user: moving it out frees an intermediate array as soon as it is used.
  std::vector<Value> operands;
  operands.reserve(node.operands.size());
  for (const std::size_t i : node.operands) operands.push_back(std::move(values[i]));
  if (!node.logical_operator.empty()) require_bool_operands(tree, node, operands);
  const Array result = node.function->apply(operands, node.axis);
  if (std::ranges::all_of(operands, is_scalar)) return weak_scalar(result);
  return result;
}

}  // namespace

Array evaluate(const SyntaxTree& tree, std::span<const Array> variables) {
  std::vector<Value> values(tree.nodes.size());
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const Node& node = tree.nodes[i];
    switch (node.kind) {
      case Node::Kind::Literal:
        values[i] = node.literal;
        break;
      case Node::Kind::Variable:
        values[i] = variables[node.variable];
        break;
      case Node::Kind::Call:
        values[i] = call(tree, node, values);
        break;
    }
  }
  return array_of(values.back());
}

}  // namespace switchyard::expr

// A parsed expression: its nodes in post-order, every node after its operands. Evaluation is then
// one loop over the list, and no left-deep chain such as a+a+...+a (which the parser reads
// without recursion) turns into deep recursion later, in evaluation or in a destructor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/expression/functions.hpp"

namespace switchyard::expr {

struct Node {
  enum class Kind : std::uint8_t { Literal, Variable, Call };
  Kind kind;
  std::size_t position;  // of the literal, the name, or the operator
  Scalar literal = false;
  std::size_t variable = 0;  // index into SyntaxTree::variables
  const Function* function = nullptr;
  std::vector<std::size_t> operands = {};  // indices of earlier nodes, each used by this node only
  std::optional<int> axis = {};
  // & | ^ ~ ! and or not, as written: operators that take bool operands only. Empty for the
  // functions and every other operator.
  std::string_view logical_operator = {};
};

struct SyntaxTree {
  std::string text;
  std::vector<Node> nodes;                      // the root is the last
  std::vector<std::string> variables;           // in order of first appearance
  std::vector<std::size_t> variable_positions;  // where each first appears
};

}  // namespace switchyard::expr

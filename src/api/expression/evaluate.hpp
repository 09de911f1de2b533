// Runs a SyntaxTree with the public operations, one node after another.
#pragma once

#include <span>

#include "api/expression/syntax_tree.hpp"

namespace switchyard::expr {

// `variables[i]` is the array for tree.variables[i]. A result that is a weak scalar becomes a
// 0-d array of its default dtype (int64, float64 or bool).
Array evaluate(const SyntaxTree& tree, std::span<const Array> variables);

}  // namespace switchyard::expr

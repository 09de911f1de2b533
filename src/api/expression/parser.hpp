// Reads expression text into a SyntaxTree (the language is described in
// include/switchyard/expr.hpp).
#pragma once

#include <string_view>

#include "api/expression/syntax_tree.hpp"

namespace switchyard::expr {

// Throws ParseError naming the position of the first problem, also for nesting deeper than
// Expression::kMaxNesting.
SyntaxTree parse(std::string_view text);

}  // namespace switchyard::expr

// A small expression language for the command line: float literals, variables a..z, + - * /,
// unary minus, parentheses, and the functions sin cos tan tanh exp log sqrt abs floor ceil,
// sum/min/max/mean (reductions), pow/minimum/maximum/atan2 (two arguments).
// Example: "sum(a*b + sin(c)*2.5 - sqrt(abs(a)))". Parentheses, function calls and unary minus
// signs nest at most kMaxNesting levels deep.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "switchyard/array.hpp"

namespace switchyard::cli {

inline constexpr int kMaxNesting = 256;

// The variable names the expression uses, in order of first appearance.
std::string variables(std::string_view expression);

// Evaluates the expression with eager array operations; throws ParseError naming the position
// (also for nesting deeper than kMaxNesting).
Array evaluate(std::string_view expression, const std::map<char, Array>& values);

}  // namespace switchyard::cli

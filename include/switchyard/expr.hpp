// String expressions over named arrays:
//   sy::evaluate("a*b + sin(c)*2.5 - sqrt(abs(a))", {{"a", A}, {"b", B}, {"c", C}})
// Each operator and function is the operation of the same name in ops.hpp, so dtypes follow
// NumPy 2 exactly as they do there.
//
// The language is Python's expression syntax with Python's precedence, loosest first:
//   or · and · not · < <= > >= == != · | · ^ · & · + - · * / // % · unary - + ~ ! · ** · calls
// - Names (letters, digits and _, not starting with a digit) are variables; name(...) is a call.
// - 2 is a weak int, 2.5 and 1e-3 are weak floats, true and false weak bools, as Python scalars
//   are in NumPy 2: float32 * 2.5 stays float32.
// - A part made of literals only (2*3, -1, sqrt(2)) is folded: computed as NumPy computes int64,
//   float64 and bool values, and the result stays a weak scalar. An expression of literals only
//   gives a 0-d int64, float64 or bool array.
// - & | ^ ~ ! and, or, not are logical and take bool operands (a DTypeError otherwise). & | ^
//   bind tighter than comparisons, as in Python: write (a > 0) & (b < 1). Comparisons do not
//   chain: a < b < c is a ParseError.
// - ** is right-associative and binds tighter than a unary minus on its left: -2**2 is -4.
// - Functions: abs arccos arccosh arcsin arcsinh arctan arctanh ceil cos cosh exp expm1 floor
//   invert isfinite isinf isnan log log10 log1p log2 logical_not negative round sign signbit sin
//   sinh sqrt tan tanh trunc (one argument); add arctan2 bitwise_and bitwise_or bitwise_xor
//   copysign divide equal floor_divide greater greater_equal hypot left_shift less less_equal
//   logaddexp logical_and logical_or logical_xor matmul maximum minimum mod multiply nextafter
//   not_equal power right_shift subtract (two); the Python array API's names are other names of
//   the same functions: acos acosh asin asinh atan atanh atan2 pow bitwise_invert (and
//   bitwise_not) bitwise_left_shift bitwise_right_shift; where(cond, x, y);
//   reductions argmax argmin max mean min prod sum, over everything or, as in sum(x, -1), over
//   one axis given as an integer literal.
//
// Errors name the position in the text, counted in characters from 0: a ParseError for text that
// does not parse, an unknown function or variable, or a wrong number of arguments; a DTypeError
// for a logical operator given non-bool operands; a ValueError for a null array. Operations raise
// their own errors unchanged. The arrays given are only read.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/array.hpp"

namespace switchyard {

namespace expr {
struct SyntaxTree;
}

// The arrays an expression reads, by variable name.
using NamedArrays = std::map<std::string, Array, std::less<>>;

// A parsed expression, reusable over arrays of any size and dtype. Copies share one immutable
// parse, so one Expression may be called from several threads at once.
class Expression {
 public:
  // Parentheses, calls, prefix operators and right-hand operands nest at most this deep, so
  // hostile text gets a ParseError instead of overflowing the stack.
  static constexpr int kMaxNesting = 256;

  // Throws ParseError naming the first variable the expression uses that `arrays` lacks.
  Array operator()(const NamedArrays& arrays) const;
  const std::vector<std::string>& variables() const;  // in order of first appearance
  const std::string& text() const;

 private:
  friend Expression compile(std::string_view text);
  explicit Expression(std::shared_ptr<const expr::SyntaxTree> tree);

  std::shared_ptr<const expr::SyntaxTree> tree_;
};

// Parses `text`; throws ParseError naming the position of the first problem.
Expression compile(std::string_view text);

// compile(text)(arrays).
Array evaluate(std::string_view text, const NamedArrays& arrays);

}  // namespace switchyard

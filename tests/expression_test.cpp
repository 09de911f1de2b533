// The command line's expression parser: deep nesting is a ParseError naming the limit, never a
// stack overflow.
#include "expression.hpp"

#include <gtest/gtest.h>

#include <string>

#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard::cli {
namespace {

std::string nested(int levels, const std::string& open, const std::string& inner,
                   const std::string& close) {
  std::string s;
  for (int i = 0; i < levels; ++i) s += open;
  s += inner;
  for (int i = 0; i < levels; ++i) s += close;
  return s;
}

double value_of(const std::string& text) {
  const std::map<char, Array> values = {{'a', Array::full({}, 2.0, DType::Float64)}};
  return evaluate(text, values).item<double>();
}

TEST(Expression, EvaluatesNestingUpToTheLimit) {
  // The outermost unary() frame is level 1, so kMaxNesting - 1 parentheses fit around `a`.
  EXPECT_EQ(value_of(nested(kMaxNesting - 1, "(", "a", ")")), 2.0);
  EXPECT_EQ(value_of(nested(kMaxNesting - 1, "-", "a", "")), -2.0);
  EXPECT_EQ(value_of(nested(kMaxNesting / 2 - 1, "abs(", "a", ")")), 2.0);
}

TEST(Expression, DeepParenthesesAreAParseErrorNamingTheLimit) {
  const std::map<char, Array> values = {{'a', Array::ones({2})}};
  for (const int levels : {kMaxNesting, 10'000, 200'000}) {
    const std::string message = testing_support::error_message<ParseError>(
        [&] { evaluate(nested(levels, "(", "a", ")"), values); });
    testing_support::expect_mentions(message, {"nesting", std::to_string(kMaxNesting).c_str()});
  }
}

TEST(Expression, DeepUnaryMinusAndCallsAreAParseError) {
  const std::map<char, Array> values = {{'a', Array::ones({2})}};
  EXPECT_THROW(evaluate(nested(100'000, "-", "a", ""), values), ParseError);
  EXPECT_THROW(evaluate(nested(100'000, "sin(", "a", ")"), values), ParseError);
  EXPECT_THROW(evaluate(nested(100'000, "-(", "a", ")"), values), ParseError);
  // Unbalanced input fails on the limit before it would fail on the missing ')'.
  EXPECT_THROW(evaluate(std::string(100'000, '('), values), ParseError);
}

TEST(Expression, NestingIsCountedPerPathNotPerExpression) {
  // Many sibling groups, each shallow, are fine however many there are.
  std::string text = "a";
  for (int i = 0; i < 2 * kMaxNesting; ++i) text += " + (-(a))";
  EXPECT_EQ(value_of(text), 2.0 - 2.0 * 2 * kMaxNesting);
}

}  // namespace
}  // namespace switchyard::cli

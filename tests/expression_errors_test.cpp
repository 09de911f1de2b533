// Every mistake a string expression can hold is its own error type with the position (counted
// from 0) and what was expected and found; deep nesting is a ParseError naming the limit, never a
// stack overflow; numbers are read within the text given, never past it.
#include <gtest/gtest.h>

#include <string>

#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using testing_support::error_message;
using testing_support::expect_mentions;

const NamedArrays& floats() {
  static const NamedArrays arrays = {{"a", Array::full({3}, 1.5, DType::Float64)},
                                     {"b", Array::full({3}, -2.0, DType::Float64)},
                                     {"c", Array::full({3}, 4.0, DType::Float64)}};
  return arrays;
}

std::string parse_error(const std::string& text, const NamedArrays& arrays = floats()) {
  return error_message<ParseError>([&] { evaluate(text, arrays); });
}

TEST(ExpressionErrors, UnclosedParenthesesNameWhereTheyOpened) {
  EXPECT_EQ(parse_error("sum(a*b"),
            "in expression 'sum(a*b' at position 7: expected ',' or ')' to close the '(' of sum "
            "at position 3, found end of text");
  EXPECT_EQ(parse_error("(a + b"),
            "in expression '(a + b' at position 6: expected ')' to close the '(' at position 0, "
            "found end of text");
  EXPECT_EQ(parse_error("(a + b c)"),
            "in expression '(a + b c)' at position 7: expected ')' to close the '(' at position "
            "0, found 'c'");
}

TEST(ExpressionErrors, MissingOperandsAndOperators) {
  EXPECT_EQ(parse_error("a + "),
            "in expression 'a + ' at position 4: expected an operand (a number, a name, a call "
            "or '('), found end of text");
  EXPECT_EQ(parse_error(""),
            "in expression '' at position 0: expected an operand (a number, a name, a call or "
            "'('), found end of text");
  expect_mentions(parse_error("a * )"), {"at position 4", "expected an operand", "found ')'"});
  expect_mentions(parse_error("where(a,)"), {"at position 8", "expected an operand", "found ')'"});
  EXPECT_EQ(parse_error("a b"),
            "in expression 'a b' at position 2: expected an operator or the end of text, found "
            "'b'");
  expect_mentions(parse_error("a and or b"), {"at position 6", "found 'or'"});
}

TEST(ExpressionErrors, UnexpectedCharacters) {
  EXPECT_EQ(parse_error("a $ b"),
            "in expression 'a $ b' at position 2: expected a number, a name, an operator, '(', "
            "')' or ',', found '$'");
  expect_mentions(parse_error("a = b"), {"at position 2", "found '='", "'=='"});
  expect_mentions(parse_error(std::string("a + \x01")), {"at position 4", "byte 0x01"});
}

TEST(ExpressionErrors, MalformedAndOutOfRangeNumbers) {
  expect_mentions(parse_error("1 + 1.2.3"), {"at position 4", "expected a number, found '1.2.3'"});
  expect_mentions(parse_error("2 * 3x"), {"at position 4", "expected a number, found '3x'"});
  expect_mentions(parse_error("1e"), {"at position 0", "found '1e'"});
  expect_mentions(parse_error("a + 1e999999"), {"at position 4", "outside float64's range"});
  expect_mentions(parse_error("99999999999999999999"), {"at position 0", "does not fit int64"});
}

TEST(ExpressionErrors, UnknownFunctionListsTheValidNames) {
  const std::string message = parse_error("1 + foo(a)");
  expect_mentions(message, {"at position 4", "unknown function 'foo'", "the functions are abs,",
                            "argmax", "atan2", "sin", "sum", "where"});
  // Calling a variable is calling an unknown function.
  expect_mentions(parse_error("a(b)"), {"at position 0", "unknown function 'a'"});
}

TEST(ExpressionErrors, UnknownVariableNamesTheVariablesGiven) {
  EXPECT_EQ(parse_error("a + q * b"),
            "in expression 'a + q * b' at position 4: unknown variable 'q'; the variables given "
            "are a, b, c");
  expect_mentions(parse_error("x", {}), {"at position 0", "no variables were given"});
  expect_mentions(parse_error("a + sin"), {"at position 4", "unknown variable 'sin'",
                                           "sin is a function: call it as sin(x)"});
  // Keywords are not names.
  expect_mentions(parse_error("and"), {"at position 0", "expected an operand", "found 'and'"});
}

TEST(ExpressionErrors, WrongArgumentCountSaysHowManyTheFunctionTakes) {
  EXPECT_EQ(parse_error("sin(a, b)"),
            "in expression 'sin(a, b)' at position 0: sin takes 1 argument, sin(x), given 2");
  EXPECT_EQ(parse_error("1 + where(a, b)"),
            "in expression '1 + where(a, b)' at position 4: where takes 3 arguments, where(cond, "
            "x, y), given 2");
  expect_mentions(parse_error("sum(a, 1, 2)"),
                  {"at position 0", "sum takes 1 or 2 arguments, sum(x[, axis]), given 3"});
  expect_mentions(parse_error("arctan2(a)"), {"arctan2 takes 2 arguments", "given 1"});
  expect_mentions(parse_error("exp()"), {"exp takes 1 argument", "given 0"});
}

TEST(ExpressionErrors, AxisMustBeAnIntegerLiteral) {
  EXPECT_EQ(parse_error("sum(a, b)"),
            "in expression 'sum(a, b)' at position 7: expected the axis of sum as an integer "
            "literal such as 0 or -1, found 'b'");
  expect_mentions(parse_error("min(a, b)"), {"at position 7", "call minimum(x, y)"});
  expect_mentions(parse_error("max(a, 1.0)"), {"found '1.0'", "call maximum(x, y)"});
  expect_mentions(parse_error("mean(a, -b)"), {"at position 9", "found 'b'"});
  expect_mentions(parse_error("sum(a, 1 + 1)"), {"at position 9", "found '+'"});
  expect_mentions(parse_error("sum(a, 99999999999)"), {"at position 7", "expected an axis below"});
}

TEST(ExpressionErrors, ComparisonsDoNotChain) {
  expect_mentions(parse_error("a < b < c"), {"at position 6", "comparisons do not chain"});
  // & binds tighter than >, as in Python: a > (0 & b) > 0 is a chain.
  expect_mentions(parse_error("a > 0 & b > 0"), {"at position 10", "(a > 0) & (b > 0)"});
  expect_mentions(parse_error("a == not b"), {"at position 5", "found 'not'", "(not x)"});
}

TEST(ExpressionErrors, LogicalOperatorsNeedBoolOperands) {
  EXPECT_EQ(error_message<DTypeError>([] { evaluate("a & b", floats()); }),
            "in expression 'a & b' at position 2: expected bool operands for '&' (logical_and), "
            "found float64 and float64; compare first, as in (a > 0) & (b < 1), or call "
            "logical_and(...), which takes nonzero as true");
  expect_mentions(error_message<DTypeError>([] { evaluate("(a > 0) | 1", floats()); }),
                  {"at position 8", "'|'", "bool and int scalar"});
  expect_mentions(error_message<DTypeError>([] { evaluate("1 + ~a", floats()); }),
                  {"at position 4", "'~'", "found float64"});
  expect_mentions(error_message<DTypeError>([] { evaluate("not a", floats()); }),
                  {"at position 0", "'not'"});
}

TEST(ExpressionErrors, CompileRaisesParseErrorsAndTheCallRaisesMissingVariables) {
  EXPECT_THROW(compile("a +"), ParseError);
  EXPECT_THROW(compile("nosuch(a)"), ParseError);
  const Expression e = compile("q + 1");
  EXPECT_THROW(e(floats()), ParseError);
  const NamedArrays null_q = {{"q", Array()}};
  expect_mentions(error_message<ValueError>([&] { e(null_q); }), {"at position 0", "'q'", "null"});
}

TEST(ExpressionErrors, OperationsRaiseTheirOwnErrors) {
  const NamedArrays mixed = {{"v", Array::ones({3})}, {"m", Array::ones({2, 4})}};
  EXPECT_THROW(evaluate("v + m", mixed), ShapeError);
  EXPECT_THROW(evaluate("sum(m, 2)", mixed), IndexError);
  EXPECT_THROW(evaluate("2 ** -1", {}), ValueError);  // NumPy's integer power rule
}

TEST(ExpressionErrors, LongTextsAreQuotedAroundThePosition) {
  const std::string text = std::string(5000, '(') + "a $";
  const std::string message = parse_error(text);
  EXPECT_LT(message.size(), 300u) << message;
  expect_mentions(message, {"at position 5002", "'...((((", "((a $'"});
  std::string sum = "a";
  for (int i = 0; i < 2000; ++i) sum += "+a";
  const std::string long_message = parse_error(sum + " $");
  EXPECT_LT(long_message.size(), 300u) << long_message;
  expect_mentions(long_message, {"at position 4002", "+a+a $'"});
}

// ---- nesting

std::string nested(int levels, const std::string& open, const std::string& inner,
                   const std::string& close) {
  std::string s;
  for (int i = 0; i < levels; ++i) s += open;
  s += inner;
  for (int i = 0; i < levels; ++i) s += close;
  return s;
}

double value_of(const std::string& text) {
  return evaluate(text, {{"a", Array::full({}, 2.0, DType::Float64)}}).item<double>();
}

constexpr int kMaxNesting = Expression::kMaxNesting;

TEST(ExpressionErrors, EvaluatesNestingUpToTheLimit) {
  // The outermost expression is level 1, so kMaxNesting - 1 parentheses fit around `a`.
  EXPECT_EQ(value_of(nested(kMaxNesting - 1, "(", "a", ")")), 2.0);
  EXPECT_EQ(value_of(nested(kMaxNesting - 1, "-", "a", "")), -2.0);
  EXPECT_EQ(value_of(nested(kMaxNesting / 2 - 1, "abs(", "a", ")")), 2.0);
}

TEST(ExpressionErrors, DeepParenthesesAreAParseErrorNamingTheLimit) {
  for (const int levels : {kMaxNesting, 10'000, 200'000}) {
    const std::string message = parse_error(nested(levels, "(", "a", ")"));
    expect_mentions(message, {"nesting", std::to_string(kMaxNesting).c_str()});
  }
}

TEST(ExpressionErrors, DeepPrefixesCallsAndPowersAreAParseError) {
  for (const std::string& text :
       {nested(100'000, "-", "a", ""), nested(100'000, "sin(", "a", ")"),
        nested(100'000, "-(", "a", ")"), nested(100'000, "not ", "a > 0", ""),
        nested(100'000, "a**", "a", "")})
    expect_mentions(parse_error(text), {"nesting"});
  // Unbalanced input fails on the limit before it would fail on the missing ')'.
  expect_mentions(parse_error(std::string(100'000, '(')), {"nesting"});
}

TEST(ExpressionErrors, NestingIsCountedPerPathNotPerExpression) {
  // Many sibling groups, each shallow, are fine however many there are.
  std::string text = "a";
  for (int i = 0; i < 2 * kMaxNesting; ++i) text += " + (-(a))";
  EXPECT_EQ(value_of(text), 2.0 - 2.0 * 2 * kMaxNesting);
}

TEST(ExpressionErrors, LongFlatChainsNeedNoDeepRecursion) {
  std::string text = "a";
  for (int i = 0; i < 5000; ++i) text += i % 2 ? "+a" : "-a";
  EXPECT_EQ(value_of(text), 2.0);
}

TEST(ExpressionErrors, NumbersEndWhereTheTextEnds) {
  const std::string_view text = "2e5";
  EXPECT_EQ(evaluate(text.substr(0, 1), {}).item<double>(), 2.0);  // not 200000
  EXPECT_EQ(value_of("1.5e1 * a"), 30.0);
  EXPECT_EQ(value_of(".5 + a"), 2.5);
  EXPECT_EQ(value_of("2.e-1 * a"), 0.4);
  expect_mentions(parse_error(".", {}), {"expected a number"});
}

}  // namespace
}  // namespace switchyard

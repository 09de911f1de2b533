#include "api/expression/parser.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "api/expression/diagnostic.hpp"
#include "api/expression/lexer.hpp"
#include "switchyard/error.hpp"
#include "switchyard/expr.hpp"

namespace switchyard::expr {
namespace {

// Python's binding strengths, loosest first.
enum Precedence : int {
  kLoosest,
  kOr,
  kAnd,
  kNot,
  kComparison,
  kBitOr,
  kBitXor,
  kBitAnd,
  kSum,
  kProduct,
  kPrefix,
  kPower,
};

struct BinaryOperator {
  std::string_view spelling;
  Precedence precedence;
  std::string_view function;
  bool logical = false;  // takes bool operands only
};

constexpr BinaryOperator kBinaryOperators[] = {
    {"or", kOr, "logical_or", true},
    {"and", kAnd, "logical_and", true},
    {"<", kComparison, "less"},
    {"<=", kComparison, "less_equal"},
    {">", kComparison, "greater"},
    {">=", kComparison, "greater_equal"},
    {"==", kComparison, "equal"},
    {"!=", kComparison, "not_equal"},
    {"|", kBitOr, "logical_or", true},
    {"^", kBitXor, "logical_xor", true},
    {"&", kBitAnd, "logical_and", true},
    {"+", kSum, "add"},
    {"-", kSum, "subtract"},
    {"*", kProduct, "multiply"},
    {"/", kProduct, "divide"},
    {"//", kProduct, "floor_divide"},
    {"%", kProduct, "mod"},
    {"**", kPower, "power"},
};

const BinaryOperator* binary_operator(const Token& token) {
  for (const BinaryOperator& op : kBinaryOperators)
    if (token.is(op.spelling)) return &op;
  return nullptr;
}

// For the functions operators stand for, which the function table always has.
const Function& known_function(std::string_view name) {
  return *find_function(name);
}

std::string arguments_taken(const Function& f) {
  const int n = f.operands;
  if (f.takes_axis) return std::to_string(n) + " or " + std::to_string(n + 1) + " arguments";
  return std::to_string(n) + (n == 1 ? " argument" : " arguments");
}

class Parser {
 public:
  explicit Parser(std::string_view text) : tokens_(tokenize(text)) { tree_.text = text; }

  SyntaxTree run() {
    expression(kLoosest);
    if (peek().kind != TokenKind::End)
      fail(peek(), "expected an operator or the end of text, found " + describe(peek()));
    return std::move(tree_);
  }

 private:
  [[noreturn]] void fail(const Token& at, const std::string& what) const {
    throw ParseError(at_position(tree_.text, at.position, what));
  }
  const Token& peek() const { return tokens_[next_]; }
  const Token& take() {
    const Token& token = tokens_[next_];
    if (token.kind != TokenKind::End) ++next_;
    return token;
  }
  bool accept(std::string_view spelling) {
    if (!peek().is(spelling)) return false;
    ++next_;
    return true;
  }
  void close(const Token& open, const std::string& expected) {
    if (!accept(")"))
      fail(peek(), expected + " at position " + std::to_string(open.position) + ", found " +
                       describe(peek()));
  }

  // Counts the expression() frames on the stack for as long as it lives: every parenthesis,
  // call argument, prefix operator and right-hand operand is one. Bounding them gives hostile
  // input a ParseError, not a stack overflow.
  class Nesting {
   public:
    explicit Nesting(Parser& p) : p_(p) {
      if (++p_.depth_ > Expression::kMaxNesting)
        p_.fail(p_.peek(), "nesting deeper than " + std::to_string(Expression::kMaxNesting) +
                               " levels (parentheses, calls, prefix operators and right-hand "
                               "operands): expected at most " +
                               std::to_string(Expression::kMaxNesting) + "; split the expression");
    }
    ~Nesting() { --p_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& p_;
  };

  // Precedence climbing: an operand, then every binary operator binding at least as tightly as
  // `min` with its right-hand operand.
  std::size_t expression(int min) {
    const Nesting nesting(*this);
    std::size_t left = prefix(min);
    bool after_comparison = false;
    while (const BinaryOperator* op = binary_operator(peek())) {
      if (op->precedence < min) break;
      const Token& token = take();
      const bool comparison = op->precedence == kComparison;
      if (comparison && after_comparison)
        fail(token, "expected an operator other than a comparison, found " + describe(token) +
                        ": comparisons do not chain, write (a < b) & (b < c); & | ^ bind "
                        "tighter than comparisons, as in Python, so write (a > 0) & (b > 0)");
      after_comparison = comparison;
      // ** groups to the right (2**3**2 is 2**9), every other operator to the left.
      const std::size_t right =
          expression(op->precedence == kPower ? op->precedence : op->precedence + 1);
      left = call(known_function(op->function), token.position, {left, right}, std::nullopt,
                  op->logical ? op->spelling : "");
    }
    return left;
  }

  std::size_t prefix(int min) {
    const Token& token = take();
    switch (token.kind) {
      case TokenKind::Integer:
        return literal(token, static_cast<long long>(token.integer));
      case TokenKind::Float:
        return literal(token, token.number);
      case TokenKind::Name:
        return name(token, min);
      case TokenKind::Symbol:
      case TokenKind::End:
        break;
    }
    if (token.is("(")) {
      const std::size_t inner = expression(kLoosest);
      close(token, "expected ')' to close the '('");
      return inner;
    }
    if (token.is("-")) return prefix_call("negative", token, kPrefix, "");
    if (token.is("+")) return expression(kPrefix);  // Python's +x is x itself
    if (token.is("~") || token.is("!"))
      return prefix_call("logical_not", token, kPrefix, token.text);
    fail(token, expected_operand(token));
  }

  static std::string expected_operand(const Token& token) {
    return "expected an operand (a number, a name, a call or '('), found " + describe(token);
  }

  std::size_t name(const Token& token, int min) {
    if (token.is("true") || token.is("false")) return literal(token, token.is("true"));
    if (token.is("not")) {
      // As in Python, `not` binds more loosely than comparisons, so `a == not b` is an error.
      if (min > kNot)
        fail(token, expected_operand(token) +
                        ", which binds more loosely than the operator before it; write (not x)");
      return prefix_call("logical_not", token, kNot, "not");
    }
    if (token.is("and") || token.is("or")) fail(token, expected_operand(token));
    if (peek().is("(")) return call_by_name(token);
    return variable(token);
  }

  std::size_t call_by_name(const Token& name) {
    const Function* f = find_function(name.text);
    if (!f)
      fail(name, "unknown function '" + std::string(name.text) + "'; the functions are " +
                     function_names());
    const Token& open = take();
    std::vector<std::size_t> operands;
    std::optional<int> axis;
    int given = 0;
    if (!peek().is(")")) {
      do {
        if (f->takes_axis && given == f->operands)
          axis = axis_literal(*f);
        else
          operands.push_back(expression(kLoosest));
        ++given;
      } while (accept(","));
    }
    close(open, "expected ',' or ')' to close the '(' of " + std::string(name.text));
    if (given < f->operands || given > f->operands + f->takes_axis)
      fail(name, std::string(f->name) + " takes " + arguments_taken(*f) + ", " +
                     std::string(f->name) + "(" + std::string(f->parameters) + "), given " +
                     std::to_string(given));
    return call(*f, name.position, std::move(operands), axis, "");
  }

  // The axis is part of the text, not a value: the reduction's result shape depends on it.
  int axis_literal(const Function& f) {
    const bool negative = accept("-");
    const Token& number = take();
    if (number.kind != TokenKind::Integer) {
      const std::string elementwise = f.name == "min"   ? "minimum"
                                      : f.name == "max" ? "maximum"
                                                        : "";
      fail(number, "expected the axis of " + std::string(f.name) +
                       " as an integer literal such as 0 or -1, found " + describe(number) +
                       (elementwise.empty() ? ""
                                            : "; for the elementwise " + elementwise +
                                                  " of two arrays call " + elementwise + "(x, y)"));
    }
    if (number.integer > std::numeric_limits<int>::max())
      fail(number,
           "expected an axis below " + std::to_string(kMaxRank) + ", found " + describe(number));
    return static_cast<int>(negative ? -number.integer : number.integer);
  }

  std::size_t prefix_call(std::string_view function, const Token& token, Precedence operand,
                          std::string_view logical) {
    const std::size_t x = expression(operand);
    return call(known_function(function), token.position, {x}, std::nullopt, logical);
  }

  std::size_t literal(const Token& token, Scalar value) {
    return add({.kind = Node::Kind::Literal, .position = token.position, .literal = value});
  }

  std::size_t variable(const Token& token) {
    std::vector<std::string>& names = tree_.variables;
    auto it = std::find(names.begin(), names.end(), token.text);
    if (it == names.end()) {
      tree_.variable_positions.push_back(token.position);
      it = names.emplace(names.end(), token.text);
    }
    return add({.kind = Node::Kind::Variable,
                .position = token.position,
                .variable = static_cast<std::size_t>(it - names.begin())});
  }

  std::size_t call(const Function& f, std::size_t position, std::vector<std::size_t> operands,
                   std::optional<int> axis, std::string_view logical) {
    return add({.kind = Node::Kind::Call,
                .position = position,
                .function = &f,
                .operands = std::move(operands),
                .axis = axis,
                .logical_operator = logical});
  }

  std::size_t add(Node node) {
    tree_.nodes.push_back(std::move(node));
    return tree_.nodes.size() - 1;
  }

  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  int depth_ = 0;
  SyntaxTree tree_;
};

}  // namespace

SyntaxTree parse(std::string_view text) {
  return Parser(text).run();
}

}  // namespace switchyard::expr

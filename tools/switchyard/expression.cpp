#include "expression.hpp"

#include <cctype>
#include <cstdlib>

#include "switchyard/ops.hpp"

namespace switchyard::cli {
namespace {

// Recursive descent over: expr = term {(+|-) term}; term = unary {(*|/) unary};
// unary = -unary | primary; primary = number | variable | name(args) | (expr).
// Every nested parenthesis, function call and unary minus is one more unary() frame on the
// stack; kMaxNesting bounds them so that hostile input gets a ParseError, not a stack overflow
// (about 10,000 levels overflowed an 8 MiB stack).
class Parser {
 public:
  Parser(std::string_view text, const std::map<char, Array>& values)
      : text_(text), values_(values) {}

  Array parse() {
    const Value result = expr();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return as_array(result);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError("in expression '" + std::string(text_) + "' at position " +
                     std::to_string(pos_) + ": " + what +
                     "; expected numbers, variables a-z, + - * /, parentheses and functions "
                     "such as sin(x), sum(x), pow(x, y)");
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("missing '") + c + "'");
  }

  // Numbers stay scalars until they meet an array, so literals are weak in promotion.
  struct Value {
    Array array;
    double number = 0;
    bool is_array() const { return static_cast<bool>(array); }
  };

  Array as_array(const Value& v) {
    if (v.is_array()) return v.array;
    return Array::full({}, v.number, DType::Float32);
  }

  Value binary(char op, const Value& x, const Value& y) {
    if (!x.is_array() && !y.is_array()) {
      switch (op) {
        case '+':
          return {{}, x.number + y.number};
        case '-':
          return {{}, x.number - y.number};
        case '*':
          return {{}, x.number * y.number};
        default:
          return {{}, x.number / y.number};
      }
    }
    auto apply = [op](auto&& a, auto&& b) -> Array {
      switch (op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        default:
          return a / b;
      }
    };
    if (!x.is_array()) return {apply(Scalar(x.number), y.array)};
    if (!y.is_array()) return {apply(x.array, Scalar(y.number))};
    return {apply(x.array, y.array)};
  }

  Value expr() {
    Value v = term();
    for (;;) {
      if (accept('+'))
        v = binary('+', v, term());
      else if (accept('-'))
        v = binary('-', v, term());
      else
        return v;
    }
  }
  Value term() {
    Value v = unary();
    for (;;) {
      if (accept('*'))
        v = binary('*', v, unary());
      else if (accept('/'))
        v = binary('/', v, unary());
      else
        return v;
    }
  }
  // Counts the unary() frames on the stack for as long as it lives.
  class Nesting {
   public:
    explicit Nesting(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxNesting)
        p_.fail("nesting deeper than " + std::to_string(kMaxNesting) +
                " levels (parentheses, function calls and unary minus signs); split the "
                "expression");
    }
    ~Nesting() { --p_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& p_;
  };

  Value unary() {
    const Nesting nesting(*this);
    if (accept('-')) {
      Value v = unary();
      return v.is_array() ? Value{negative(v.array)} : Value{{}, -v.number};
    }
    return primary();
  }
  Value primary() {
    skip_space();
    if (pos_ >= text_.size()) fail("the expression ends early");
    const char c = text_[pos_];
    if (accept('(')) {
      Value v = expr();
      expect(')');
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* start = text_.data() + pos_;
      char* end = nullptr;
      const double number = std::strtod(start, &end);
      pos_ += end - start;
      return {{}, number};
    }
    if (!std::isalpha(static_cast<unsigned char>(c)))
      fail("unexpected '" + std::string(1, c) + "'");
    std::string name;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_])))
      name += text_[pos_++];
    if (!accept('(')) return variable(name);
    std::vector<Value> args{expr()};
    while (accept(',')) args.push_back(expr());
    expect(')');
    return call(name, args);
  }
  Value variable(const std::string& name) {
    if (name.size() != 1 || !std::islower(static_cast<unsigned char>(name[0])))
      fail("unknown name '" + name + "'");
    auto it = values_.find(name[0]);
    if (it == values_.end()) fail("no value for variable '" + name + "'");
    return {it->second};
  }
  Value call(const std::string& name, const std::vector<Value>& args) {
    using Unary = Array (*)(const Array&);
    static const std::map<std::string, Unary> unary = {
        {"sin", sin}, {"cos", cos},   {"tan", tan}, {"tanh", tanh},   {"exp", exp},
        {"log", log}, {"sqrt", sqrt}, {"abs", abs}, {"floor", floor}, {"ceil", ceil}};
    using Reduce = Array (*)(const Array&, std::optional<int>);
    static const std::map<std::string, Reduce> reduce = {
        {"sum", sum}, {"min", min}, {"max", max}, {"mean", mean}};
    using Binary = Array (*)(const Array&, const Array&);
    static const std::map<std::string, Binary> binary_fns = {
        {"pow", power}, {"minimum", minimum}, {"maximum", maximum}, {"atan2", arctan2}};
    auto arity = [&](std::size_t n) {
      if (args.size() != n)
        fail(name + " takes " + std::to_string(n) + " argument(s), given " +
             std::to_string(args.size()));
    };
    if (auto it = unary.find(name); it != unary.end())
      return arity(1), Value{it->second(as_array(args[0]))};
    if (auto it = reduce.find(name); it != reduce.end())
      return arity(1), Value{it->second(as_array(args[0]), std::nullopt)};
    if (auto it = binary_fns.find(name); it != binary_fns.end())
      return arity(2), Value{it->second(as_array(args[0]), as_array(args[1]))};
    fail("unknown function '" + name + "'");
  }

  std::string_view text_;
  const std::map<char, Array>& values_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

std::string variables(std::string_view expression) {
  std::string names;
  for (std::size_t i = 0; i < expression.size(); ++i) {
    const bool alone = std::islower(static_cast<unsigned char>(expression[i])) &&
                       (i == 0 || !std::isalnum(static_cast<unsigned char>(expression[i - 1]))) &&
                       (i + 1 == expression.size() ||
                        !std::isalnum(static_cast<unsigned char>(expression[i + 1])));
    if (alone && names.find(expression[i]) == std::string::npos) names += expression[i];
  }
  return names;
}

Array evaluate(std::string_view expression, const std::map<char, Array>& values) {
  Parser parser(expression, values);
  return parser.parse();
}

}  // namespace switchyard::cli

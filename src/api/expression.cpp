// The public face of string expressions: checks the arrays given against the variables the text
// uses, then hands both to the evaluator, which trusts them.
#include "api/expression/diagnostic.hpp"
#include "api/expression/evaluate.hpp"
#include "api/expression/parser.hpp"
#include "switchyard/expr.hpp"

namespace switchyard {
namespace {

std::string names_given(const NamedArrays& arrays) {
  if (arrays.empty()) return "no variables were given";
  std::string names;
  for (const auto& [name, array] : arrays) names += (names.empty() ? "" : ", ") + name;
  return "the variables given are " + names;
}

std::string call_hint(const std::string& name) {
  const expr::Function* f = expr::find_function(name);
  if (!f) return "";
  return "; " + name + " is a function: call it as " + name + "(" + std::string(f->parameters) +
         ")";
}

}  // namespace

Expression::Expression(std::shared_ptr<const expr::SyntaxTree> tree) : tree_(std::move(tree)) {}

Array Expression::operator()(const NamedArrays& arrays) const {
  std::vector<Array> values;
  values.reserve(tree_->variables.size());
  for (std::size_t i = 0; i < tree_->variables.size(); ++i) {
    const std::string& name = tree_->variables[i];
    const std::size_t position = tree_->variable_positions[i];
    const auto it = arrays.find(name);
    if (it == arrays.end())
      throw ParseError(expr::at_position(
          tree_->text, position,
          "unknown variable '" + name + "'; " + names_given(arrays) + call_hint(name)));
    if (!it->second)
      throw ValueError(expr::at_position(
          tree_->text, position,
          "variable '" + name + "' is a null array: expected an array with data"));
    values.push_back(it->second);
  }
  return expr::evaluate(*tree_, values);
}

const std::vector<std::string>& Expression::variables() const {
  return tree_->variables;
}

const std::string& Expression::text() const {
  return tree_->text;
}

Expression compile(std::string_view text) {
  return Expression(std::make_shared<const expr::SyntaxTree>(expr::parse(text)));
}

Array evaluate(std::string_view text, const NamedArrays& arrays) {
  return compile(text)(arrays);
}

}  // namespace switchyard

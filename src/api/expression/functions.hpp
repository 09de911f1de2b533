// The functions an expression can call, each the operation of the same name in ops.hpp. The
// parser turns operators into calls of these too ("a + b" calls add), so evaluation has one
// case for every operation.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "api/expression/value.hpp"

namespace switchyard::expr {

struct Function {
  std::string_view name;
  std::string_view parameters;  // as messages show them: "x, y", "x[, axis]"
  int operands;                 // values it takes; an integer-literal axis may follow
  bool takes_axis;
  // Weak scalars among `operands` stay weak where the operation has a scalar overload and
  // become 0-d arrays of their default dtype where it has none.
  Array (*apply)(std::span<const Value> operands, std::optional<int> axis);
};

// nullptr when there is no function of that name.
const Function* find_function(std::string_view name);

// Every name find_function knows, sorted, comma-separated.
std::string function_names();

}  // namespace switchyard::expr

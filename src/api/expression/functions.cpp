#include "api/expression/functions.hpp"

#include <algorithm>
#include <type_traits>
#include <variant>

namespace switchyard::expr {
namespace {

using Operands = std::span<const Value>;
using Axis = std::optional<int>;

// One weak scalar calls the operation's scalar overload; two (a part made of literals only)
// meet as NumPy's default dtypes would.
template <class Op>
Array binary(Operands v, Op op) {
  return std::visit(
      [&](const auto& x, const auto& y) -> Array {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Scalar> &&
                      std::is_same_v<std::decay_t<decltype(y)>, Scalar>)
          return op(array_of(x), array_of(y));
        else
          return op(x, y);
      },
      v[0], v[1]);
}

// A weak scalar branch takes the dtype NumPy 2 gives it against the other branch, so
// where(c, float32_array, 0) stays float32.
Array where_of(Operands v) {
  const auto branch = [](const Value& mine, const Value& other) {
    if (const Array* a = std::get_if<Array>(&mine)) return *a;
    const Scalar s = std::get<Scalar>(mine);
    if (const Array* o = std::get_if<Array>(&other))
      return scalar_array(s, promote_with_scalar(o->dtype(), s.kind));
    return array_of(s);
  };
  return where(array_of(v[0]), branch(v[1], v[2]), branch(v[2], v[1]));
}

#define SWITCHYARD_UNARY(name, fn)                                                       \
  Function {                                                                             \
    name, "x", 1, false, [](Operands v, Axis) { return switchyard::fn(array_of(v[0])); } \
  }
#define SWITCHYARD_BINARY(name, fn)                                                        \
  Function {                                                                               \
    name, "x, y", 2, false, [](Operands v, Axis) {                                         \
      return binary(v, [](const auto& x, const auto& y) { return switchyard::fn(x, y); }); \
    }                                                                                      \
  }
#define SWITCHYARD_REDUCTION(name, fn)                                             \
  Function {                                                                       \
    name, "x[, axis]", 1, true,                                                    \
        [](Operands v, Axis axis) { return switchyard::fn(array_of(v[0]), axis); } \
  }

// Sorted by name (checked below), for binary search and so that function_names() lists them in
// order.
constexpr Function kFunctions[] = {
    SWITCHYARD_UNARY("abs", abs),
    SWITCHYARD_UNARY("acos", arccos),
    SWITCHYARD_UNARY("acosh", arccosh),
    SWITCHYARD_BINARY("add", add),
    SWITCHYARD_REDUCTION("all", all),
    SWITCHYARD_REDUCTION("any", any),
    SWITCHYARD_UNARY("arccos", arccos),
    SWITCHYARD_UNARY("arccosh", arccosh),
    SWITCHYARD_UNARY("arcsin", arcsin),
    SWITCHYARD_UNARY("arcsinh", arcsinh),
    SWITCHYARD_UNARY("arctan", arctan),
    SWITCHYARD_BINARY("arctan2", arctan2),
    SWITCHYARD_UNARY("arctanh", arctanh),
    SWITCHYARD_REDUCTION("argmax", argmax),
    SWITCHYARD_REDUCTION("argmin", argmin),
    SWITCHYARD_UNARY("asin", arcsin),
    SWITCHYARD_UNARY("asinh", arcsinh),
    SWITCHYARD_UNARY("atan", arctan),
    SWITCHYARD_BINARY("atan2", arctan2),
    SWITCHYARD_UNARY("atanh", arctanh),
    SWITCHYARD_BINARY("bitwise_and", bitwise_and),
    SWITCHYARD_UNARY("bitwise_invert", invert),
    SWITCHYARD_BINARY("bitwise_left_shift", left_shift),
    SWITCHYARD_UNARY("bitwise_not", invert),
    SWITCHYARD_BINARY("bitwise_or", bitwise_or),
    SWITCHYARD_BINARY("bitwise_right_shift", right_shift),
    SWITCHYARD_BINARY("bitwise_xor", bitwise_xor),
    SWITCHYARD_UNARY("ceil", ceil),
    SWITCHYARD_BINARY("copysign", copysign),
    SWITCHYARD_UNARY("cos", cos),
    SWITCHYARD_UNARY("cosh", cosh),
    SWITCHYARD_BINARY("divide", divide),
    SWITCHYARD_BINARY("equal", equal),
    SWITCHYARD_UNARY("exp", exp),
    SWITCHYARD_UNARY("expm1", expm1),
    SWITCHYARD_UNARY("floor", floor),
    SWITCHYARD_BINARY("floor_divide", floor_divide),
    SWITCHYARD_BINARY("greater", greater),
    SWITCHYARD_BINARY("greater_equal", greater_equal),
    SWITCHYARD_BINARY("hypot", hypot),
    SWITCHYARD_UNARY("invert", invert),
    SWITCHYARD_UNARY("isfinite", isfinite),
    SWITCHYARD_UNARY("isinf", isinf),
    SWITCHYARD_UNARY("isnan", isnan),
    SWITCHYARD_BINARY("left_shift", left_shift),
    SWITCHYARD_BINARY("less", less),
    SWITCHYARD_BINARY("less_equal", less_equal),
    SWITCHYARD_UNARY("log", log),
    SWITCHYARD_UNARY("log10", log10),
    SWITCHYARD_UNARY("log1p", log1p),
    SWITCHYARD_UNARY("log2", log2),
    SWITCHYARD_BINARY("logaddexp", logaddexp),
    SWITCHYARD_BINARY("logical_and", logical_and),
    SWITCHYARD_UNARY("logical_not", logical_not),
    SWITCHYARD_BINARY("logical_or", logical_or),
    SWITCHYARD_BINARY("logical_xor", logical_xor),
    {"matmul", "x, y", 2, false,
     [](Operands v, Axis) { return matmul(array_of(v[0]), array_of(v[1])); }},
    SWITCHYARD_REDUCTION("max", max),
    SWITCHYARD_BINARY("maximum", maximum),
    SWITCHYARD_REDUCTION("mean", mean),
    SWITCHYARD_REDUCTION("min", min),
    SWITCHYARD_BINARY("minimum", minimum),
    SWITCHYARD_BINARY("mod", mod),
    SWITCHYARD_BINARY("multiply", multiply),
    SWITCHYARD_UNARY("negative", negative),
    SWITCHYARD_BINARY("nextafter", nextafter),
    SWITCHYARD_BINARY("not_equal", not_equal),
    SWITCHYARD_BINARY("pow", power),
    SWITCHYARD_BINARY("power", power),
    SWITCHYARD_REDUCTION("prod", prod),
    SWITCHYARD_BINARY("right_shift", right_shift),
    SWITCHYARD_UNARY("round", round),
    SWITCHYARD_UNARY("sign", sign),
    SWITCHYARD_UNARY("signbit", signbit),
    SWITCHYARD_UNARY("sin", sin),
    SWITCHYARD_UNARY("sinh", sinh),
    SWITCHYARD_UNARY("sqrt", sqrt),
    SWITCHYARD_REDUCTION("std", stddev),
    SWITCHYARD_BINARY("subtract", subtract),
    SWITCHYARD_REDUCTION("sum", sum),
    SWITCHYARD_UNARY("tan", tan),
    SWITCHYARD_UNARY("tanh", tanh),
    SWITCHYARD_UNARY("trunc", trunc),
    SWITCHYARD_REDUCTION("var", var),
    {"where", "cond, x, y", 3, false, [](Operands v, Axis) { return where_of(v); }},
};

#undef SWITCHYARD_UNARY
#undef SWITCHYARD_BINARY
#undef SWITCHYARD_REDUCTION

static_assert(std::ranges::is_sorted(kFunctions, {}, &Function::name));

}  // namespace

const Function* find_function(std::string_view name) {
  const auto it = std::ranges::lower_bound(kFunctions, name, {}, &Function::name);
  return it != std::end(kFunctions) && it->name == name ? &*it : nullptr;
}

std::string function_names() {
  std::string names;
  for (const Function& f : kFunctions) names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

}  // namespace switchyard::expr

// Array operations. Each records its work in the lazy graph; when a value is needed the whole
// expression behind it runs as one kernel on the device the runtime chooses. dtypes follow
// NumPy's promotion, with Python-style scalars "weak" (float32_array * 2.5 stays float32).
#pragma once

#include <initializer_list>
#include <optional>
#include <span>

#include "switchyard/array.hpp"

namespace switchyard {

// A scalar operand: bool, integer or floating, promoted as NumPy 2 promotes Python scalars. An
// integer scalar that does not fit an int32 array's dtype is a ValueError for arithmetic
// (NumPy 2 raises OverflowError "Python integer ... out of bounds for int32") and is compared
// exactly by comparisons, as NumPy 2 does.
struct Scalar {
  ScalarKind kind;
  double f = 0;
  std::int64_t i = 0;
  Scalar(bool v) : kind(ScalarKind::Bool), i(v) {}
  Scalar(int v) : kind(ScalarKind::Int), f(v), i(v) {}
  Scalar(long v) : kind(ScalarKind::Int), f(static_cast<double>(v)), i(v) {}
  Scalar(long long v) : kind(ScalarKind::Int), f(static_cast<double>(v)), i(v) {}
  Scalar(float v) : kind(ScalarKind::Float), f(v) {}
  Scalar(double v) : kind(ScalarKind::Float), f(v) {}
};

// ---- elementwise, binary (arrays broadcast; either side may be a Scalar)
#define SWITCHYARD_BINARY(fn)               \
  Array fn(const Array& a, const Array& b); \
  Array fn(const Array& a, Scalar b);       \
  Array fn(Scalar a, const Array& b);
SWITCHYARD_BINARY(add)
SWITCHYARD_BINARY(subtract)
SWITCHYARD_BINARY(multiply)
SWITCHYARD_BINARY(divide)  // true division: integers give float64
// Integers follow NumPy 2: + - * wrap around; x // 0 and x % 0 give 0; INT_MIN // -1 wraps to
// INT_MIN and INT_MIN % -1 is 0; abs and negative of INT_MIN give INT_MIN.
SWITCHYARD_BINARY(floor_divide)  // integer division by zero gives 0
SWITCHYARD_BINARY(mod)           // sign of the divisor, as Python's %
SWITCHYARD_BINARY(power)         // integers: wraps; a negative exponent is a ValueError (as NumPy)
SWITCHYARD_BINARY(minimum)       // NaN propagates
SWITCHYARD_BINARY(maximum)
SWITCHYARD_BINARY(arctan2)
SWITCHYARD_BINARY(equal)
SWITCHYARD_BINARY(not_equal)
SWITCHYARD_BINARY(less)
SWITCHYARD_BINARY(less_equal)
SWITCHYARD_BINARY(greater)
SWITCHYARD_BINARY(greater_equal)
SWITCHYARD_BINARY(logical_and)
SWITCHYARD_BINARY(logical_or)
SWITCHYARD_BINARY(logical_xor)
#undef SWITCHYARD_BINARY

// ---- elementwise, unary
Array negative(const Array& a);
Array abs(const Array& a);
Array sign(const Array& a);
Array logical_not(const Array& a);
Array exp(const Array& a);
Array log(const Array& a);
Array sqrt(const Array& a);
Array sin(const Array& a);
Array cos(const Array& a);
Array tan(const Array& a);
Array tanh(const Array& a);
Array floor(const Array& a);
Array ceil(const Array& a);

// cond must be bool; a and b are promoted together; all three broadcast.
Array where(const Array& cond, const Array& a, const Array& b);

// ---- reductions over all elements (axis absent, result of shape ()), one axis, or a list of
// axes (negative ones count from the end), as NumPy's axis=(...); keepdims keeps each reduced
// axis as extent 1. Each runs in one kernel with the expression it reduces.
#define SWITCHYARD_REDUCTION(fn)                                                             \
  Array fn(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);  \
  Array fn(const Array& a, std::span<const int> axes, bool keepdims = false);               \
  inline Array fn(const Array& a, std::initializer_list<int> axes, bool keepdims = false) { \
    return fn(a, std::span<const int>(axes.begin(), axes.size()), keepdims);                \
  }
SWITCHYARD_REDUCTION(sum)
SWITCHYARD_REDUCTION(prod)
SWITCHYARD_REDUCTION(min)  // NaN propagates
SWITCHYARD_REDUCTION(max)
SWITCHYARD_REDUCTION(mean)
#undef SWITCHYARD_REDUCTION
// The first occurrence's index over all elements (flat, row-major) or along one axis.
Array argmin(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);
Array argmax(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);

// ---- linear algebra (float32/float64): 2-D·2-D is gemm, 2-D·1-D is gemv
Array matmul(const Array& a, const Array& b);

// ---- evaluation
// Computes every pending array given, together: results of one shape share one kernel and read
// their common inputs once (eval(y, sum(y), max(y)) reads y's inputs once per kernel). Reading
// an array evaluates it anyway; eval() is for computing several results in one pass.
void eval(std::span<const Array> arrays);
template <class... Arrays>
void eval(const Array& first, const Arrays&... rest) {
  const Array all[] = {first, rest...};
  eval(std::span<const Array>(all));
}

// ---- operators
inline Array operator+(const Array& a, const Array& b) {
  return add(a, b);
}
inline Array operator+(const Array& a, Scalar b) {
  return add(a, b);
}
inline Array operator+(Scalar a, const Array& b) {
  return add(a, b);
}
inline Array operator-(const Array& a, const Array& b) {
  return subtract(a, b);
}
inline Array operator-(const Array& a, Scalar b) {
  return subtract(a, b);
}
inline Array operator-(Scalar a, const Array& b) {
  return subtract(a, b);
}
inline Array operator*(const Array& a, const Array& b) {
  return multiply(a, b);
}
inline Array operator*(const Array& a, Scalar b) {
  return multiply(a, b);
}
inline Array operator*(Scalar a, const Array& b) {
  return multiply(a, b);
}
inline Array operator/(const Array& a, const Array& b) {
  return divide(a, b);
}
inline Array operator/(const Array& a, Scalar b) {
  return divide(a, b);
}
inline Array operator/(Scalar a, const Array& b) {
  return divide(a, b);
}
inline Array operator-(const Array& a) {
  return negative(a);
}

}  // namespace switchyard

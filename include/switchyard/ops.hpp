// Array operations. Each records its work in the lazy graph; when a value is needed the whole
// expression behind it runs as one kernel on the device the runtime chooses. dtypes follow
// NumPy's promotion, with Python-style scalars "weak" (float32_array * 2.5 stays float32).
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>

#include "switchyard/array.hpp"
#include "switchyard/scalar.hpp"

namespace switchyard {

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
SWITCHYARD_BINARY(hypot)     // sqrt(a*a + b*b) without overflow; inf if either is infinite
SWITCHYARD_BINARY(copysign)  // |a| with b's sign bit (so -0.0 and negative NaNs count)
// The next representable value after a toward b, as C's nextafter: NaN if either is NaN, b where
// a == b (so nextafter(-0.0, 0.0) is 0.0); ±0 toward a nonzero gives the smallest subnormal of
// b's sign, which an OpenCL device without denormals may flush to ±0.
SWITCHYARD_BINARY(nextafter)
// log(exp(a) + exp(b)) without overflow, as max(a, b) + log1p(exp(-|a - b|)); as NumPy,
// logaddexp(inf, inf) is inf and logaddexp(-inf, -inf) is -inf.
SWITCHYARD_BINARY(logaddexp)
SWITCHYARD_BINARY(equal)
SWITCHYARD_BINARY(not_equal)
SWITCHYARD_BINARY(less)
SWITCHYARD_BINARY(less_equal)
SWITCHYARD_BINARY(greater)
SWITCHYARD_BINARY(greater_equal)
SWITCHYARD_BINARY(logical_and)
SWITCHYARD_BINARY(logical_or)
SWITCHYARD_BINARY(logical_xor)
// NumPy's bitwise operations: on the two's complement bits of int32/int64, logical on bool;
// float operands are a DTypeError.
SWITCHYARD_BINARY(bitwise_and)
SWITCHYARD_BINARY(bitwise_or)
SWITCHYARD_BINARY(bitwise_xor)
// Integers only. A count below 0 or at least the bit width gives 0 (right_shift of a negative
// value: -1), as NumPy; left_shift wraps, right_shift is arithmetic (keeps the sign).
SWITCHYARD_BINARY(left_shift)
SWITCHYARD_BINARY(right_shift)
#undef SWITCHYARD_BINARY

// ---- elementwise, unary
Array negative(const Array& a);
Array abs(const Array& a);
Array sign(const Array& a);
Array logical_not(const Array& a);
Array invert(const Array& a);  // bitwise not (~x == -x - 1) on integers, logical not on bool
Array exp(const Array& a);
Array log(const Array& a);
Array sqrt(const Array& a);
Array sin(const Array& a);
Array cos(const Array& a);
Array tan(const Array& a);
Array tanh(const Array& a);
// float results (integers and bools promote as for sin), C's special values: arcsin(2) is NaN,
// arccosh(1) is 0, arctanh(±1) is ±inf, log1p(-1) is -inf; expm1 and log1p stay accurate
// near 0, where exp(x) - 1 and log(1 + x) lose every digit.
Array arcsin(const Array& a);
Array arccos(const Array& a);
Array arctan(const Array& a);
Array sinh(const Array& a);
Array cosh(const Array& a);
Array arcsinh(const Array& a);
Array arccosh(const Array& a);
Array arctanh(const Array& a);
Array expm1(const Array& a);
Array log1p(const Array& a);
Array log2(const Array& a);
Array log10(const Array& a);
// Integers and bools come back unchanged, in their own dtype (NumPy 2).
Array floor(const Array& a);
Array ceil(const Array& a);
Array round(const Array& a);  // half to even, as NumPy's round and rint
Array trunc(const Array& a);  // toward zero
// bool results; integer and bool elements are never NaN or infinite
Array isnan(const Array& a);
Array isinf(const Array& a);
Array isfinite(const Array& a);
Array signbit(const Array& a);  // std::signbit: true for -0.0, negative NaNs and integers < 0
// NumPy's clip: minimum(maximum(a, lo), hi); an absent bound is not applied; promotes as NumPy.
Array clip(const Array& a, std::optional<Scalar> lo, std::optional<Scalar> hi);
Array clip(const Array& a, const Array& lo, const Array& hi);

// cond must be bool; a and b are promoted together; all three broadcast.
Array where(const Array& cond, const Array& a, const Array& b);

// ---- reductions over all elements (axis absent, result of shape ()), one axis, or a list of
// axes (negative ones count from the end), as NumPy's axis=(...); keepdims keeps each reduced
// axis as extent 1. Each runs in one kernel with the expression it reduces. An empty list
// reduces nothing: the result is the input in the result's dtype. An axis out of range is an
// AxisError; min, max, argmin and argmax of no elements are a ValueError.
#define SWITCHYARD_REDUCTION(fn)                                                            \
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
SWITCHYARD_REDUCTION(any)  // bool results: whether any (all) of the truth values is true
SWITCHYARD_REDUCTION(all)  // (empty: any is false, all is true)
#undef SWITCHYARD_REDUCTION
// Variance and standard deviation (`std` cannot be a function name here) with NumPy's ddof:
// the mean of squared deviations, divided by N - ddof instead of N. float32 stays float32,
// integers and bools give float64.
#define SWITCHYARD_SPREAD(fn)                                                                  \
  Array fn(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false,      \
           double ddof = 0);                                                                   \
  Array fn(const Array& a, std::span<const int> axes, bool keepdims = false, double ddof = 0); \
  inline Array fn(const Array& a, std::initializer_list<int> axes, bool keepdims = false,      \
                  double ddof = 0) {                                                           \
    return fn(a, std::span<const int>(axes.begin(), axes.size()), keepdims, ddof);             \
  }
SWITCHYARD_SPREAD(var)
SWITCHYARD_SPREAD(stddev)
#undef SWITCHYARD_SPREAD
// The first occurrence's index over all elements (flat, row-major) or along one axis.
Array argmin(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);
Array argmax(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);

// ---- joining, as NumPy's concatenate and stack: dtypes promote; every piece has the same shape
// off the joined axis (stack: the same shape). The result is allocated once and each piece,
// pending or not, is written straight into its part of it.
Array concatenate(std::span<const Array> arrays, std::optional<int> axis = 0);  // nullopt: flat
inline Array concatenate(std::initializer_list<Array> arrays, std::optional<int> axis = 0) {
  return concatenate(std::span<const Array>(arrays.begin(), arrays.size()), axis);
}
Array stack(std::span<const Array> arrays, int axis = 0);  // along a new axis
inline Array stack(std::initializer_list<Array> arrays, int axis = 0) {
  return stack(std::span<const Array>(arrays.begin(), arrays.size()), axis);
}

// ---- linear algebra, NumPy's matmul: the last two axes are matrices and the leading (batch)
// axes broadcast; a 1-D operand is a row (left) or column (right) whose added axis is removed.
// Floats run on each backend's BLAS, a batch in one launch; integer and bool operands (which
// BLAS does not take) as one fused multiply-and-sum kernel, int32 wrapping, bool as any(a & b).
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

// ---- operators, as NumPy's: comparisons give bool arrays (so `if (a == b)` tests whether the
// result is a non-null array, not its elements), & | ^ ~ << >> are the bitwise operations
#define SWITCHYARD_OPERATOR(op, fn)                          \
  inline Array operator op(const Array& a, const Array& b) { \
    return fn(a, b);                                         \
  }                                                          \
  inline Array operator op(const Array& a, Scalar b) {       \
    return fn(a, b);                                         \
  }                                                          \
  inline Array operator op(Scalar a, const Array& b) {       \
    return fn(a, b);                                         \
  }
SWITCHYARD_OPERATOR(+, add)
SWITCHYARD_OPERATOR(-, subtract)
SWITCHYARD_OPERATOR(*, multiply)
SWITCHYARD_OPERATOR(/, divide)
SWITCHYARD_OPERATOR(%, mod)
SWITCHYARD_OPERATOR(==, equal)
SWITCHYARD_OPERATOR(!=, not_equal)
SWITCHYARD_OPERATOR(<, less)
SWITCHYARD_OPERATOR(<=, less_equal)
SWITCHYARD_OPERATOR(>, greater)
SWITCHYARD_OPERATOR(>=, greater_equal)
SWITCHYARD_OPERATOR(&, bitwise_and)
SWITCHYARD_OPERATOR(|, bitwise_or)
SWITCHYARD_OPERATOR(^, bitwise_xor)
SWITCHYARD_OPERATOR(<<, left_shift)
SWITCHYARD_OPERATOR(>>, right_shift)
#undef SWITCHYARD_OPERATOR
inline Array operator-(const Array& a) {
  return negative(a);
}
inline Array operator~(const Array& a) {
  return invert(a);
}

// ---- in-place operators: write the result into the storage `a` views, as Array::assign
// does, in one kernel with the computation. As NumPy, the result must keep a's shape (it does
// not broadcast a) and its dtype must cast to a's under the same_kind rule: int_array += 1.5 is
// a DTypeError, int32_array += int64_array wraps into int32. Floor division has no C++
// operator: a.assign(floor_divide(a, b)).
namespace detail {
const Array& update(const Array& a, Array result, std::string_view ufunc);
}
#define SWITCHYARD_IN_PLACE(op, fn)                                 \
  inline const Array& operator op(const Array& a, const Array& b) { \
    return detail::update(a, fn(a, b), #fn);                        \
  }                                                                 \
  inline const Array& operator op(const Array& a, Scalar b) {       \
    return detail::update(a, fn(a, b), #fn);                        \
  }
SWITCHYARD_IN_PLACE(+=, add)
SWITCHYARD_IN_PLACE(-=, subtract)
SWITCHYARD_IN_PLACE(*=, multiply)
SWITCHYARD_IN_PLACE(/=, divide)
SWITCHYARD_IN_PLACE(%=, mod)
SWITCHYARD_IN_PLACE(&=, bitwise_and)
SWITCHYARD_IN_PLACE(|=, bitwise_or)
SWITCHYARD_IN_PLACE(^=, bitwise_xor)
SWITCHYARD_IN_PLACE(<<=, left_shift)
SWITCHYARD_IN_PLACE(>>=, right_shift)
#undef SWITCHYARD_IN_PLACE

}  // namespace switchyard

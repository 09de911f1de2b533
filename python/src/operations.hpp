// The elementwise functions of ops.hpp as tables by NumPy name, so that the module's functions
// (switchyard.add) and the Array's operators (a + b) are one list, and a function added to the
// C++ API is one line here.
#pragma once

#include <span>
#include <string_view>

#include "convert.hpp"

namespace switchyard::python {

struct BinaryOp {
  const char* name;  // NumPy's
  Array (*arrays)(const Array&, const Array&);
  Array (*array_scalar)(const Array&, Scalar);
  Array (*scalar_array)(Scalar, const Array&);
};

struct UnaryOp {
  const char* name;
  Array (*fn)(const Array&);
};

std::span<const BinaryOp> binary_ops();
std::span<const UnaryOp> unary_ops();
const BinaryOp& binary_op(std::string_view name);

// op(a, b) with either side an array or a weak scalar; two scalars compute as 0-d arrays.
Array apply(const BinaryOp& op, const Operand& a, const Operand& b);

}  // namespace switchyard::python

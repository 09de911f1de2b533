// What an expression computes at each step: an array, or a weak scalar that has met no array yet
// (a literal, or a part made of literals only), kept weak so that float32 * (2*3) stays float32.
#pragma once

#include <string>
#include <variant>

#include "switchyard/array.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::expr {

using Value = std::variant<Array, Scalar>;

// NumPy's dtype for a value of this kind standing alone: bool, int64 or float64.
DType default_dtype(ScalarKind kind);

// A 0-d array holding `s` in `dtype`; an integer that does not fit int32 is a ValueError, as
// NumPy 2 raises for a Python integer out of bounds for the array's dtype.
Array scalar_array(Scalar s, DType dtype);

// The value as an array: a weak scalar becomes a 0-d array of its default dtype.
Array array_of(const Value& v);

// A 0-d result of folding literals, made weak again.
Scalar weak_scalar(const Array& zero_d);

bool is_bool(const Value& v);

// "float32", or "int scalar" for a weak scalar.
std::string type_name(const Value& v);

}  // namespace switchyard::expr

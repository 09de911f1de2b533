// A float written into an integer array (full, fill, assign of a scalar) must be a value the
// dtype holds, as NumPy's scalar conversion requires (x.fill(nan) raises "cannot convert float
// NaN to integer"): converting it unchecked would give x86's INT_MIN where the caller meant a
// value.
#pragma once

#include "switchyard/dtype.hpp"

namespace switchyard {

// Throws ValueError for NaN, infinity or a value out of an integer dtype's range; other dtypes
// take any value.
void check_fill_value(double value, DType dtype);

}  // namespace switchyard

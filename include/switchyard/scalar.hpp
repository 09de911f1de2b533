// A Python-style scalar operand, for operations and for writing into arrays.
#pragma once

#include <cstdint>

#include "switchyard/dtype.hpp"

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

}  // namespace switchyard

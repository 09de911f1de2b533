// Arithmetic on the rows (axis 0) of local arrays, shared by the collectives on them.
#pragma once

#include <cstdint>

#include "switchyard/array.hpp"

namespace switchyard::dist {

// Elements in one row: the product of the extents after axis 0.
inline std::int64_t row_elements(const Shape& shape) {
  std::int64_t n = 1;
  for (int axis = 1; axis < shape.size(); ++axis) n *= shape[axis];
  return n;
}

inline Shape with_rows(Shape shape, std::int64_t rows) {
  shape[0] = rows;
  return shape;
}

}  // namespace switchyard::dist

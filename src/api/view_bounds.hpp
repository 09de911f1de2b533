// The bounds check every view passes: all its elements lie inside its buffer.
#pragma once

#include <cstddef>

#include "switchyard/dtype.hpp"
#include "switchyard/shape.hpp"

namespace switchyard {

// Throws ShapeError when strides and shape disagree in rank, IndexError when an element of the
// view falls outside a buffer of `bytes` bytes.
void check_view_bounds(const Shape& shape, const Strides& strides, std::int64_t offset, DType dtype,
                       std::size_t bytes);

}  // namespace switchyard

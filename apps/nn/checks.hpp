// The checks a training step makes, in one process or across ranks (the global shapes of a
// distributed batch), and the batch's conversion to the model's dtype.
#pragma once

#include "switchyard/apps/nn.hpp"

namespace switchyard::apps::nn {

// ShapeError unless x is (batch, sizes[0]) and labels (batch).
void check_batch_shapes(const MLP& model, const Shape& x, const Shape& labels);

Array in_dtype(const Array& a, DType dtype);

}  // namespace switchyard::apps::nn

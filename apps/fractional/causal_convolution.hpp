// y_i = Σ_{k=0..i} w_k x_{i−k} for i < n: the one computation every fractional scheme here is.
#pragma once

#include "switchyard/apps/fractional.hpp"

namespace switchyard::apps::fractional::detail {

// `weights` and `x`: 1-D, length n ≥ 1, the same float dtype; the result has length n.
Array causal_convolution(const Array& weights, const Array& x, Method method);

}  // namespace switchyard::apps::fractional::detail

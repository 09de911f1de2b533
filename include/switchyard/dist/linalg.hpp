// Matrix products of distributed arrays.
#pragma once

#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

// a (M, K) in any layout times b (K, N) or (K,) replicated: each rank multiplies its own rows of
// a, so no communication; the result (M, N) or (M,) has a's layout. LayoutError when b is not
// replicated or the communicators differ, ShapeError when the inner extents differ.
DistArray matmul(const DistArray& a, const DistArray& b);

}  // namespace switchyard::dist

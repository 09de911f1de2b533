// The field's expression, shared by frame(), statistics() and animate().
#pragma once

#include "switchyard/apps/field.hpp"

namespace switchyard::apps::field {

// Throw ValueError / DTypeError naming the function and the bad parameter.
void check(const char* function, const Grid& grid, const Params& params);
void check_time(const char* function, const char* parameter, double t);

// f over the grid, lazy: shape broadcast((H, W), t.shape) — t is 0-d for one frame, or
// (F, 1, 1) for F frames at once.
Array wave(const Grid& grid, const Params& params, const Array& t);

}  // namespace switchyard::apps::field

// The field's expression and checks, shared by frame(), statistics() and animate() in one process
// and by their distributed forms (distributed.cpp).
#pragma once

#include <cstdint>

#include "switchyard/apps/field.hpp"

namespace switchyard::apps::field {

// Throw ValueError / DTypeError naming the function and the bad parameter.
void check(const char* function, const Grid& grid, const Params& params);
void check_time(const char* function, const char* parameter, double t);
// animate's: the grid and parameters, frames >= 0, and a finite dt and t0.
void check_animate(const char* function, const Grid& grid, const Params& params,
                   std::int64_t frames, double dt, double t0);

// Rows [first, first + count) of the grid's H.
struct Rows {
  std::int64_t first = 0, count = 0;
};

// f over `rows` of the grid, lazy: shape broadcast((rows.count, W), t.shape) — t is 0-d for one
// frame, or (F, 1, 1) for F frames at once. Each row is computed as in the whole grid, bit for
// bit: its y is the same arange element times the same step.
Array wave(const Grid& grid, const Params& params, const Array& t, Rows rows);

// The statistics of a frame of `pixels` from its Σ f, Σ |f| and Σ f².
Stats stats_from_sums(double total, double magnitude, double power, std::int64_t pixels);

}  // namespace switchyard::apps::field

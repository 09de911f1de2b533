// The machine's memory-bandwidth ceiling, measured in the same run as what it is compared with:
// a STREAM-like triad (a = b + s*c) over all cores.
#pragma once

#include <cstddef>

namespace switchyard::bench {

// Runs a triad over n floats on every core; returns the bytes it moved (3 arrays).
std::size_t triad(float* a, const float* b, const float* c, std::size_t n, float s);

}  // namespace switchyard::bench

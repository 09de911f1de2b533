// The CPU backend: the host's cores as one device with unified memory.
#pragma once

#include <cstdint>
#include <memory>

#include "backends/backend.hpp"

namespace switchyard::cpu {

std::unique_ptr<Backend> make_backend();

// Launches below the parallel threshold run inline on the calling thread (no dispatch cost: a
// one-op launch of 16 elements takes about 40 ns); larger ones are split over oneTBB's threads.
// The threshold is in elements of a one-op kernel; heavier kernels weigh each element by their
// work (a sin counts as 8 adds), so they go parallel at fewer elements. Measured with 2
// threads: a+b gains from threads above ~48K elements, a*b + sin(c)*2.5 - sqrt(|a|) above
// ~20K. The scheduler can treat "CPU inline" and "CPU parallel" as two candidates by setting
// the threshold around a launch: 0 makes every launch parallel, INT64_MAX every launch
// inline. Process-wide; the setting is atomic but not scoped.
inline constexpr std::int64_t kDefaultParallelThreshold = 48 * 1024;
void set_parallel_threshold(std::int64_t elements);
std::int64_t parallel_threshold();

}  // namespace switchyard::cpu

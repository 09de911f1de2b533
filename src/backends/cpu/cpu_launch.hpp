// Runs a prepared Program over a launch: inline on the calling thread for small launches,
// otherwise split over oneTBB's worker threads.
#pragma once

#include <cstdint>

#include "backends/backend.hpp"
#include "backends/cpu/cpu_program.hpp"

namespace switchyard::cpu {

void run_program(const Program& program, const LaunchArgs& args);

// True when the launch asks for the caller's thread, or (Auto) when n elements of the program
// weigh less than the threshold (see cpu_backend.hpp).
bool runs_inline(const Program& program, const LaunchArgs& args, std::int64_t n);

}  // namespace switchyard::cpu

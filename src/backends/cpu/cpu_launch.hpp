// Runs a prepared Program over a launch: inline on the calling thread for small launches,
// otherwise split over oneTBB's worker threads.
#pragma once

#include "backends/backend.hpp"
#include "backends/cpu/cpu_program.hpp"

namespace switchyard::cpu {

void run_program(const Program& program, const LaunchArgs& args);

}  // namespace switchyard::cpu

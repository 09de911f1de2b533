// Runs a reduction Program: its launch as rows (ir::folded_rows), long rows cut into chunks and
// short rows grouped, spread over oneTBB's threads; every block that run_block computes is folded
// by every output while it is in cache, so the reductions of one kernel read memory once.
#pragma once

#include "backends/backend.hpp"
#include "backends/cpu/cpu_program.hpp"

namespace switchyard::cpu {

void run_reduction(const Program& program, const LaunchArgs& args);

}  // namespace switchyard::cpu

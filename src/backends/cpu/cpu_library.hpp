// Library operations on the CPU (backend.hpp's LibraryOp): one routine per op, chosen here.
#pragma once

#include <memory>

#include "backends/library_routine.hpp"

namespace switchyard::cpu {

// The host's routines run on the caller's thread (or oneTBB's), on any host device.
using Routine = LibraryRoutine<switchyard::Device>;

// Throws DTypeError for a dtype the op does not take.
std::shared_ptr<Routine> prepare_library(switchyard::Device& device, const LibraryOp& op);

}  // namespace switchyard::cpu

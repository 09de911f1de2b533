// Library operations on a CUDA device (backend.hpp's LibraryOp): one routine per op.
#pragma once

#include <memory>

#include "backends/library_routine.hpp"

namespace switchyard::cuda {

class Device;
// launch() queues the op on the device's stream (its context current) and returns before it runs.
using Routine = LibraryRoutine<Device>;

// Throws DTypeError for a dtype the op does not take.
std::shared_ptr<Routine> prepare_library(Device& device, const LibraryOp& op);

}  // namespace switchyard::cuda

// Library operations on an OpenCL device (backend.hpp's LibraryOp): one routine per op.
#pragma once

#include <memory>

#include "backends/library_routine.hpp"

namespace switchyard::opencl {

class Device;
using Routine = LibraryRoutine<Device>;  // launch() enqueues the op and returns before it runs

// Throws DTypeError for a dtype the op (or the device) does not take.
std::shared_ptr<Routine> prepare_library(Device& device, const LibraryOp& op);

}  // namespace switchyard::opencl

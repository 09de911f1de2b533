// Library operations on an OpenCL device (backend.hpp's LibraryOp): one routine per op.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace switchyard::opencl {

class Device;

class LibraryRoutine : public Executable {
 public:
  // Enqueues the op; returns before it runs.
  virtual void launch(const LibraryArgs& args) = 0;
};

// Throws DTypeError for a dtype the op (or the device) does not take.
std::shared_ptr<LibraryRoutine> prepare_library(Device& device, const LibraryOp& op);

}  // namespace switchyard::opencl

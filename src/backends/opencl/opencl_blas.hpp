// gemm / gemv on an OpenCL device through CLBlast, float32 and (where the device has it)
// float64.
#pragma once

#include "backends/opencl/opencl_library.hpp"

namespace switchyard::opencl {

class Device;

class BlasRoutine final : public Routine {
 public:
  // Throws DTypeError for a dtype other than float32/float64, or float64 without device fp64.
  BlasRoutine(Device& device, const LibraryOp& op);

  // Enqueues the call; returns before it runs.
  void launch(const LibraryArgs& args) override;
};

}  // namespace switchyard::opencl

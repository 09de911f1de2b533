// gemm / gemv on an OpenCL device through CLBlast, float32 and (where the device has it)
// float64.
#pragma once

#include "backends/opencl/opencl_library.hpp"

namespace switchyard::opencl {

class Device;

class LibraryCall final : public LibraryRoutine {
 public:
  // Throws DTypeError for a dtype other than float32/float64, or float64 without device fp64.
  LibraryCall(Device& device, const LibraryOp& op);

  // Enqueues the call; returns before it runs.
  void launch(const LibraryArgs& args) override;

 private:
  Device& device_;
  LibraryOp op_;
};

}  // namespace switchyard::opencl

// gemm / gemv on an OpenCL device through CLBlast, float32 and (where the device has it)
// float64.
#pragma once

#include "backends/library_routine.hpp"

namespace switchyard::opencl {

class Driver;

class BlasRoutine final : public LibraryRoutine<switchyard::Device> {
 public:
  // Throws DTypeError for a dtype other than float32/float64, or float64 without device fp64.
  BlasRoutine(Driver& driver, switchyard::Device& device, const LibraryOp& op);

  // Enqueues the call on the driver's queue; returns before it runs.
  void launch(const LibraryArgs& args) override;

 private:
  Driver& driver_;
};

}  // namespace switchyard::opencl

#include "backends/opencl/opencl_library.hpp"

#include <string>

#include "backends/opencl/opencl_blas.hpp"
#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_fft.hpp"
#include "backends/opencl/opencl_library_kernels.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {

std::shared_ptr<Routine> prepare_library(Device& device, const LibraryOp& op) {
  switch (op.kind) {
    case LibraryOp::Kind::Gemm:
    case LibraryOp::Kind::Gemv:
      return std::make_shared<BlasRoutine>(device, op);
    case LibraryOp::Kind::Fft:
      return std::make_shared<FftRoutine>(device, op);
    case LibraryOp::Kind::Scan:
    case LibraryOp::Kind::Sort:
    case LibraryOp::Kind::Compact:
    case LibraryOp::Kind::Gather:
      return std::make_shared<LibraryKernels>(device, op);
    case LibraryOp::Kind::Solver:  // Device::runs() keeps the scheduler from asking
      throw ValueError("opencl backend: no dense solver on " + device.info().id());
  }
  throw DeviceError("opencl backend: library op kind " + std::to_string(static_cast<int>(op.kind)) +
                    " is unknown on " + device.info().id());
}

}  // namespace switchyard::opencl

#include "backends/cuda/cuda_library.hpp"

#include <string>

#include "backends/cuda/cuda_blas.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_fft.hpp"
#include "backends/cuda/cuda_library_kernels.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {

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
      throw ValueError("cuda backend: no dense solver on " + device.where());
  }
  throw DeviceError("cuda backend: library op kind " + std::to_string(static_cast<int>(op.kind)) +
                    " is unknown on " + device.where());
}

}  // namespace switchyard::cuda

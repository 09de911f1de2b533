// Which library ops a vendor routine serves on a CUDA device; codegen's library kernels, which
// CompiledDevice builds, serve the rest.
#include "backends/cuda/cuda_blas.hpp"
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_fft.hpp"

namespace switchyard::cuda {

std::shared_ptr<LibraryRoutine<switchyard::Device>> Driver::prepare_library(
    const LibraryOp& op, switchyard::Device& device) {
  switch (op.kind) {
    case LibraryOp::Kind::Gemm:
    case LibraryOp::Kind::Gemv:
      return std::make_shared<BlasRoutine>(*this, device, op);
    case LibraryOp::Kind::Fft:
      return std::make_shared<FftRoutine>(*this, device, op);
    case LibraryOp::Kind::Scan:
    case LibraryOp::Kind::Sort:
    case LibraryOp::Kind::Compact:
    case LibraryOp::Kind::Gather:
    case LibraryOp::Kind::Solver:  // Device::runs() keeps it from coming here
      break;
  }
  return nullptr;
}

}  // namespace switchyard::cuda

#include "backends/cpu/cpu_library.hpp"

#include <string>

#include "backends/cpu/cpu_blas.hpp"
#include "backends/cpu/cpu_fft.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu {

std::shared_ptr<LibraryRoutine> prepare_library(const LibraryOp& op) {
  switch (op.kind) {
    case LibraryOp::Kind::Gemm:
    case LibraryOp::Kind::Gemv:
      return std::make_shared<LibraryProgram>(op);
    case LibraryOp::Kind::Fft:
      return std::make_shared<FftRoutine>(op);
    case LibraryOp::Kind::Scan:
    case LibraryOp::Kind::Sort:
    case LibraryOp::Kind::Compact:
    case LibraryOp::Kind::Gather:
      break;
  }
  throw DeviceError("cpu backend: library op " + std::to_string(static_cast<int>(op.kind)) +
                    " is not available");
}

}  // namespace switchyard::cpu

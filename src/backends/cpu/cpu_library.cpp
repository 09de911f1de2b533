#include "backends/cpu/cpu_library.hpp"

#include <string>

#include "backends/cpu/cpu_blas.hpp"
#include "backends/cpu/cpu_fft.hpp"
#include "backends/cpu/library_routines.hpp"
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
      return std::make_shared<ScanRoutine>(op);
    case LibraryOp::Kind::Sort:
      return std::make_shared<SortRoutine>(op);
    case LibraryOp::Kind::Compact:
      return std::make_shared<CompactRoutine>(op);
    case LibraryOp::Kind::Gather:
      return std::make_shared<GatherRoutine>(op);
  }
  throw DeviceError("cpu backend: library op kind " + std::to_string(static_cast<int>(op.kind)) +
                    " is unknown");
}

}  // namespace switchyard::cpu

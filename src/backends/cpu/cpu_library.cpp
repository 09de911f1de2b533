#include "backends/cpu/cpu_library.hpp"

#include <string>

#include "backends/cpu/cpu_blas.hpp"
#include "backends/cpu/cpu_fft.hpp"
#include "backends/cpu/cpu_solver.hpp"
#include "backends/cpu/library_routines.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu {

std::shared_ptr<Routine> prepare_library(switchyard::Device& device, const LibraryOp& op) {
  switch (op.kind) {
    case LibraryOp::Kind::Gemm:
    case LibraryOp::Kind::Gemv:
      return std::make_shared<BlasRoutine>(device, op);
    case LibraryOp::Kind::Fft:
      return std::make_shared<FftRoutine>(device, op);
    case LibraryOp::Kind::Scan:
      return std::make_shared<ScanRoutine>(device, op);
    case LibraryOp::Kind::Sort:
      return std::make_shared<SortRoutine>(device, op);
    case LibraryOp::Kind::Compact:
      return std::make_shared<CompactRoutine>(device, op);
    case LibraryOp::Kind::Gather:
      return std::make_shared<GatherRoutine>(device, op);
    case LibraryOp::Kind::Solver:
      return std::make_shared<SolverRoutine>(device, op);
  }
  throw DeviceError("cpu backend: library op kind " + std::to_string(static_cast<int>(op.kind)) +
                    " is unknown");
}

}  // namespace switchyard::cpu

// The CPU's dense factorisations (LibraryOp::Kind::Solver): LAPACK's, from the OpenBLAS the
// backend links for BLAS, one call per matrix of the batch.
#pragma once

#include "backends/cpu/cpu_library.hpp"

namespace switchyard::cpu {

class SolverRoutine final : public Routine {
 public:
  SolverRoutine(switchyard::Device& device,
                const LibraryOp& op);  // throws DTypeError unless float32/float64
  // Throws LinAlgError for a matrix the factorisation cannot take (launch.hpp's contract).
  void launch(const LibraryArgs& args) override;
};

}  // namespace switchyard::cpu

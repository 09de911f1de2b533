// Library operations on the CPU: matrix products through OpenBLAS.
//
// Row-major. Gemm: C (m×n) = op(A) (m×k) · op(B) (k×n); Gemv: y (m) = op(A) (m×n) · x (n).
// With transpose_a the stored A is op(A)'s transpose (k×m for gemm, n×m for gemv), likewise
// for B; lda, ldb and ldc are the stored matrices' row pitches in elements.
#pragma once

#include "backends/cpu/cpu_library.hpp"

namespace switchyard::cpu {

class BlasRoutine final : public Routine {
 public:
  BlasRoutine(switchyard::Device& device,
              const LibraryOp& op);               // throws DTypeError unless float32/float64
  void launch(const LibraryArgs& args) override;  // throws ValueError for inconsistent sizes
};

}  // namespace switchyard::cpu

// What a launch is given: device memory, operands, scalars and the iteration space of a kernel,
// and the library operations with their arguments. Below every backend and codegen, which
// render, plan and run them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ir/kernel_ir.hpp"
#include "switchyard/dtype.hpp"
#include "switchyard/shape.hpp"

namespace switchyard {

// An allocation on a device. `handle` is the backend's own object (cl_mem, CUdeviceptr, or the
// host pointer for devices with unified memory).
struct DeviceMemory {
  void* handle = nullptr;
  std::size_t bytes = 0;
  explicit operator bool() const { return handle != nullptr; }
};

// An input or output of a launch: memory, dtype, first element and strides, in elements, over
// the launch shape (inputs), or over the output shape (outputs, always contiguous).
struct Operand {
  DeviceMemory memory;
  DType dtype = DType::Float32;
  std::int64_t offset = 0;
  Strides strides;
};

struct ScalarValue {
  DType dtype = DType::Float64;
  double f = 0;        // for float dtypes
  std::int64_t i = 0;  // for int and bool dtypes
};

// How a host-addressable device (the CPU) may spread a launch over threads. The scheduler
// treats "inline on the caller's thread" and "parallel on every core" as two candidates.
enum class Parallelism : std::uint8_t { Auto, Inline, Parallel };

struct LaunchArgs {
  // Iteration space. A reduction kernel's folded elements are ir::folded_rows of it: each
  // output then holds one element per row (the shape of the leading axes, contiguous), in
  // reduce_result(op, dtype) of its reduction.
  Shape shape;
  std::span<const Operand> inputs;
  std::span<const ScalarValue> scalars;
  std::span<const Operand> outputs;
  Parallelism parallelism = Parallelism::Auto;  // ignored by devices that are not the host
};

// Library operations: work that is not one elementwise chain or reduction. Each backend runs
// them with the library its field trusts (BLAS, Highway's vqsort, FFTW, CLBlast, VkFFT, cuBLAS,
// cuFFT) or, where none fits, with kernels generated from one source for OpenCL and CUDA.
struct LibraryOp {
  enum class Kind : std::uint8_t { Gemm, Gemv, Scan, Sort, Compact, Gather, Fft, Solver };
  enum class FftKind : std::uint8_t { ComplexToComplex, RealToComplex, ComplexToReal };
  // Dense factorisations (LAPACK's): only devices whose Device::runs() says so take them.
  enum class SolverKind : std::uint8_t { Svd, Qr, Cholesky, Solve, Eigh, Lu };

  Kind kind;
  DType dtype;  // the element dtype of operand a (Fft: of the real side for R2C/C2R)
  bool transpose_a = false, transpose_b = false;  // Gemm, Gemv
  ir::ReduceOp scan = ir::ReduceOp::Sum;          // Scan: Sum, Prod, Min or Max
  bool exclusive = false;                         // Scan: element i folds elements [0, i)
  bool indices = false;  // Sort: also the stable permutation; Compact: positions, not values
  FftKind fft = FftKind::ComplexToComplex;  // Fft
  bool inverse = false;                     // Fft (C2C); unnormalised both ways
  std::int8_t rank = 1;                     // Fft: 1 or 2 transformed (trailing) axes
  SolverKind solver = SolverKind::Svd;      // Solver
  bool vectors = true;                      // Solver: Svd and Eigh also give their vectors
  bool complete = false;  // Solver: Svd's full U (m×m) and Vh (n×n); Qr's complete Q (m×m)
};

// What work needs of a device beyond running generated kernels: a routine for a library op's
// kind, or float64 arithmetic. A device says what it has (Device::has); the scheduler never
// places work on a device that lacks one of its needs.
using Needs = std::uint16_t;
constexpr Needs needs_routine(LibraryOp::Kind kind) {
  return static_cast<Needs>(Needs{1} << static_cast<int>(kind));
}
inline constexpr Needs kNeedsFloat64 = Needs{1} << 15;
inline constexpr Needs kEveryRoutine = 0xff;

// The arguments of a library op. Operands a and b are inputs, c and d outputs; every operand
// except a gemm/gemv matrix is contiguous from its offset, and outputs are fresh memory.
//
// Gemm: C = A·B (A is m×k, B is k×n, C is m×n, row-major with leading dimensions in elements).
//   When transpose_a is set A's memory holds the transpose (k×m row-major, lda >= m), likewise
//   transpose_b. `batch` products, operand i of product p at offset + p·stride_i. k == 0 gives 0.
// Gemv: y = A·x (A is m×n, x = b has n, y = c has m), batch 1.
// Scan: `rows` rows of `length` elements of a, each scanned into c (same dtype) with `scan`;
//   inclusive, or exclusive (starting from the op's identity).
// Sort: `rows` rows of `length` elements of a, each sorted ascending into c (NaN last, as
//   NumPy); with `indices`, d (int64) receives each element's position in its row, stable.
// Compact: the `length` elements of a (or, with `indices`, their positions, int64) whose mask
//   b (bool) is true, in order, into c's first elements; d (int64, one element) the count.
// Gather: a holds `rows` × `length` × `inner` elements, b (int64, `count` elements) positions
//   in [0, length); c (rows × count × inner) receives a[r, b[j], i] at [r, j, i].
// Fft: `rows` transforms of logical shape {n} (rank 1) or {m, n} (rank 2) over the trailing
//   axes, unnormalised (forward e^{-2πi jk/n}). ComplexToComplex: a and c are complex, n (m×n)
//   each. RealToComplex: a real m×n, c complex m×(n/2+1). ComplexToReal: the inverse of that.
//   Complex elements are (re, im) pairs of `dtype`; offsets count elements of the operand's dtype.
// Solver: `batch` row-major matrices a (m×n each, contiguous), each factorised independently;
//   results contiguous per batch element. Svd: c = S (k = min(m,n)), d = U (m×k), e = Vh (k×n),
//   with `complete` U m×m and Vh n×n, without `vectors` only c. Qr: c = Q (m×k), d = R (k×n),
//   with `complete` Q m×m and R m×n. Cholesky (n×n):
//   c = L, lower, zeros above. Solve: a (n×n), b (n×k right-hand sides): c = X. Eigh (n×n,
//   symmetric, its lower triangle read): c = eigenvalues ascending (n), d = eigenvectors as
//   columns (n×n) with `vectors`. Lu (n×n): c = the packed L\U factors, d = int64 pivots (n,
//   1-based rows as LAPACK's). A matrix that the factorisation cannot take (singular for
//   Solve, not positive definite for Cholesky, no convergence for Svd and Eigh) is LinAlgError.
struct LibraryArgs {
  std::int64_t m = 0, n = 0, k = 0;
  Operand a, b, c;
  std::int64_t lda = 0, ldb = 0, ldc = 0;
  Operand d{}, e{};  // only ops that take a fourth (fifth) array set it
  std::int64_t batch = 1, stride_a = 0, stride_b = 0, stride_c = 0;
  std::int64_t rows = 0, length = 0, inner = 1, count = 0;
};

}  // namespace switchyard

#include "backends/cpu/cpu_blas.hpp"

#include <cblas.h>

#include <algorithm>
#include <climits>
#include <string>

#include "switchyard/error.hpp"

namespace switchyard::cpu {
namespace {

void blas(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const float* a, int lda,
          const float* b, int ldb, float* c, int ldc) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
}
void blas(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const double* a, int lda,
          const double* b, int ldb, double* c, int ldc) {
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}
void blas(CBLAS_TRANSPOSE ta, int rows, int cols, const float* a, int lda, const float* x,
          float* y) {
  cblas_sgemv(CblasRowMajor, ta, rows, cols, 1.0f, a, lda, x, 1, 0.0f, y, 1);
}
void blas(CBLAS_TRANSPOSE ta, int rows, int cols, const double* a, int lda, const double* x,
          double* y) {
  cblas_dgemv(CblasRowMajor, ta, rows, cols, 1.0, a, lda, x, 1, 0.0, y, 1);
}

// OpenBLAS takes 32-bit sizes and reports bad ones through xerbla on stderr; check them here
// so the caller gets a typed error instead.
int blas_size(std::int64_t value, const char* what) {
  if (value < 0 || value > INT_MAX)
    throw ValueError(std::string("cpu blas: ") + what + " = " + std::to_string(value) +
                     ", expected 0.." + std::to_string(INT_MAX));
  return static_cast<int>(value);
}

int leading_dimension(std::int64_t ld, std::int64_t columns, const char* what) {
  if (ld < std::max<std::int64_t>(1, columns))
    throw ValueError(std::string("cpu blas: ") + what + " = " + std::to_string(ld) +
                     " is less than the stored matrix's " + std::to_string(columns) + " columns");
  return blas_size(ld, what);
}

template <class T>
T* data(const Operand& operand) {
  return static_cast<T*>(operand.memory.handle) + operand.offset;
}

template <class T>
void zero_rows(T* c, std::int64_t rows, std::int64_t columns, std::int64_t ld) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < columns; ++j) c[r * ld + j] = T{0};
}

// One product per batch element: OpenBLAS has no strided-batch gemm, and each call is already
// parallel inside.
template <class T>
void gemm(const LibraryOp& op, const LibraryArgs& x) {
  const int m = blas_size(x.m, "m"), n = blas_size(x.n, "n"), k = blas_size(x.k, "k");
  const int ldc = leading_dimension(x.ldc, n, "ldc");
  if (m == 0 || n == 0) return;
  for (std::int64_t p = 0; p < x.batch; ++p) {
    T* c = data<T>(x.c) + p * x.stride_c;
    if (k == 0) {
      zero_rows(c, m, n, ldc);  // OpenBLAS may leave C untouched
      continue;
    }
    const int lda = leading_dimension(x.lda, op.transpose_a ? m : k, "lda");
    const int ldb = leading_dimension(x.ldb, op.transpose_b ? k : n, "ldb");
    blas(op.transpose_a ? CblasTrans : CblasNoTrans, op.transpose_b ? CblasTrans : CblasNoTrans, m,
         n, k, data<T>(x.a) + p * x.stride_a, lda, data<T>(x.b) + p * x.stride_b, ldb, c, ldc);
  }
}

template <class T>
void gemv(const LibraryOp& op, const LibraryArgs& x) {
  const int m = blas_size(x.m, "m"), n = blas_size(x.n, "n");
  if (m == 0) return;
  if (n == 0) return zero_rows(data<T>(x.c), 1, m, m);
  const int rows = op.transpose_a ? n : m, columns = op.transpose_a ? m : n;
  const int lda = leading_dimension(x.lda, columns, "lda");
  blas(op.transpose_a ? CblasTrans : CblasNoTrans, rows, columns, data<T>(x.a), lda, data<T>(x.b),
       data<T>(x.c));
}

}  // namespace

BlasRoutine::BlasRoutine(switchyard::Device& device, const LibraryOp& op) : Routine(device, op) {
  if (!is_floating(op.dtype))
    throw DTypeError(std::string("cpu backend: ") +
                     (op.kind == LibraryOp::Kind::Gemm ? "gemm" : "gemv") + " of " +
                     std::string(name(op.dtype)) +
                     " is not supported: expected float32 or float64 (cast the operands)");
}

void BlasRoutine::launch(const LibraryArgs& args) {
  const bool f32 = op().dtype == DType::Float32;
  if (op().kind == LibraryOp::Kind::Gemm)
    return f32 ? gemm<float>(op(), args) : gemm<double>(op(), args);
  f32 ? gemv<float>(op(), args) : gemv<double>(op(), args);
}

}  // namespace switchyard::cpu

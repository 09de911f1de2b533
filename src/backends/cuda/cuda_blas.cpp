#include "backends/cuda/cuda_blas.hpp"

#include <algorithm>
#include <limits>

#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

cublasOperation_t op_of(bool transposed) {
  return transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
}

// cuBLAS takes 32-bit sizes; the layers above pass int64.
int blas_int(std::int64_t v, const char* what, const Driver& gpu) {
  if (v < 0 || v > std::numeric_limits<int>::max())
    throw ValueError(std::string("cuBLAS on ") + gpu.where() + ": " + what + " = " +
                     std::to_string(v) + ", expected 0 to 2^31 - 1");
  return static_cast<int>(v);
}

// BLAS requires a leading dimension of at least 1 even for matrices with no elements.
int leading(std::int64_t ld, const char* what, const Driver& gpu) {
  return std::max(blas_int(ld, what, gpu), 1);
}

template <class T>
T* pointer(const Operand& operand) {
  return reinterpret_cast<T*>(address(operand.memory)) + operand.offset;
}

// Row-major matrices read as column-major are their transposes, so row-major C = op(A)·op(B)
// is column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: the operands swap and the transpose flags stay. Every
// product of the batch is one call, operand i of product p at p·stride_i.
template <class T, class Gemm>
void gemm(Gemm call, const char* name, cublasHandle_t h, const LibraryOp& op, const LibraryArgs& a,
          const Driver& gpu) {
  const T one = 1, zero = 0;
  check(call(h, op_of(op.transpose_b), op_of(op.transpose_a), blas_int(a.n, "n", gpu),
             blas_int(a.m, "m", gpu), blas_int(a.k, "k", gpu), &one, pointer<T>(a.b),
             leading(a.ldb, "ldb", gpu), a.stride_b, pointer<T>(a.a), leading(a.lda, "lda", gpu),
             a.stride_a, &zero, pointer<T>(a.c), leading(a.ldc, "ldc", gpu), a.stride_c,
             blas_int(a.batch, "batch", gpu)),
        name, gpu.where());
}

// y (m) = A (m×n) · x (n). A row-major matrix read as column-major is Aᵀ (n×m), so it is
// multiplied transposed; a transposed operand is stored column-major and read as it is.
template <class T, class Gemv>
void gemv(Gemv call, const char* name, cublasHandle_t h, const LibraryOp& op, const LibraryArgs& a,
          const Driver& gpu) {
  const T one = 1, zero = 0;
  const int m = blas_int(a.m, "m", gpu), n = blas_int(a.n, "n", gpu);
  if (n == 0) {
    // BLAS returns early without writing y when A has no columns; the sum of nothing is 0.
    check(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(pointer<T>(a.c)), 0,
                                   sizeof(T) * static_cast<std::size_t>(m), gpu.stream()),
          "cuMemsetD8Async", gpu.where());
    return;
  }
  const bool column_major = op.transpose_a;
  check(call(h, column_major ? CUBLAS_OP_N : CUBLAS_OP_T, column_major ? m : n,
             column_major ? n : m, &one, pointer<T>(a.a), leading(a.lda, "lda", gpu),
             pointer<T>(a.b), 1, &zero, pointer<T>(a.c), 1),
        name, gpu.where());
}

}  // namespace

BlasHandle::BlasHandle(CUstream stream, const std::string& where) {
  if (!cublas_library().available())
    throw DeviceError("cuBLAS on " + where + ": " + cublas_library().unavailable_reason);
  check(cublas().cublasCreate(&handle_), "cublasCreate", where);
  check(cublas().cublasSetStream(handle_, stream), "cublasSetStream", where);
}

// The result is ignored: at process exit the driver may already be shutting down.
BlasHandle::~BlasHandle() {
  cublas().cublasDestroy(handle_);
}

BlasRoutine::BlasRoutine(Driver& gpu, switchyard::Device& device, const LibraryOp& op)
    : LibraryRoutine(device, op), gpu_(gpu) {
  if (!is_floating(op.dtype))
    throw DTypeError("cuBLAS on " + gpu.where() + " given " + std::string(name(op.dtype)) +
                     ": expected float32 or float64");
}

void BlasRoutine::launch(const LibraryArgs& args) {
  Driver& gpu = gpu_;
  const ContextScope scope(*gpu.context());
  const cublasHandle_t h = gpu.blas();
  const bool f32 = op().dtype == DType::Float32;
  if (op().kind == LibraryOp::Kind::Gemm) {
    if (f32)
      return gemm<float>(cublas().cublasSgemmStridedBatched, "cublasSgemmStridedBatched", h, op(),
                         args, gpu);
    return gemm<double>(cublas().cublasDgemmStridedBatched, "cublasDgemmStridedBatched", h, op(),
                        args, gpu);
  }
  if (f32) return gemv<float>(cublas().cublasSgemv, "cublasSgemv", h, op(), args, gpu);
  gemv<double>(cublas().cublasDgemv, "cublasDgemv", h, op(), args, gpu);
}

}  // namespace switchyard::cuda

#include "backends/cuda/cuda_blas.hpp"

#include <algorithm>
#include <limits>

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

cublasOperation_t op_of(bool transposed) {
  return transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
}

// cuBLAS takes 32-bit sizes; the layers above pass int64.
int blas_int(std::int64_t v, const char* what, const Device& device) {
  if (v < 0 || v > std::numeric_limits<int>::max())
    throw ValueError(std::string("cuBLAS on ") + device.where() + ": " + what + " = " +
                     std::to_string(v) + ", expected 0 to 2^31 - 1");
  return static_cast<int>(v);
}

// BLAS requires a leading dimension of at least 1 even for matrices with no elements.
int leading(std::int64_t ld, const char* what, const Device& device) {
  return std::max(blas_int(ld, what, device), 1);
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
          const Device& device) {
  const T one = 1, zero = 0;
  check(call(h, op_of(op.transpose_b), op_of(op.transpose_a), blas_int(a.n, "n", device),
             blas_int(a.m, "m", device), blas_int(a.k, "k", device), &one, pointer<T>(a.b),
             leading(a.ldb, "ldb", device), a.stride_b, pointer<T>(a.a),
             leading(a.lda, "lda", device), a.stride_a, &zero, pointer<T>(a.c),
             leading(a.ldc, "ldc", device), a.stride_c, blas_int(a.batch, "batch", device)),
        name, device.where());
}

// y (m) = A (m×n) · x (n). A row-major matrix read as column-major is Aᵀ (n×m), so it is
// multiplied transposed; a transposed operand is stored column-major and read as it is.
template <class T, class Gemv>
void gemv(Gemv call, const char* name, cublasHandle_t h, const LibraryOp& op, const LibraryArgs& a,
          const Device& device) {
  const T one = 1, zero = 0;
  const int m = blas_int(a.m, "m", device), n = blas_int(a.n, "n", device);
  if (n == 0) {
    // BLAS returns early without writing y when A has no columns; the sum of nothing is 0.
    check(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(pointer<T>(a.c)), 0,
                                   sizeof(T) * static_cast<std::size_t>(m), device.stream()),
          "cuMemsetD8Async", device.where());
    return;
  }
  const bool column_major = op.transpose_a;
  check(call(h, column_major ? CUBLAS_OP_N : CUBLAS_OP_T, column_major ? m : n,
             column_major ? n : m, &one, pointer<T>(a.a), leading(a.lda, "lda", device),
             pointer<T>(a.b), 1, &zero, pointer<T>(a.c), 1),
        name, device.where());
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

BlasRoutine::BlasRoutine(Device& device, const LibraryOp& op) : Routine(device, op) {
  if (!is_floating(op.dtype))
    throw DTypeError("cuBLAS on " + device.where() + " given " + std::string(name(op.dtype)) +
                     ": expected float32 or float64");
}

void BlasRoutine::launch(const LibraryArgs& args) {
  Device& device = this->device();
  const cublasHandle_t h = device.blas();
  const bool f32 = op().dtype == DType::Float32;
  if (op().kind == LibraryOp::Kind::Gemm) {
    if (f32)
      return gemm<float>(cublas().cublasSgemmStridedBatched, "cublasSgemmStridedBatched", h, op(),
                         args, device);
    return gemm<double>(cublas().cublasDgemmStridedBatched, "cublasDgemmStridedBatched", h, op(),
                        args, device);
  }
  if (f32) return gemv<float>(cublas().cublasSgemv, "cublasSgemv", h, op(), args, device);
  gemv<double>(cublas().cublasDgemv, "cublasDgemv", h, op(), args, device);
}

}  // namespace switchyard::cuda

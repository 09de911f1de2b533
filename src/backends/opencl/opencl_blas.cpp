#include "backends/opencl/opencl_blas.hpp"

#include <clblast.h>

#include <mutex>

#include "backends/opencl/opencl_driver.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {
namespace {

using clblast::StatusCode;

// CLBlast's own status names; its codes above -1000 are OpenCL's.
std::string status_name(StatusCode s) {
  switch (s) {
#define SY_CLBLAST_STATUS(name) \
  case StatusCode::name:        \
    return "CLBlast " #name;
    SY_CLBLAST_STATUS(kNotImplemented)
    SY_CLBLAST_STATUS(kInvalidMatrixA)
    SY_CLBLAST_STATUS(kInvalidMatrixB)
    SY_CLBLAST_STATUS(kInvalidMatrixC)
    SY_CLBLAST_STATUS(kInvalidVectorX)
    SY_CLBLAST_STATUS(kInvalidVectorY)
    SY_CLBLAST_STATUS(kInvalidDimension)
    SY_CLBLAST_STATUS(kInvalidLeadDimA)
    SY_CLBLAST_STATUS(kInvalidLeadDimB)
    SY_CLBLAST_STATUS(kInvalidLeadDimC)
    SY_CLBLAST_STATUS(kInsufficientMemoryA)
    SY_CLBLAST_STATUS(kInsufficientMemoryB)
    SY_CLBLAST_STATUS(kInsufficientMemoryC)
    SY_CLBLAST_STATUS(kInsufficientMemoryX)
    SY_CLBLAST_STATUS(kInsufficientMemoryY)
    SY_CLBLAST_STATUS(kInvalidLocalMemUsage)
    SY_CLBLAST_STATUS(kNoDoublePrecision)
    SY_CLBLAST_STATUS(kDatabaseError)
    SY_CLBLAST_STATUS(kUnknownError)
    SY_CLBLAST_STATUS(kUnexpectedError)
#undef SY_CLBLAST_STATUS
    default:
      break;
  }
  return error_name(static_cast<cl_int>(s));
}

void check_status(StatusCode s, std::string_view what, const DeviceInfo& info) {
  if (s == StatusCode::kSuccess) return;
  const std::string name = status_name(s);
  const std::string where = std::string(what) + " on " + info.id() + " (" + info.name + ")";
  if (s == StatusCode::kTempBufferAllocFailure || s == StatusCode::kOpenCLOutOfHostMemory)
    throw OutOfMemory(name + ": no memory for " + where + ": free arrays or use smaller matrices");
  throw DeviceError(name + " in " + where);
}

cl_mem mem(const Operand& o) {
  return static_cast<cl_mem>(o.memory.handle);
}

clblast::Transpose transpose(bool t) {
  return t ? clblast::Transpose::kYes : clblast::Transpose::kNo;
}

// C = 0 (rows × columns, leading dimension ld). CLBlast computes beta·C even for beta = 0, so
// NaN left in recycled memory would survive into the product; and an empty k gives zeros.
template <class T>
void fill_zero(Driver& d, const Operand& c, std::int64_t rows, std::int64_t columns,
               std::int64_t ld) {
  const T zero{};
  const bool packed = ld == columns;  // one fill instead of one per row
  for (std::int64_t r = 0; r < (packed ? 1 : rows); ++r)
    check(
        clEnqueueFillBuffer(d.queue(), mem(c), &zero, sizeof zero, (c.offset + r * ld) * sizeof(T),
                            (packed ? rows : 1) * columns * sizeof(T), 0, nullptr, nullptr),
        "clearing a product's output", d.info());
}

// C's batch is packed (stride_c == m·ldc), so one fill clears every product.
template <class T>
void gemm(Driver& d, const LibraryOp& op, const LibraryArgs& x) {
  if (x.m == 0 || x.n == 0 || x.batch == 0) return;
  fill_zero<T>(d, x.c, x.batch * x.m, x.n, x.ldc);
  if (x.k == 0) return;
  cl_command_queue q = d.queue();
  const auto ta = transpose(op.transpose_a), tb = transpose(op.transpose_b);
  if (x.batch == 1)
    return check_status(clblast::Gemm<T>(clblast::Layout::kRowMajor, ta, tb, x.m, x.n, x.k, T{1},
                                         mem(x.a), x.a.offset, x.lda, mem(x.b), x.b.offset, x.ldb,
                                         T{0}, mem(x.c), x.c.offset, x.ldc, &q),
                        "gemm", d.info());
  check_status(clblast::GemmStridedBatched<T>(clblast::Layout::kRowMajor, ta, tb, x.m, x.n, x.k,
                                              T{1}, mem(x.a), x.a.offset, x.lda, x.stride_a,
                                              mem(x.b), x.b.offset, x.ldb, x.stride_b, T{0},
                                              mem(x.c), x.c.offset, x.ldc, x.stride_c, x.batch, &q),
               "batched gemm", d.info());
}

template <class T>
void gemv(Driver& d, const LibraryOp& op, const LibraryArgs& x) {
  if (x.m == 0) return;
  fill_zero<T>(d, x.c, 1, x.m, x.m);
  if (x.n == 0) return;
  // CLBlast takes the stored matrix's shape: n × m when y = Aᵀx.
  const std::int64_t rows = op.transpose_a ? x.n : x.m, columns = op.transpose_a ? x.m : x.n;
  cl_command_queue q = d.queue();
  check_status(clblast::Gemv<T>(clblast::Layout::kRowMajor, transpose(op.transpose_a), rows,
                                columns, T{1}, mem(x.a), x.a.offset, x.lda, mem(x.b), x.b.offset, 1,
                                T{0}, mem(x.c), x.c.offset, 1, &q),
               "gemv", d.info());
}

}  // namespace

BlasRoutine::BlasRoutine(Driver& driver, switchyard::Device& device, const LibraryOp& op)
    : LibraryRoutine(device, op), driver_(driver) {
  const char* what = op.kind == LibraryOp::Kind::Gemm ? "gemm" : "gemv";
  if (!is_floating(op.dtype))
    throw DTypeError(std::string("opencl backend: ") + what + " of " + std::string(name(op.dtype)) +
                     " is not supported: expected float32 or float64 (cast the operands)");
  if (op.dtype == DType::Float64 && !device.info().fp64)
    throw DTypeError(std::string("opencl backend: ") + what + " of float64 on " +
                     device.info().id() + " (" + device.info().name +
                     "), which has no double precision: expected float32 here");
}

void BlasRoutine::launch(const LibraryArgs& args) {
  // CLBlast 1.5 (Debian 12) builds its tuning database without a lock: two threads launching
  // their first gemm at once free each other's entries (ASan heap-use-after-free inside
  // clblast::Database, from tests/stress_test.cpp). Its calls only enqueue once compiled.
  static std::mutex clblast_calls;
  const std::lock_guard lock(clblast_calls);
  const bool f32 = op().dtype == DType::Float32;
  if (op().kind == LibraryOp::Kind::Gemm)
    return f32 ? gemm<float>(driver_, op(), args) : gemm<double>(driver_, op(), args);
  f32 ? gemv<float>(driver_, op(), args) : gemv<double>(driver_, op(), args);
}

}  // namespace switchyard::opencl

#include "backends/cuda/cuda_fft.hpp"

#include <limits>
#include <string>

#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

// cufftPlanMany takes int sizes.
int fft_int(std::int64_t v, const char* what, const Driver& gpu) {
  if (v < 0 || v > std::numeric_limits<int>::max())
    throw ValueError(std::string("cuFFT on ") + gpu.where() + ": " + what + " = " +
                     std::to_string(v) + ", expected 0 to 2^31 - 1");
  return static_cast<int>(v);
}

cufftType type_of(const LibraryOp& op) {
  const bool f32 = op.dtype == DType::Float32;
  switch (op.fft) {
    case LibraryOp::FftKind::ComplexToComplex:
      return f32 ? CUFFT_C2C : CUFFT_Z2Z;
    case LibraryOp::FftKind::RealToComplex:
      return f32 ? CUFFT_R2C : CUFFT_D2Z;
    case LibraryOp::FftKind::ComplexToReal:
      break;
  }
  return f32 ? CUFFT_C2R : CUFFT_Z2D;
}

void* pointer(const Operand& operand) {
  return reinterpret_cast<void*>(address(operand.memory, operand.offset * size_of(operand.dtype)));
}

// Runs the plan from `in` to `out`, both of the op's types.
cufftResult execute(const LibraryOp& op, cufftHandle plan, void* in, void* out) {
  const int direction = op.inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  const bool f32 = op.dtype == DType::Float32;
  switch (op.fft) {
    case LibraryOp::FftKind::ComplexToComplex:
      return f32 ? cufft().cufftExecC2C(plan, static_cast<cufftComplex*>(in),
                                        static_cast<cufftComplex*>(out), direction)
                 : cufft().cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(in),
                                        static_cast<cufftDoubleComplex*>(out), direction);
    case LibraryOp::FftKind::RealToComplex:
      return f32 ? cufft().cufftExecR2C(plan, static_cast<cufftReal*>(in),
                                        static_cast<cufftComplex*>(out))
                 : cufft().cufftExecD2Z(plan, static_cast<cufftDoubleReal*>(in),
                                        static_cast<cufftDoubleComplex*>(out));
    case LibraryOp::FftKind::ComplexToReal:
      break;
  }
  return f32 ? cufft().cufftExecC2R(plan, static_cast<cufftComplex*>(in),
                                    static_cast<cufftReal*>(out))
             : cufft().cufftExecZ2D(plan, static_cast<cufftDoubleComplex*>(in),
                                    static_cast<cufftDoubleReal*>(out));
}

}  // namespace

FftRoutine::FftRoutine(Driver& gpu, switchyard::Device& device, const LibraryOp& op)
    : LibraryRoutine(device, op), gpu_(gpu) {
  if (!is_floating(op.dtype))
    throw DTypeError("cuFFT on " + gpu.where() + " given " + std::string(name(op.dtype)) +
                     " parts: expected float32 or float64");
  if (!cufft_library().available())
    throw DeviceError("cuFFT on " + gpu.where() + ": " + cufft_library().unavailable_reason);
}

// The results are ignored: at process exit the driver may already be shutting down.
FftRoutine::~FftRoutine() {
  for (const auto& [key, plan] : plans_) cufft().cufftDestroy(plan);
}

cufftHandle FftRoutine::plan_for(const PlanKey& key) const {
  const Driver& gpu = gpu_;
  const std::lock_guard lock(plans_mutex_);
  if (const auto found = plans_.find(key); found != plans_.end()) return found->second;
  const auto [rows, m, n] = key;
  int dims[2] = {fft_int(m, "m", gpu), fft_int(n, "n", gpu)};
  int* shape = op().rank == 2 ? dims : dims + 1;
  const int real_points = fft_int(m * n, "m·n", gpu);
  const int half_points = fft_int(m * (n / 2 + 1), "m·(n/2 + 1)", gpu);
  const bool c2r = op().fft == LibraryOp::FftKind::ComplexToReal;
  const bool r2c = op().fft == LibraryOp::FftKind::RealToComplex;
  const int in_distance = c2r ? half_points : real_points;
  const int out_distance = r2c ? half_points : real_points;
  cufftHandle plan = 0;
  check(cufft().cufftPlanMany(&plan, op().rank, shape, nullptr, 1, in_distance, nullptr, 1,
                              out_distance, type_of(op()), fft_int(rows, "rows", gpu)),
        "cufftPlanMany", gpu.where());
  if (const cufftResult r = cufft().cufftSetStream(plan, gpu.stream()); r != CUFFT_SUCCESS) {
    cufft().cufftDestroy(plan);
    check(r, "cufftSetStream", gpu.where());
  }
  plans_.emplace(key, plan);
  return plan;
}

void FftRoutine::launch(const LibraryArgs& args) {
  if (args.rows == 0) return;
  switchyard::Device& device = this->device();
  const Driver& gpu = gpu_;
  const ContextScope scope(*gpu.context());
  const cufftHandle plan = plan_for({args.rows, args.m, args.n});
  void* in = pointer(args.a);
  // cuFFT's C2R overwrites its input: it runs on a copy, in stream order.
  DeviceMemory scratch;
  if (op().fft == LibraryOp::FftKind::ComplexToReal) {
    const std::size_t bytes =
        static_cast<std::size_t>(args.rows * args.m * (args.n / 2 + 1)) * 2 * size_of(op().dtype);
    scratch = device.allocate(bytes);
    check(driver().cuMemcpyDtoDAsync(address(scratch), reinterpret_cast<CUdeviceptr>(in), bytes,
                                     gpu.stream()),
          "cuMemcpyDtoDAsync", gpu.where());
    in = scratch.handle;
  }
  const cufftResult result = execute(op(), plan, in, pointer(args.c));
  device.free(scratch);  // the pool hands it out again only to work later on this stream
  check(result, "cufftExec", gpu.where());
}

}  // namespace switchyard::cuda

// The one translation unit that includes VkFFT (a 32k-line header), with its OpenCL backend.
#include "backends/opencl/opencl_fft.hpp"

#include "backends/opencl/opencl_api.hpp"
#include "backends/opencl/opencl_fft_limits.hpp"
// VkFFT reads the device's limits through the capped query (opencl_fft_limits.hpp says why).
#define clGetDeviceInfo switchyard::opencl::limited_device_info
#define VKFFT_BACKEND 3
#include <vkFFT.h>
#undef clGetDeviceInfo

#include <string>

#include "backends/opencl/opencl_driver.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "backends/opencl/opencl_fft_real.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {

using FftKind = LibraryOp::FftKind;

// VkFFT keeps pointers to the handles and sizes it was configured with: they live beside it.
struct FftRoutine::Plan {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  std::uint64_t buffer_bytes = 0, real_bytes = 0;
  // A real transform VkFFT cannot plan, run as a complex one (opencl_fft_real.hpp).
  bool through_complex = false;
  VkFFTResult result = VKFFT_SUCCESS;  // of planning
  VkFFTApplication app{};
  ~Plan() { deleteVkFFT(&app); }
};

namespace {

void check_vkfft(VkFFTResult result, std::string_view what, const DeviceInfo& info) {
  if (result == VKFFT_SUCCESS) return;
  const std::string message = "VkFFT error " + std::to_string(static_cast<int>(result)) + " in " +
                              std::string(what) + " on " + info.id() + " (" + info.name + ")";
  if (result == VKFFT_ERROR_MALLOC_FAILED || result == VKFFT_ERROR_FAILED_TO_ALLOCATE)
    throw OutOfMemory(message + ": free arrays or transform fewer rows at once");
  throw DeviceError(message);
}

cl_mem mem(const Operand& o) {
  return static_cast<cl_mem>(o.memory.handle);
}

std::size_t byte_offset(const Operand& o) {
  return static_cast<std::size_t>(o.offset) * size_of(o.dtype);
}

// C2R is an inverse transform whatever `inverse` says; R2C a forward one.
bool runs_inverse(const LibraryOp& op) {
  if (op.fft == FftKind::ComplexToComplex) return op.inverse;
  return op.fft == FftKind::ComplexToReal;
}

}  // namespace

FftRoutine::FftRoutine(Driver& driver, switchyard::Device& device, const LibraryOp& op)
    : LibraryRoutine(device, op), driver_(driver) {
  if (!is_floating(op.dtype))
    throw DTypeError("opencl backend: fft of " + std::string(name(op.dtype)) +
                     " parts is not supported: expected float32 or float64");
  if (op.dtype == DType::Float64 && !device.info().fp64)
    throw DTypeError("opencl backend: fft of float64 on " + device.info().id() + " (" +
                     device.info().name + "), which has no double precision: expected float32");
}

FftRoutine::~FftRoutine() = default;

FftRoutine::Plan& FftRoutine::plan_for(const PlanKey& key) {
  if (const auto found = plans_.find(key); found != plans_.end()) return *found->second;
  std::unique_ptr<Plan> plan = make_plan(key, op().fft);
  if (plan->result == VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C) {
    plan = make_plan(key, FftKind::ComplexToComplex);
    plan->through_complex = true;
    if (!real_kernels_)
      real_kernels_ = std::make_unique<RealComplexKernels>(driver_, device().info(), op().dtype);
  }
  check_vkfft(plan->result, "planning an fft", device().info());
  return *plans_.emplace(key, std::move(plan)).first->second;
}

std::unique_ptr<FftRoutine::Plan> FftRoutine::make_plan(const PlanKey& key, FftKind kind) const {
  const auto [rows, m, n] = key;
  auto plan = std::make_unique<Plan>();
  plan->device = driver_.id(), plan->context = driver_.context(), plan->queue = driver_.queue();
  const std::uint64_t real = size_of(op().dtype), half_columns = n / 2 + 1;
  const bool r2c = kind != FftKind::ComplexToComplex;
  plan->buffer_bytes = rows * m * (r2c ? half_columns : n) * 2 * real;
  plan->real_bytes = rows * m * n * real;

  VkFFTConfiguration config{};
  config.FFTdim = op().rank;
  config.size[0] = n;  // VkFFT's first axis is the fastest varying
  config.size[1] = m;
  config.numberBatches = rows;
  config.device = &plan->device;
  config.context = &plan->context;
  config.commandQueue = &plan->queue;
  config.doublePrecision = op().dtype == DType::Float64;
  config.bufferSize = &plan->buffer_bytes;
  config.normalize = 0;  // unnormalised both ways: the caller scales
  (runs_inverse(op()) ? config.makeInversePlanOnly : config.makeForwardPlanOnly) = 1;
  // Real data is unpadded: R2C reads it from an input buffer, C2R writes it to an output one.
  if (kind == FftKind::RealToComplex) {
    config.performR2C = 1;
    config.isInputFormatted = 1;
    config.inputBufferSize = &plan->real_bytes;
    config.inputBufferStride[0] = n;
  } else if (kind == FftKind::ComplexToReal) {
    config.performR2C = 1;
    config.isOutputFormatted = 1;
    config.outputBufferSize = &plan->real_bytes;
    config.outputBufferStride[0] = n;
  }
  const PlanLimits limits = plan_limits(device().info());
  const PlanLimitsScope scope(limits);
  plan->result = initializeVkFFT(&plan->app, config);
  return plan;
}

void FftRoutine::launch(const LibraryArgs& args) {
  if (args.rows == 0) return;
  const std::lock_guard lock(mutex_);
  Plan& plan = plan_for({args.rows, args.m, args.n});
  if (plan.through_complex)
    launch_through_complex(plan, args);
  else
    launch_direct(plan, args);
}

void FftRoutine::launch_direct(Plan& plan, const LibraryArgs& args) {
  cl_command_queue queue = driver_.queue();
  cl_mem a = mem(args.a), c = mem(args.c);
  VkFFTLaunchParams params{};
  params.commandQueue = &queue;
  // VkFFT works in `buffer` and may leave intermediate passes there: the input goes through a
  // copy unless it is only read (R2C from its own input buffer, starting at its first byte).
  DeviceMemory scratch;
  cl_mem work = c;
  switch (op().fft) {
    case FftKind::ComplexToComplex:
      check(clEnqueueCopyBuffer(queue, a, c, byte_offset(args.a), byte_offset(args.c),
                                plan.buffer_bytes, 0, nullptr, nullptr),
            "copying an fft's input", device().info());
      break;
    case FftKind::RealToComplex:
      if (args.a.offset != 0) {
        scratch = device().allocate(plan.real_bytes);
        cl_mem copy = static_cast<cl_mem>(scratch.handle);
        check(clEnqueueCopyBuffer(queue, a, copy, byte_offset(args.a), 0, plan.real_bytes, 0,
                                  nullptr, nullptr),
              "copying an fft's input", device().info());
        a = copy;
      }
      params.inputBuffer = &a;
      break;
    case FftKind::ComplexToReal:
      scratch = device().allocate(plan.buffer_bytes);
      work = static_cast<cl_mem>(scratch.handle);
      check(clEnqueueCopyBuffer(queue, a, work, byte_offset(args.a), 0, plan.buffer_bytes, 0,
                                nullptr, nullptr),
            "copying an fft's input", device().info());
      params.outputBuffer = &c;
      break;
  }
  params.buffer = &work;
  const VkFFTResult result = VkFFTAppend(&plan.app, runs_inverse(op()) ? 1 : -1, &params);
  // The queue is in order: the scratch may be reused by the next command enqueued after this.
  if (scratch) device().free(scratch);
  check_vkfft(result, "launching an fft", device().info());
}

// R2C: widen the real rows to complex, transform, keep each row's first n/2 + 1 values. C2R:
// extend each half spectrum to the whole one, transform back, keep the real parts.
void FftRoutine::launch_through_complex(Plan& plan, const LibraryArgs& args) {
  const std::int64_t planes = args.rows, points = args.rows * args.m * args.n;
  const DeviceMemory scratch = device().allocate(plan.buffer_bytes);
  cl_mem work = static_cast<cl_mem>(scratch.handle);
  cl_command_queue queue = driver_.queue();
  if (op().fft == FftKind::RealToComplex)
    real_kernels_->widen(args.a.memory, args.a.offset, scratch, points);
  else
    real_kernels_->hermitian_extend(args.a.memory, args.a.offset, scratch, planes, args.m, args.n);
  VkFFTLaunchParams params{};
  params.commandQueue = &queue;
  params.buffer = &work;
  const VkFFTResult result = VkFFTAppend(&plan.app, runs_inverse(op()) ? 1 : -1, &params);
  if (result == VKFFT_SUCCESS) {
    if (op().fft == FftKind::RealToComplex) {
      const std::size_t complex_bytes = 2 * size_of(op().dtype);
      const std::size_t origin[3] = {0, 0, 0};
      const std::size_t region[3] = {static_cast<std::size_t>(args.n / 2 + 1) * complex_bytes,
                                     static_cast<std::size_t>(planes * args.m), 1};
      check(clEnqueueCopyBufferRect(queue, work, mem(args.c), origin, origin, region,
                                    args.n * complex_bytes, 0, region[0], 0, 0, nullptr, nullptr),
            "keeping an fft's half spectrum", device().info());
    } else {
      real_kernels_->real_parts(scratch, args.c.memory, points);
    }
  }
  device().free(scratch);
  check_vkfft(result, "launching an fft", device().info());
}

}  // namespace switchyard::opencl

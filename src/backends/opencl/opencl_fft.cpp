// The one translation unit that includes VkFFT (a 32k-line header), with its OpenCL backend.
#include "backends/opencl/opencl_fft.hpp"

#include "backends/opencl/opencl_api.hpp"
#define VKFFT_BACKEND 3
#include <vkFFT.h>

#include <string>

#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {

// VkFFT keeps pointers to the handles and sizes it was configured with: they live beside it.
struct FftCall::Plan {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  std::uint64_t buffer_bytes = 0, real_bytes = 0;
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
  if (op.fft == LibraryOp::FftKind::ComplexToComplex) return op.inverse;
  return op.fft == LibraryOp::FftKind::ComplexToReal;
}

}  // namespace

FftCall::FftCall(Device& device, const LibraryOp& op) : device_(device), op_(op) {
  if (!is_floating(op.dtype))
    throw DTypeError("opencl backend: fft of " + std::string(name(op.dtype)) +
                     " parts is not supported: expected float32 or float64");
  if (op.dtype == DType::Float64 && !device.info().fp64)
    throw DTypeError("opencl backend: fft of float64 on " + device.info().id() + " (" +
                     device.info().name + "), which has no double precision: expected float32");
}

FftCall::~FftCall() = default;

FftCall::Plan& FftCall::plan_for(const PlanKey& key) {
  if (const auto found = plans_.find(key); found != plans_.end()) return *found->second;
  const auto [rows, m, n] = key;
  auto plan = std::make_unique<Plan>();
  plan->device = device_.id(), plan->context = device_.context(), plan->queue = device_.queue();
  const std::uint64_t real = size_of(op_.dtype), half_columns = n / 2 + 1;
  const bool r2c = op_.fft != LibraryOp::FftKind::ComplexToComplex;
  plan->buffer_bytes = rows * m * (r2c ? half_columns : n) * 2 * real;
  plan->real_bytes = rows * m * n * real;

  VkFFTConfiguration config{};
  config.FFTdim = op_.rank;
  config.size[0] = n;  // VkFFT's first axis is the fastest varying
  config.size[1] = m;
  config.numberBatches = rows;
  config.device = &plan->device;
  config.context = &plan->context;
  config.commandQueue = &plan->queue;
  config.doublePrecision = op_.dtype == DType::Float64;
  config.bufferSize = &plan->buffer_bytes;
  config.normalize = 0;  // unnormalised both ways: the caller scales
  (runs_inverse(op_) ? config.makeInversePlanOnly : config.makeForwardPlanOnly) = 1;
  // Real data is unpadded: R2C reads it from an input buffer, C2R writes it to an output one.
  if (op_.fft == LibraryOp::FftKind::RealToComplex) {
    config.performR2C = 1;
    config.isInputFormatted = 1;
    config.inputBufferSize = &plan->real_bytes;
    config.inputBufferStride[0] = n;
  } else if (op_.fft == LibraryOp::FftKind::ComplexToReal) {
    config.performR2C = 1;
    config.isOutputFormatted = 1;
    config.outputBufferSize = &plan->real_bytes;
    config.outputBufferStride[0] = n;
  }
  check_vkfft(initializeVkFFT(&plan->app, config), "planning an fft", device_.info());
  return *plans_.emplace(key, std::move(plan)).first->second;
}

void FftCall::launch(const LibraryArgs& args) {
  if (args.rows == 0) return;
  const std::lock_guard lock(mutex_);
  Plan& plan = plan_for({args.rows, args.m, args.n});
  cl_command_queue queue = device_.queue();
  cl_mem a = mem(args.a), c = mem(args.c);
  VkFFTLaunchParams params{};
  params.commandQueue = &queue;
  // VkFFT works in `buffer` and may leave intermediate passes there: the input goes through a
  // copy unless it is only read (R2C from its own input buffer, starting at its first byte).
  DeviceMemory scratch;
  cl_mem work = c;
  switch (op_.fft) {
    case LibraryOp::FftKind::ComplexToComplex:
      check(clEnqueueCopyBuffer(queue, a, c, byte_offset(args.a), byte_offset(args.c),
                                plan.buffer_bytes, 0, nullptr, nullptr),
            "copying an fft's input", device_.info());
      break;
    case LibraryOp::FftKind::RealToComplex:
      if (args.a.offset != 0) {
        scratch = device_.scratch(plan.real_bytes);
        cl_mem copy = static_cast<cl_mem>(scratch.handle);
        check(clEnqueueCopyBuffer(queue, a, copy, byte_offset(args.a), 0, plan.real_bytes, 0,
                                  nullptr, nullptr),
              "copying an fft's input", device_.info());
        a = copy;
      }
      params.inputBuffer = &a;
      break;
    case LibraryOp::FftKind::ComplexToReal:
      scratch = device_.scratch(plan.buffer_bytes);
      work = static_cast<cl_mem>(scratch.handle);
      check(clEnqueueCopyBuffer(queue, a, work, byte_offset(args.a), 0, plan.buffer_bytes, 0,
                                nullptr, nullptr),
            "copying an fft's input", device_.info());
      params.outputBuffer = &c;
      break;
  }
  params.buffer = &work;
  const VkFFTResult result = VkFFTAppend(&plan.app, runs_inverse(op_) ? 1 : -1, &params);
  // The queue is in order: the scratch may be reused by the next command enqueued after this.
  if (scratch) device_.release_scratch(scratch);
  check_vkfft(result, "launching an fft", device_.info());
}

}  // namespace switchyard::opencl

#include "backends/vkfft_routine.hpp"

#include <vector>

#include "backends/fft_real_kernels.hpp"
#include "backends/scratch.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

std::size_t byte_offset(const Operand& o) {
  return static_cast<std::size_t>(o.offset) * size_of(o.dtype);
}

}  // namespace

VkfftRoutine::VkfftRoutine(Driver& driver, Device& device, const LibraryOp& op)
    : LibraryRoutine(device, op), driver_(driver) {
  const DeviceInfo& info = device.info();
  if (!is_floating(op.dtype))
    throw DTypeError(info.backend + " backend: fft of " + std::string(name(op.dtype)) +
                     " parts is not supported: expected float32 or float64");
  if (op.dtype == DType::Float64 && !info.fp64)
    throw DTypeError(info.backend + " backend: fft of float64 on " + info.id() + " (" + info.name +
                     "), which has no double precision: expected float32");
}

VkfftRoutine::~VkfftRoutine() = default;

bool VkfftRoutine::runs_inverse() const {
  if (op().fft == FftKind::ComplexToComplex) return op().inverse;
  return op().fft == FftKind::ComplexToReal;
}

void VkfftRoutine::launch(const LibraryArgs& args) {
  if (args.rows == 0) return;
  const std::lock_guard lock(mutex_);
  Plan& plan = plan_for({args.rows, args.m, args.n});
  if (plan.through_complex)
    launch_through_complex(plan, args);
  else
    launch_direct(plan, args);
}

VkfftRoutine::Plan& VkfftRoutine::plan_for(const Shape& shape) {
  if (const auto found = plans_.find(shape); found != plans_.end()) return *found->second;
  std::unique_ptr<Plan> plan = make_plan(shape, op().fft);
  if (!plan) {
    plan = make_plan(shape, FftKind::ComplexToComplex);
    if (!plan)
      throw DeviceError("VkFFT planned no complex fft of " + std::to_string(shape.n) +
                        " points on " + device().info().id());
    plan->through_complex = true;
    if (!real_kernels_)
      real_kernels_ = std::make_unique<RealComplexKernels>(driver_, device().info(), op().dtype);
  }
  return *plans_.emplace(shape, std::move(plan)).first->second;
}

void VkfftRoutine::launch_direct(Plan& plan, const LibraryArgs& args) {
  // VkFFT works in `buffer` and may leave intermediate passes there: the input goes through a
  // copy unless it is only read (R2C from its own input buffer, starting at its first byte).
  std::vector<std::size_t> scratch_bytes;
  if (op().fft == FftKind::RealToComplex && args.a.offset != 0)
    scratch_bytes.push_back(plan.real_bytes);
  if (op().fft == FftKind::ComplexToReal) scratch_bytes.push_back(plan.buffer_bytes);
  // The device runs its work in order: the scratch may go to work queued after this.
  const Scratch scratch(device(), scratch_bytes);
  Buffers buffers{.buffer = args.c.memory, .input = {}, .output = {}};
  switch (op().fft) {
    case FftKind::ComplexToComplex:
      copy(args.c.memory, byte_offset(args.c), args.a.memory, byte_offset(args.a),
           plan.buffer_bytes);
      break;
    case FftKind::RealToComplex:
      buffers.input = args.a.memory;
      if (!scratch.memory().empty()) {
        buffers.input = scratch.memory()[0];
        copy(buffers.input, 0, args.a.memory, byte_offset(args.a), plan.real_bytes);
      }
      break;
    case FftKind::ComplexToReal:
      buffers.buffer = scratch.memory()[0];
      buffers.output = args.c.memory;
      copy(buffers.buffer, 0, args.a.memory, byte_offset(args.a), plan.buffer_bytes);
      break;
  }
  append(plan, buffers);
}

// R2C: widen the real rows to complex, transform, keep each row's first n/2 + 1 values. C2R:
// extend each half spectrum to the whole one, transform back, keep the real parts.
void VkfftRoutine::launch_through_complex(Plan& plan, const LibraryArgs& args) {
  const std::int64_t planes = args.rows, points = args.rows * args.m * args.n;
  const std::size_t bytes[] = {plan.buffer_bytes};
  const Scratch scratch(device(), bytes);
  const DeviceMemory work = scratch.memory()[0];
  if (op().fft == FftKind::RealToComplex)
    real_kernels_->widen(args.a.memory, args.a.offset, work, points);
  else
    real_kernels_->hermitian_extend(args.a.memory, args.a.offset, work, planes, args.m, args.n);
  append(plan, {.buffer = work, .input = {}, .output = {}});
  if (op().fft == FftKind::RealToComplex) {
    const std::size_t complex_bytes = 2 * size_of(op().dtype);
    copy_rows(args.c.memory, work, static_cast<std::size_t>(planes * args.m),
              static_cast<std::size_t>(args.n / 2 + 1) * complex_bytes, args.n * complex_bytes);
  } else {
    real_kernels_->real_parts(work, args.c.memory, points);
  }
}

void throw_vkfft_error(int result, bool out_of_memory, std::string_view what,
                       const DeviceInfo& info) {
  const std::string message = "VkFFT error " + std::to_string(result) + " in " + std::string(what) +
                              " on " + info.id() + " (" + info.name + ")";
  if (out_of_memory) throw OutOfMemory(message + ": free arrays or transform fewer rows at once");
  throw DeviceError(message);
}

}  // namespace switchyard

// FFTs through VkFFT (backend.hpp's Fft contract), float32 and, where the device has it,
// float64, of every length, on any backend VkFFT has a path for: what to copy where, which plan
// serves a shape and the real transforms VkFFT cannot plan live here once; each backend's one
// translation unit that includes vkFFT.h makes and appends the applications.
//
// One VkFFT application per (rows, shape), made on first use and kept.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "backends/driver.hpp"
#include "backends/library_routine.hpp"

namespace switchyard {

class RealComplexKernels;

class VkfftRoutine : public LibraryRoutine<Device> {
 public:
  // Queues the transform; returns before it runs. The input is never written; scratch memory
  // comes from device()'s pool.
  void launch(const LibraryArgs& args) final;

  // A VkFFT application, the backend's own, with the sizes it was made for.
  struct Plan {
    virtual ~Plan() = default;
    std::uint64_t buffer_bytes = 0;  // the complex buffer VkFFT works in
    std::uint64_t real_bytes = 0;    // the real side of a real transform
    // A real transform VkFFT cannot plan, run as a complex one (fft_real_kernels.hpp).
    bool through_complex = false;
  };

 protected:
  using FftKind = LibraryOp::FftKind;
  // Throws DTypeError for parts other than float32/float64, or float64 without device fp64.
  VkfftRoutine(Driver& driver, Device& device, const LibraryOp& op);
  ~VkfftRoutine() override;

  // `rows` transforms of m × n (m = 1 for rank 1).
  struct Shape {
    std::int64_t rows, m, n;
    auto operator<=>(const Shape&) const = default;
  };
  // What one append reads and writes: VkFFT works in `buffer`; R2C reads `input`, C2R writes
  // `output` (empty for the others).
  struct Buffers {
    DeviceMemory buffer, input, output;
  };

  // C2R is an inverse transform whatever `inverse` says; R2C a forward one.
  bool runs_inverse() const;

 private:
  // ---- what each backend does with its own VkFFT path
  // A plan for `shape` as a `kind` transform (op()'s own, or ComplexToComplex); null where VkFFT
  // plans no real transform of that length. Throws DeviceError or OutOfMemory otherwise.
  virtual std::unique_ptr<Plan> make_plan(const Shape& shape, FftKind kind) = 0;
  // Queues `plan`'s transform in op()'s direction, after the work queued before it.
  virtual void append(Plan& plan, const Buffers& buffers) = 0;
  // Queues a copy of `bytes` bytes.
  virtual void copy(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                    std::size_t src_offset, std::size_t bytes) = 0;
  // Queues a copy of `rows` rows of `row_bytes` from src, `src_pitch` bytes apart, to dst's
  // first bytes, packed.
  virtual void copy_rows(DeviceMemory dst, DeviceMemory src, std::size_t rows,
                         std::size_t row_bytes, std::size_t src_pitch) = 0;

  // The plan for `shape`, made on first use: VkFFT's own for op(), or a complex one where VkFFT
  // plans no real transform of that length.
  Plan& plan_for(const Shape& shape);
  void launch_direct(Plan& plan, const LibraryArgs& args);
  void launch_through_complex(Plan& plan, const LibraryArgs& args);

  Driver& driver_;
  // Guards plans_ and the appends: appending updates its application's launch state.
  std::mutex mutex_;
  std::map<Shape, std::unique_ptr<Plan>> plans_;
  std::unique_ptr<RealComplexKernels> real_kernels_;  // made with the first plan that needs it
};

// ---- for the translation units that include vkFFT.h (its types differ by backend)

// A backend's routine, over the backend's own driver.
template <class BackendDriver>
class VkfftRoutineOver : public VkfftRoutine {
 public:
  VkfftRoutineOver(BackendDriver& driver, Device& device, const LibraryOp& op)
      : VkfftRoutine(driver, device, op), driver_(driver) {}

 protected:
  BackendDriver& driver_;
};

// Fills the fields of a VkFFTConfiguration that every backend sets alike for `op` as a `kind`
// transform of `rows` m × n planes in the `inverse` direction, and the plan's sizes, to which the
// configuration points.
template <class Configuration>
void describe_transform(Configuration& config, const LibraryOp& op, LibraryOp::FftKind kind,
                        std::int64_t rows, std::int64_t m, std::int64_t n, bool inverse,
                        std::uint64_t& buffer_bytes, std::uint64_t& real_bytes) {
  const std::uint64_t real = size_of(op.dtype), half_columns = n / 2 + 1;
  const bool r2c = kind != LibraryOp::FftKind::ComplexToComplex;
  buffer_bytes = rows * m * (r2c ? half_columns : n) * 2 * real;
  real_bytes = rows * m * n * real;
  config.FFTdim = op.rank;
  config.size[0] = n;  // VkFFT's first axis is the fastest varying
  config.size[1] = m;
  config.numberBatches = rows;
  config.doublePrecision = op.dtype == DType::Float64;
  config.bufferSize = &buffer_bytes;
  config.normalize = 0;  // unnormalised both ways: the caller scales
  (inverse ? config.makeInversePlanOnly : config.makeForwardPlanOnly) = 1;
  // Real data is unpadded: R2C reads it from an input buffer, C2R writes it to an output one.
  if (kind == LibraryOp::FftKind::RealToComplex) {
    config.performR2C = 1;
    config.isInputFormatted = 1;
    config.inputBufferSize = &real_bytes;
    config.inputBufferStride[0] = n;
  } else if (kind == LibraryOp::FftKind::ComplexToReal) {
    config.performR2C = 1;
    config.isOutputFormatted = 1;
    config.outputBufferSize = &real_bytes;
    config.outputBufferStride[0] = n;
  }
}

// Throws OutOfMemory or DeviceError for a VkFFT result (VkFFTResult) other than success.
[[noreturn]] void throw_vkfft_error(int result, bool out_of_memory, std::string_view what,
                                    const DeviceInfo& info);
template <class Result>
void check_vkfft(Result result, std::string_view what, const DeviceInfo& info) {
  if (result == Result::VKFFT_SUCCESS) return;
  throw_vkfft_error(static_cast<int>(result),
                    result == Result::VKFFT_ERROR_MALLOC_FAILED ||
                        result == Result::VKFFT_ERROR_FAILED_TO_ALLOCATE ||
                        result == Result::VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY,
                    what, info);
}

// A made application's result: null where VkFFT plans no real transform of this length (the
// caller then plans a complex one), else `plan`, or the error thrown.
template <class Result, class P>
std::unique_ptr<P> planned(std::unique_ptr<P> plan, Result result, const DeviceInfo& info) {
  if (result == Result::VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C) return nullptr;
  check_vkfft(result, "planning an fft", info);
  return plan;
}

}  // namespace switchyard

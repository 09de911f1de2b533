// The backend interface. A Backend detects its devices once; a Device allocates, copies,
// prepares executables from Kernel IR or a library op, launches and synchronizes.
//
// Non-virtual interface: each public method checks its arguments and translates nothing twice,
// then calls the private do_...() that a backend implements. Backends throw typed errors
// (OutOfMemory, DeviceError, CompileError) whose messages keep the driver's own error names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "expr/kernel_ir.hpp"
#include "switchyard/device.hpp"
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

// Library operations that are not elementwise chains.
struct LibraryOp {
  enum class Kind : std::uint8_t { Gemm, Gemv } kind;
  DType dtype;  // float32 or float64
  bool transpose_a = false, transpose_b = false;
};

// C = A·B (gemm: A is m×k, B is k×n, C is m×n) or y = A·x (gemv: A is m×n, x has n, y has m),
// all row-major with leading dimensions in elements. When transpose_a is set, A's memory holds
// the transpose (k×m row-major, leading dimension lda >= m), likewise transpose_b; C/y are
// contiguous. Operand offsets are in elements. k == 0 gives C = 0.
struct LibraryArgs {
  std::int64_t m = 0, n = 0, k = 0;
  Operand a, b, c;  // gemv: b = x, c = y
  std::int64_t lda = 0, ldb = 0, ldc = 0;
};

// A kernel or library op made ready to launch on one device.
class Executable {
 public:
  virtual ~Executable() = default;
};

class Device {
 public:
  explicit Device(DeviceInfo info) : info_(std::move(info)) {}
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return info_; }

  // Throws OutOfMemory naming the device, the size asked and the device's limit.
  DeviceMemory allocate(std::size_t bytes);
  void free(DeviceMemory memory) {
    if (memory) do_free(memory);
  }

  // Copies return when the data has arrived (the source may be reused at once).
  void copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src, std::size_t bytes);
  void copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset, std::size_t bytes);
  void copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                   std::size_t src_offset, std::size_t bytes);

  std::shared_ptr<Executable> prepare(const ir::Kernel& kernel) { return do_prepare(kernel); }
  std::shared_ptr<Executable> prepare(const LibraryOp& op) { return do_prepare_library(op); }

  // Returns memory the backend keeps pooled for reuse to the driver (before an out-of-memory
  // retry). Backends without a pool have nothing to do.
  virtual void release_cached_memory() {}

  // Launches may be asynchronous; synchronize() waits for all work on the device.
  void launch(Executable& exe, const LaunchArgs& args) { do_launch(exe, args); }
  void launch(Executable& exe, const LibraryArgs& args) { do_launch_library(exe, args); }
  void synchronize() { do_synchronize(); }

 private:
  virtual DeviceMemory do_allocate(std::size_t bytes) = 0;
  virtual void do_free(DeviceMemory memory) = 0;
  virtual void do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                                 std::size_t bytes) = 0;
  virtual void do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                               std::size_t bytes) = 0;
  virtual void do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                              std::size_t src_offset, std::size_t bytes) = 0;
  virtual std::shared_ptr<Executable> do_prepare(const ir::Kernel& kernel) = 0;
  virtual std::shared_ptr<Executable> do_prepare_library(const LibraryOp& op) = 0;
  virtual void do_launch(Executable& exe, const LaunchArgs& args) = 0;
  virtual void do_launch_library(Executable& exe, const LibraryArgs& args) = 0;
  virtual void do_synchronize() = 0;

  DeviceInfo info_;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // Empty when available; otherwise why not (no driver, no platform, ...).
  virtual std::string unavailable_reason() const = 0;
  bool available() const { return unavailable_reason().empty(); }
  virtual std::span<Device* const> devices() = 0;
};

}  // namespace switchyard

// The executor: places a kernel on a device, moves the inputs there, prepares the kernel
// (memory cache of executables, keyed by IR hash and device), launches, and returns outputs that
// stay on that device until read.
#pragma once

#include <span>

#include "backends/backend.hpp"
#include "expr/kernel_ir.hpp"
#include "switchyard/array.hpp"

namespace switchyard::runtime {

// An input of a launch, normalised: the array viewed over the launch shape, and the layout the
// IR records for it.
struct LaunchInput {
  Array array;
  ir::Layout layout;
};

// Views every array over `shape` (broadcasting) and classifies its layout. Throws ShapeError
// when an array does not broadcast to `shape`.
LaunchInput launch_input(const Array& a, const Shape& shape);

// The device this thread's work is pinned to by a DeviceScope, or nullptr.
Device* pinned_device();
void pin_device(Device* device);

// The device for work on these inputs (the scheduler refines this choice later).
Device& place(std::span<const LaunchInput> inputs);

// Runs a one-output kernel over `shape`; the output has `out_shape` (shape itself for
// elementwise kernels, shape without its last axis for LastAxis reductions, () for All).
Array run(const ir::Kernel& kernel, const Shape& shape, const Shape& out_shape,
          std::span<const LaunchInput> inputs, std::span<const ScalarValue> scalars = {});

// Runs a library op; the output array is allocated on `device` with `out_shape`.
Array run_library(Device& device, const LibraryOp& op, LibraryArgs args, const Array& a,
                  const Array& b, const Shape& out_shape);

// A contiguous copy of `a` converted to `dtype`, made on the device where `a` lives.
Array copy_contiguous(const Array& a, DType dtype);

// The prepared executable for (kernel, device), from the in-memory cache or freshly prepared.
std::shared_ptr<Executable> executable(Device& device, const ir::Kernel& kernel);

}  // namespace switchyard::runtime

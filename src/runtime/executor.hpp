// The executor: asks the scheduler where a kernel runs, moves the inputs there, prepares the
// kernel (executable cache), launches, and on a device failure moves the work to the next-ranked
// candidate. Every execution is timed into the metrics, the trace and the scheduler's history.
// Outputs stay on the device that made them until read.
#pragma once

#include <span>
#include <string>

#include "backends/backend.hpp"
#include "expr/kernel_ir.hpp"
#include "runtime/placement.hpp"
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

// The candidate this thread's work is pinned to by a DeviceScope (device null when none).
const Candidate& pinned_candidate();
void pin_candidate(const Candidate& candidate);

// Runs a one-output kernel over `shape`; the output has `out_shape` (shape itself for
// elementwise kernels, shape without its last axis for TrailingAxes reductions, () for All).
Array run(const ir::Kernel& kernel, const Shape& shape, const Shape& out_shape,
          std::span<const LaunchInput> inputs, std::span<const ScalarValue> scalars = {});

// Runs gemm/gemv with operands a and b; the output is C or y with `out_shape`.
Array run_library(const LibraryOp& op, const LibraryArgs& args, const Array& a, const Array& b,
                  const Shape& out_shape);

// A contiguous copy of `a` converted to `dtype`.
Array copy_contiguous(const Array& a, DType dtype);

// "mul,sin,add float32", "sum int64": what a kernel computes, for metrics, traces and explain.
std::string kernel_label(const ir::Kernel& kernel);

}  // namespace switchyard::runtime

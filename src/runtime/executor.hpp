// The executor: the one door from expressions into the runtime. It realises a group (one fused
// kernel over input views), asking the scheduler where it runs, moving the inputs there, preparing
// the kernel (executable cache), launching, and on a device failure moving the work to the
// next-ranked candidate. Every execution is timed into the metrics, the trace and the scheduler's
// history. Outputs stay on the device that made them until read. Nothing here knows `Array`.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "core/geometry.hpp"
#include "ir/kernel_ir.hpp"
#include "runtime/placement.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
class Buffer;
}

namespace switchyard::runtime {

// Typed, strided elements of a buffer (offset and strides in elements).
struct View {
  std::shared_ptr<Buffer> buffer;
  DType dtype = DType::Float32;
  Shape shape;
  Strides strides;
  std::int64_t offset = 0;

  Geometry geometry() const { return {shape, strides, offset}; }
  // The same storage seen through `g`.
  View through(Geometry g) const {
    return {buffer, dtype, std::move(g.shape), std::move(g.strides), g.offset};
  }
};

// How a view is laid out over its shape, as the IR records it for an input.
ir::Layout classify(const Shape& shape, const Strides& strides);

// The most inputs and outputs one kernel launch takes on every backend.
inline constexpr std::size_t kMaxKernelInputs = 16, kMaxKernelOutputs = 16;

// One kernel ready to run: its IR, its iteration space, the inputs viewed over that space
// (broadcast where they were broadcast), scalar arguments, and each output's shape (the
// iteration shape for elementwise outputs; the kept axes for reductions).
struct Group {
  // Shared and hashed once: an eager op's kernel is built once per thread and reused
  // (expr/fusion.cpp).
  std::shared_ptr<const ir::Kernel> kernel;
  std::uint64_t signature = 0;  // kernel->hash()
  Shape shape;
  std::vector<View> inputs;
  std::vector<ScalarValue> scalars;
  std::vector<Shape> output_shapes;
  // Empty, or one per output: existing C-contiguous storage the output is written into (in-place
  // updates); the rest of that buffer keeps its contents.
  std::vector<View> destinations;
};

// Runs the group's kernel on the device the scheduler chooses (with fallback) and returns its
// outputs, contiguous. Throws ValueError for a group the backends cannot launch (too many inputs).
std::vector<View> realize(const Group& group);

// Fresh memory for an output on `device` (pooled); on out-of-memory frees pooled memory and
// retries once.
std::shared_ptr<Buffer> allocate_output(Device& device, std::size_t bytes);

// While one is alive on a thread, the kernels the thread runs make the operands of a library op
// that runs next (a realised or copied gemm, FFT or sort operand): their results are read where
// that op runs, so they are not expected back on the host (Workload::result_to_host), and a
// chain of such steps can follow its data to a device.
class MakingLibraryOperands {
 public:
  MakingLibraryOperands();
  ~MakingLibraryOperands();
  MakingLibraryOperands(const MakingLibraryOperands&) = delete;
  MakingLibraryOperands& operator=(const MakingLibraryOperands&) = delete;
};

// The candidate this thread's work is pinned to by a DeviceScope (device null when none).
const Candidate& pinned_candidate();
void pin_candidate(const Candidate& candidate);

// A library op's output: fresh contiguous memory of this dtype and shape.
struct LibraryOutput {
  DType dtype;
  Shape shape;
};

// Runs a library op on the device the scheduler chooses (with fallback): `inputs` become the
// operands a and b of `args`, `outputs` c and d (backend.hpp says what each op reads and writes).
// Returns the outputs. Sizes in `args` are the caller's; operands are filled in here.
std::vector<View> run_library(const LibraryOp& op, const LibraryArgs& args,
                              std::span<const View> inputs, std::span<const LibraryOutput> outputs);

// "gemm float32", "scan sum int64", "argsort float64": what a library op computes.
std::string library_label(const LibraryOp& op);

// "mul,sin,add float32", "sum int64": what a kernel computes, for metrics, traces and explain.
std::string kernel_label(const ir::Kernel& kernel);

}  // namespace switchyard::runtime

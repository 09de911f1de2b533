#include "backends/cuda/cuda_kernel.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>
#include <vector>

#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "codegen/codegen.hpp"
#include "core/kernel_cache.hpp"

namespace switchyard::cuda {
namespace {

// The ABI's sy_dims: kMaxRank int64 values passed by value.
struct Dims64 {
  std::int64_t v[kMaxRank] = {};
};
static_assert(sizeof(Dims64) == 64);

Dims64 dims64(const Dims& dims) {
  Dims64 d;
  std::copy(dims.begin(), dims.end(), d.v);
  return d;
}

// Arguments in the ABI's order; cuLaunchKernel takes the address of each value.
class Arguments {
 public:
  template <class T>
  void add(const T& value) {
    static_assert(sizeof(T) <= sizeof(Slot));
    Slot& slot = slots_.emplace_back();  // a deque never moves what it holds
    std::memcpy(slot.bytes, &value, sizeof(T));
    pointers_.push_back(slot.bytes);
  }
  void add_scalar(DType dtype, const ScalarValue& s) {
    // The value as the kernel declares it, from whichever field the caller filled.
    const bool is_float = is_floating(s.dtype);
    const double f = is_float ? s.f : static_cast<double>(s.i);
    const std::int64_t i = is_float ? static_cast<std::int64_t>(s.f) : s.i;
    switch (dtype) {
      case DType::Bool:
        return add(static_cast<std::uint8_t>(is_float ? f != 0 : i != 0));
      case DType::Int32:
        return add(static_cast<std::int32_t>(i));
      case DType::Int64:
        return add(i);
      case DType::Float32:
        return add(static_cast<float>(f));
      case DType::Float64:
        return add(f);
      case DType::Complex64:
      case DType::Complex128:
        break;  // kernels take no complex scalars: the expression layer rejects them
    }
  }
  void** pointers() { return pointers_.data(); }

 private:
  struct Slot {
    alignas(8) std::byte bytes[sizeof(Dims64)];  // sy_dims is the largest argument
  };
  std::deque<Slot> slots_;
  std::vector<void*> pointers_;
};

// rank, shape, then every input and scalar: the part all elementwise entry points share.
void add_elementwise(Arguments& a, const ir::Kernel& kernel, const LaunchArgs& args) {
  a.add(static_cast<int>(args.shape.size()));
  a.add(dims64(args.shape));
  for (std::size_t i = 0; i < kernel.inputs.size(); ++i) {
    const Operand& in = args.inputs[i];
    a.add(address(in.memory));
    a.add(in.offset);
    if (kernel.inputs[i].layout == ir::Layout::Strided) a.add(dims64(in.strides));
  }
  for (std::size_t j = 0; j < kernel.scalars.size(); ++j)
    a.add_scalar(kernel.scalars[j], args.scalars[j]);
}

// A temporary device array for reduction partials. Freed as soon as the launches are queued:
// the pool hands memory out again only to work queued later on the same in-order stream.
class Scratch {
 public:
  Scratch(Device& device, std::size_t bytes) : device_(device), memory_(device.allocate(bytes)) {}
  ~Scratch() { device_.free(memory_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  CUdeviceptr address() const { return cuda::address(memory_); }

 private:
  Device& device_;
  DeviceMemory memory_;
};

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

bool is_arg(ir::ReduceOp op) {
  return op == ir::ReduceOp::ArgMin || op == ir::ReduceOp::ArgMax;
}

// Where sy_reduce_partial puts one output's partial results: scratch that sy_reduce_final
// folds, or, with one part per row, the output itself (Arg ops still keep their values in
// scratch, their indices being the result).
class OutputPartials {
 public:
  OutputPartials(Device& device, const ir::Kernel& k, std::size_t output, const Operand& out,
                 bool one_pass, std::size_t count)
      : out_(out), arg_(is_arg(k.reductions[output].op)) {
    if (!one_pass || arg_)
      values_.emplace(device, count * size_of(codegen::partial_dtype(k, output)));
    if (!one_pass && arg_) indices_.emplace(device, count * sizeof(std::int64_t));
  }
  bool arg() const { return arg_; }
  CUdeviceptr values() const { return values_ ? values_->address() : address(out_.memory); }
  std::int64_t values_offset() const { return values_ ? 0 : out_.offset; }
  CUdeviceptr indices() const { return indices_ ? indices_->address() : address(out_.memory); }
  std::int64_t indices_offset() const { return indices_ ? 0 : out_.offset; }

 private:
  const Operand& out_;
  bool arg_;
  std::optional<Scratch> values_, indices_;
};

codegen::Target cuda_target() {
  codegen::Target t;
  t.dialect = codegen::Dialect::Cuda;
  t.fp64 = true;
  t.vector_width = 1;
  t.local_size = KernelProgram::kReduceBlock;
  t.blocked = false;  // neighbouring threads read neighbouring elements (coalesced)
  return t;
}

}  // namespace

KernelProgram::KernelProgram(const ir::Kernel& kernel, const Device& device)
    : kernel_(kernel), device_(device), module_(nullptr, {device.context()}) {
  const std::string source = codegen::render(kernel_, cuda_target());
  const std::vector<std::byte> image =
      cached_image(KernelCache::instance(), source, compile_target(device.compute_capability()),
                   {device.cache_device(), device.cache_driver()});
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, image.data()), "cuModuleLoadData", device.where());
  module_.reset(module);
  if (!kernel_.has_reduction) {
    map_ = entry(codegen::kMapEntry.data(), 0);
    return;
  }
  partial_ = entry(codegen::kReducePartialEntry.data(), kReduceBlock);
  final_ = entry(codegen::kReduceFinalEntry.data(), kReduceBlock);
  rows_ = entry(codegen::kReduceRowsEntry.data(), 0);
}

// Errors are ignored: at process exit the driver may already be shutting down.
void KernelProgram::ModuleUnloader::operator()(CUmodule module) const {
  if (driver().cuCtxPushCurrent(context->get()) != CUDA_SUCCESS) return;
  driver().cuModuleUnload(module);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

// The block size the occupancy calculator picks for the function's registers and shared memory
// (or `fixed_block`, which the generated code was sized for), and the grid that fills the device
// with such blocks.
KernelProgram::Entry KernelProgram::entry(const char* name, int fixed_block) const {
  Entry e;
  check(driver().cuModuleGetFunction(&e.function, module_.get(), name), "cuModuleGetFunction",
        device_.where());
  int full_grid = 0, block = 0;
  check(driver().cuOccupancyMaxPotentialBlockSize(&full_grid, &block, e.function, nullptr, 0,
                                                  fixed_block),
        "cuOccupancyMaxPotentialBlockSize", device_.where());
  e.block = fixed_block ? fixed_block : block;
  e.full_grid = std::max(full_grid, 1);
  return e;
}

void KernelProgram::run(const Entry& entry, std::int64_t blocks, void** arguments) const {
  check(driver().cuLaunchKernel(entry.function, static_cast<unsigned>(blocks), 1, 1,
                                static_cast<unsigned>(entry.block), 1, 1, 0, device_.stream(),
                                arguments, nullptr),
        "cuLaunchKernel", device_.where());
}

void KernelProgram::launch(Device& device, const LaunchArgs& args) const {
  if (kernel_.has_reduction) return launch_reduction(device, args);
  const std::int64_t n = element_count(args.shape);
  if (n > 0) launch_map(args, n);
}

// Threads stride over the elements, so one full-occupancy wave of blocks covers any n.
void KernelProgram::launch_map(const LaunchArgs& args, std::int64_t n) const {
  Arguments a;
  a.add(n);
  add_elementwise(a, kernel_, args);
  for (const Operand& out : args.outputs) {
    a.add(address(out.memory));
    a.add(out.offset);
  }
  run(map_, std::min<std::int64_t>(ceil_div(n, map_.block), map_.full_grid), a.pointers());
}

// Rows shorter than a block go one thread per row (a block per row would leave most threads
// idle); longer rows are split into `parts` blocks each, enough to fill the device, whose
// partial results a second pass folds. Every output is folded by the same launches.
void KernelProgram::launch_reduction(Device& device, const LaunchArgs& args) const {
  const ir::FoldedRows r = ir::folded_rows(kernel_.reductions[0], args.shape);
  if (r.rows == 0) return;

  if (r.length < kReduceBlock) {
    Arguments a;
    a.add(r.rows);
    a.add(r.length);
    add_elementwise(a, kernel_, args);
    for (const Operand& out : args.outputs) {
      a.add(address(out.memory));
      a.add(out.offset);
    }
    return run(rows_, ceil_div(r.rows, rows_.block), a.pointers());
  }

  const std::int64_t parts = std::clamp<std::int64_t>(ceil_div(partial_.full_grid, r.rows), 1,
                                                      ceil_div(r.length, kReduceBlock));
  // With one part per row the partials are the result: values (or indices) go to the output.
  const bool one_pass = parts == 1;
  const std::size_t count = static_cast<std::size_t>(r.rows * parts);
  std::deque<OutputPartials> partials;
  for (std::size_t o = 0; o < kernel_.outputs.size(); ++o)
    partials.emplace_back(device, kernel_, o, args.outputs[o], one_pass, count);

  Arguments a;
  a.add(r.rows);
  a.add(r.length);
  a.add(parts);
  add_elementwise(a, kernel_, args);
  for (const OutputPartials& p : partials) {
    a.add(p.values());
    a.add(p.values_offset());
    if (p.arg()) {
      a.add(p.indices());
      a.add(p.indices_offset());
    }
  }
  run(partial_, r.rows * parts, a.pointers());
  if (one_pass) return;

  Arguments f;
  f.add(r.rows);
  f.add(parts);
  for (std::size_t o = 0; o < partials.size(); ++o) {
    f.add(partials[o].values());
    if (partials[o].arg()) f.add(partials[o].indices());
    f.add(address(args.outputs[o].memory));
    f.add(args.outputs[o].offset);
  }
  run(final_, r.rows, f.pointers());
}

}  // namespace switchyard::cuda

#include "backends/cuda/cuda_kernel.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <vector>

#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "codegen/codegen.hpp"
#include "codegen/launch_plan.hpp"
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
    map_ = entry(codegen::kMapEntry.data());
    return;
  }
  partial_ = entry(codegen::kReducePartialEntry.data());
  final_ = entry(codegen::kReduceFinalEntry.data());
  rows_ = entry(codegen::kReduceRowsEntry.data());
}

// Errors are ignored: at process exit the driver may already be shutting down.
void KernelProgram::ModuleUnloader::operator()(CUmodule module) const {
  if (driver().cuCtxPushCurrent(context->get()) != CUDA_SUCCESS) return;
  driver().cuModuleUnload(module);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

// The entry point, and how many blocks of kReduceBlock threads fill the device at full
// occupancy with its registers and shared memory.
KernelProgram::Entry KernelProgram::entry(const char* name) const {
  Entry e;
  check(driver().cuModuleGetFunction(&e.function, module_.get(), name), "cuModuleGetFunction",
        device_.where());
  int full_grid = 0, block = 0;
  check(driver().cuOccupancyMaxPotentialBlockSize(&full_grid, &block, e.function, nullptr, 0,
                                                  kReduceBlock),
        "cuOccupancyMaxPotentialBlockSize", device_.where());
  e.full_grid = std::max(full_grid, 1);
  return e;
}

const KernelProgram::Entry& KernelProgram::entry_for(std::string_view name) const {
  if (name == codegen::kMapEntry) return map_;
  if (name == codegen::kReducePartialEntry) return partial_;
  if (name == codegen::kReduceFinalEntry) return final_;
  return rows_;
}

void KernelProgram::launch(Device& device, const LaunchArgs& args) const {
  // Enough blocks to fill the device; map threads stride over the elements, so one wave covers
  // any size.
  const std::int64_t max_groups = (kernel_.has_reduction ? partial_ : map_).full_grid;
  const codegen::KernelPlan plan =
      codegen::plan_kernel(kernel_, args.shape, cuda_target(), max_groups);
  std::deque<Scratch> scratch;
  for (std::size_t bytes : plan.scratch_bytes) scratch.emplace_back(device, bytes);
  using Kind = codegen::KernelArg::Kind;
  for (const codegen::KernelLaunch& l : plan.launches) {
    Arguments a;
    for (const codegen::KernelArg& arg : l.args) {
      const auto slot = static_cast<std::size_t>(arg.value);
      switch (arg.kind) {
        case Kind::Index:
          a.add(arg.value);
          break;
        case Kind::Rank:
          a.add(static_cast<int>(args.shape.size()));
          break;
        case Kind::Shape:
          a.add(dims64(args.shape));
          break;
        case Kind::Input:
          a.add(address(args.inputs[slot].memory));
          break;
        case Kind::InputOffset:
          a.add(args.inputs[slot].offset);
          break;
        case Kind::InputStrides:
          a.add(dims64(args.inputs[slot].strides));
          break;
        case Kind::Scalar:
          a.add_scalar(kernel_.scalars[slot], args.scalars[slot]);
          break;
        case Kind::Output:
          a.add(address(args.outputs[slot].memory));
          break;
        case Kind::OutputOffset:
          a.add(args.outputs[slot].offset);
          break;
        case Kind::Scratch:
          a.add(scratch[slot].address());
          break;
      }
    }
    check(
        driver().cuLaunchKernel(entry_for(l.entry).function, static_cast<unsigned>(l.groups), 1, 1,
                                kReduceBlock, 1, 1, 0, device_.stream(), a.pointers(), nullptr),
        "cuLaunchKernel " + std::string(l.entry), device_.where());
  }
}

}  // namespace switchyard::cuda

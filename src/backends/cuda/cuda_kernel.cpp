#include "backends/cuda/cuda_kernel.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <vector>

#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/kernel_arguments.hpp"
#include "backends/scratch.hpp"
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

// Arguments in the ABI's order (a Packer for pack_arguments); cuLaunchKernel takes the address
// of each value.
class Arguments {
 public:
  template <class T>
  void add(const T& value) {
    static_assert(sizeof(T) <= sizeof(Slot));
    Slot& slot = slots_.emplace_back();  // a deque never moves what it holds
    std::memcpy(slot.bytes, &value, sizeof(T));
    pointers_.push_back(slot.bytes);
  }
  void index(std::int64_t v) { add(v); }
  void rank(int r) { add(r); }
  void dims(const Dims& d) { add(dims64(d)); }
  void memory(const DeviceMemory& m) { add(address(m)); }
  void scalar(DType dtype, const ScalarValue& s) {
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
  const Scratch scratch(device, plan.scratch_bytes);
  for (const codegen::KernelLaunch& l : plan.launches) {
    Arguments a;
    pack_arguments(l, kernel_, args, scratch.memory(), a);
    check(
        driver().cuLaunchKernel(entry_for(l.entry).function, static_cast<unsigned>(l.groups), 1, 1,
                                kReduceBlock, 1, 1, 0, device_.stream(), a.pointers(), nullptr),
        "cuLaunchKernel " + std::string(l.entry), device_.where());
  }
}

}  // namespace switchyard::cuda

#include "backends/cuda/cuda_library_kernels.hpp"

#include <cstdint>
#include <vector>

#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/scratch.hpp"
#include "codegen/library_kernels.hpp"
#include "core/kernel_cache.hpp"

namespace switchyard::cuda {
namespace {

codegen::Target library_target() {
  codegen::Target t;
  t.dialect = codegen::Dialect::Cuda;
  t.fp64 = true;
  t.local_size = LibraryKernels::kBlock;
  return t;
}

CUdeviceptr pointer_of(const codegen::LibraryArg& arg, const LibraryArgs& args,
                       const std::vector<DeviceMemory>& scratch) {
  using Kind = codegen::LibraryArg::Kind;
  switch (arg.kind) {
    case Kind::A:
      return address(args.a.memory);
    case Kind::B:
      return address(args.b.memory);
    case Kind::C:
      return address(args.c.memory);
    case Kind::D:
      return address(args.d.memory);
    default:
      return address(scratch[static_cast<std::size_t>(arg.value)]);
  }
}

}  // namespace

LibraryKernels::LibraryKernels(Device& device, const LibraryOp& op)
    : Routine(device, op), module_(nullptr, {device.context()}) {
  const std::string source = codegen::render_library(op, library_target());
  const ContextScope scope(*device.context());
  const std::vector<std::byte> image =
      cached_image(KernelCache::instance(), source, compile_target(device.compute_capability()),
                   {device.cache_device(), device.cache_driver()});
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, image.data()), "cuModuleLoadData", device.where());
  module_.reset(module);
  for (const std::string& entry : codegen::library_entries(op)) {
    CUfunction f = nullptr;
    check(driver().cuModuleGetFunction(&f, module, entry.c_str()), "cuModuleGetFunction",
          device.where());
    functions_.emplace(entry, f);
  }
}

// Errors are ignored: at process exit the driver may already be shutting down.
void LibraryKernels::ModuleUnloader::operator()(CUmodule module) const {
  if (driver().cuCtxPushCurrent(context->get()) != CUDA_SUCCESS) return;
  driver().cuModuleUnload(module);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

void LibraryKernels::launch(const LibraryArgs& args) {
  Device& device = this->device();
  const codegen::LibraryPlan plan = codegen::plan_library(op(), args, library_target());
  const Scratch scratch(device, plan.scratch_bytes);
  for (const codegen::LibraryLaunch& l : plan.launches) {
    // Every argument is 8 bytes: a device pointer or an int64.
    std::vector<std::uint64_t> values;
    for (const codegen::LibraryArg& arg : l.args)
      values.push_back(arg.kind == codegen::LibraryArg::Kind::Number
                           ? static_cast<std::uint64_t>(arg.value)
                           : pointer_of(arg, args, scratch.memory()));
    std::vector<void*> pointers;
    for (std::uint64_t& v : values) pointers.push_back(&v);
    check(driver().cuLaunchKernel(functions_.find(l.entry)->second, static_cast<unsigned>(l.groups),
                                  1, 1, kBlock, 1, 1, 0, device.stream(), pointers.data(), nullptr),
          "cuLaunchKernel " + l.entry, device.where());
  }
}

}  // namespace switchyard::cuda

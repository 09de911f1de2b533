#include "backends/opencl/opencl_library_kernels.hpp"

#include <vector>

#include "backends/opencl/opencl_compiler.hpp"
#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "backends/scratch.hpp"
#include "codegen/library_kernels.hpp"

namespace switchyard::opencl {
namespace {

cl_mem memory_of(const codegen::LibraryArg& arg, const LibraryArgs& args,
                 const std::vector<DeviceMemory>& scratch) {
  using Kind = codegen::LibraryArg::Kind;
  switch (arg.kind) {
    case Kind::A:
      return static_cast<cl_mem>(args.a.memory.handle);
    case Kind::B:
      return static_cast<cl_mem>(args.b.memory.handle);
    case Kind::C:
      return static_cast<cl_mem>(args.c.memory.handle);
    case Kind::D:
      return static_cast<cl_mem>(args.d.memory.handle);
    default:
      return static_cast<cl_mem>(scratch[static_cast<std::size_t>(arg.value)].handle);
  }
}

}  // namespace

LibraryKernels::LibraryKernels(Device& device, const LibraryOp& op)
    : Routine(device, op), target_(device.target_for(ir::Kernel{})) {
  // The device's work-group size for generated kernels; library kernels are scalar code.
  target_.vector_width = 1;
  const std::string source = codegen::render_library(op, target_);
  const std::string options = device.build_options();
  program_ = cached_program(device, source, options);
  for (const std::string& entry : codegen::library_entries(op)) {
    cl_int err = CL_SUCCESS;
    KernelHandle k(clCreateKernel(program_.get(), entry.c_str(), &err));
    check(err, "creating kernel " + entry, device.info());
    kernels_.emplace(entry, std::move(k));
  }
}

void LibraryKernels::launch(const LibraryArgs& args) {
  const codegen::LibraryPlan plan = codegen::plan_library(op(), args, target_);
  const Scratch scratch(device(), plan.scratch_bytes);
  const std::lock_guard lock(mutex_);
  for (const codegen::LibraryLaunch& l : plan.launches) {
    cl_kernel kernel = kernels_.find(l.entry)->second.get();
    for (std::size_t i = 0; i < l.args.size(); ++i) {
      const codegen::LibraryArg& arg = l.args[i];
      const auto index = static_cast<cl_uint>(i);
      cl_int err = CL_SUCCESS;
      if (arg.kind == codegen::LibraryArg::Kind::Number) {
        const cl_long number = arg.value;
        err = clSetKernelArg(kernel, index, sizeof number, &number);
      } else {
        const cl_mem mem = memory_of(arg, args, scratch.memory());
        err = clSetKernelArg(kernel, index, sizeof mem, &mem);
      }
      check(err, "setting argument " + std::to_string(i) + " of " + l.entry, device().info());
    }
    const std::size_t local = static_cast<std::size_t>(target_.local_size);
    const std::size_t global = static_cast<std::size_t>(l.groups) * local;
    check(clEnqueueNDRangeKernel(device().queue(), kernel, 1, nullptr, &global, &local, 0, nullptr,
                                 nullptr),
          "launching " + l.entry + " (" + std::to_string(l.groups) + " groups of " +
              std::to_string(local) + ")",
          device().info());
  }
}

}  // namespace switchyard::opencl

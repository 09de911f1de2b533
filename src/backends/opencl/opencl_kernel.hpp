// A Kernel IR program built for one OpenCL device, and its launches as codegen/launch_plan.hpp
// plans them, the local size fixed per device (PoCL recompiles a kernel for every new
// work-group size).
#pragma once

#include <mutex>
#include <string>
#include <string_view>

#include "backends/backend.hpp"
#include "backends/opencl/opencl_api.hpp"
#include "codegen/codegen.hpp"

namespace switchyard::opencl {

class Device;

class Program final : public Executable {
 public:
  // Renders and builds (through the disk kernel cache); throws CompileError or DTypeError.
  Program(Device& device, const ir::Kernel& kernel);

  // Enqueues the kernel; returns before it runs.
  void launch(const LaunchArgs& args);

 private:
  cl_kernel kernel_for(std::string_view entry) const;  // an entry point of codegen.hpp's ABI

  Device& device_;
  ir::Kernel kernel_;
  codegen::Target target_;
  ProgramHandle program_;
  KernelHandle map_, partial_, final_, rows_;
  std::mutex mutex_;  // kernel arguments are state of the cl_kernel objects
};

}  // namespace switchyard::opencl

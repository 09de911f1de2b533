// A Kernel IR program built for one OpenCL device, and its launches: arguments in the order of
// codegen.hpp's ABI, work-group counts from codegen/launch_plan.hpp, the local size fixed per
// device (PoCL recompiles a kernel for every new work-group size).
#pragma once

#include <mutex>
#include <string>

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
  void launch_map(const LaunchArgs& args);
  void launch_reduction(const LaunchArgs& args);
  void enqueue(cl_kernel kernel, std::int64_t groups, const char* entry);

  Device& device_;
  ir::Kernel kernel_;
  codegen::Target target_;
  ProgramHandle program_;
  KernelHandle map_, partial_, final_, rows_;
  std::mutex mutex_;  // kernel arguments are state of the cl_kernel objects
};

}  // namespace switchyard::opencl

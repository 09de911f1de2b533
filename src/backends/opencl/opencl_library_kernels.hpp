// Scan, sort, compaction and gather on an OpenCL device: the program codegen/library_kernels.hpp
// renders, built through the disk kernel cache, and launched as its plan says.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "backends/opencl/opencl_api.hpp"
#include "backends/opencl/opencl_library.hpp"
#include "codegen/codegen.hpp"

namespace switchyard::opencl {

class Device;

class LibraryKernels final : public Routine {
 public:
  // Renders and builds the op's program; throws DTypeError, ValueError or CompileError.
  LibraryKernels(Device& device, const LibraryOp& op);

  // Enqueues the op's launches; returns before they run.
  void launch(const LibraryArgs& args) override;

 private:
  codegen::Target target_;
  ProgramHandle program_;
  std::map<std::string, KernelHandle, std::less<>> kernels_;
  std::mutex mutex_;  // kernel arguments are state of the cl_kernel objects
};

}  // namespace switchyard::opencl

// The OpenCL driver (backends/driver.hpp) of one device: its own context and in-order queue,
// buffers, blocking copies, programs built from OpenCL C and loaded from their binaries, and
// CLBlast and VkFFT for the library ops they serve.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "backends/driver.hpp"
#include "backends/opencl/opencl_api.hpp"

namespace switchyard::opencl {

// What detection learned about a device that the driver needs beyond DeviceInfo.
struct Traits {
  cl_device_id device = nullptr;
  std::string platform_version, device_version;
  int preferred_float_width = 1, preferred_double_width = 1;
  std::size_t max_work_group_size = 1;
  bool correctly_rounded_divide_sqrt = false;
  // PoCL with its kernel cache on: it keeps each program's bitcode and each launch's machine code
  // on disk itself, keyed by the source, so a program is kept as its source (opencl_driver.cpp).
  bool caches_its_programs = false;
};

class Driver final : public switchyard::Driver {
 public:
  // Throws DeviceError when the context or queue cannot be created.
  Driver(DeviceInfo info, Traits traits);

  std::uint64_t allocate(std::size_t bytes) override;
  void release(std::uint64_t block) override;
  std::string refusal_name() const override;
  void copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                      std::size_t bytes) override;
  void copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                    std::size_t bytes) override;
  void copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                   std::size_t src_offset, std::size_t bytes) override;

  codegen::Target target_for(const ir::Kernel& kernel) const override;
  std::int64_t max_groups(const Module& module, std::string_view entry) const override;
  std::string identity() const override;
  std::string versions() const override;
  std::string build_options() const override;
  std::vector<std::byte> build(const std::string& source,
                               std::span<const std::string_view> entries) override;
  std::unique_ptr<Module> load(std::span<const std::byte> binary,
                               std::span<const std::string_view> entries) override;
  void launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
              const LaunchArguments& args) override;
  void synchronize() override;

  // Gemm and gemv through CLBlast, FFTs through VkFFT; null for the other ops.
  std::shared_ptr<LibraryRoutine<switchyard::Device>> prepare_library(
      const LibraryOp& op, switchyard::Device& device) override;

  // For the vendor routines, which enqueue their work on the same queue.
  const DeviceInfo& info() const { return info_; }
  cl_device_id id() const { return traits_.device; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }

 private:
  // Source → built program; a CompileError with the build log when it does not build.
  ProgramHandle compile(const std::string& source) const;
  // A program from what build() returned; null when the driver rejects it.
  ProgramHandle program_from(std::span<const std::byte> binary) const;

  const DeviceInfo info_;
  const Traits traits_;
  ContextHandle context_;
  QueueHandle queue_;
  std::atomic<cl_int> last_refusal_{CL_SUCCESS};  // the driver's code when it had no room
};

}  // namespace switchyard::opencl

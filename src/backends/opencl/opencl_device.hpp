// One OpenCL device: its own context and in-order queue, a memory pool, blocking transfers, and
// executables for Kernel IR (generated OpenCL C) and library ops (CLBlast).
#pragma once

#include <atomic>
#include <string>

#include "backends/backend.hpp"
#include "backends/opencl/opencl_api.hpp"
#include "codegen/codegen.hpp"
#include "core/memory_pool.hpp"

namespace switchyard::opencl {

// Facts about a device beyond DeviceInfo that code generation and caching need.
struct DeviceTraits {
  std::string platform_version;
  std::string device_version;
  int preferred_float_width = 1, preferred_double_width = 1;
  std::size_t max_work_group_size = 1;
  bool correctly_rounded_divide_sqrt = false;
};

class Device final : public switchyard::Device {
 public:
  // Throws DeviceError when the context or queue cannot be created.
  Device(cl_device_id id, DeviceInfo info, DeviceTraits traits);
  ~Device() override;

  cl_device_id id() const { return id_; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }

  // How this device wants code for `kernel` generated.
  codegen::Target target_for(const ir::Kernel& kernel) const;
  // Work-groups that keep every compute unit busy.
  std::int64_t max_groups() const;
  std::string build_options() const;
  // Identity of device and driver for the disk kernel cache.
  std::string cache_device() const;
  std::string cache_driver() const;

 private:
  DeviceMemory do_allocate(std::size_t bytes) override;
  void do_free(DeviceMemory memory) override;
  void do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                         std::size_t bytes) override;
  void do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                       std::size_t bytes) override;
  void do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                      std::size_t src_offset, std::size_t bytes) override;
  std::shared_ptr<Executable> do_prepare(const ir::Kernel& kernel) override;
  std::shared_ptr<Executable> do_prepare_library(const LibraryOp& op) override;
  void do_launch(Executable& exe, const LaunchArgs& args) override;
  void do_launch_library(Executable& exe, const LibraryArgs& args) override;
  void do_synchronize() override;

  cl_device_id id_;
  DeviceTraits traits_;
  ContextHandle context_;
  QueueHandle queue_;
  std::atomic<cl_int> last_refusal_{CL_SUCCESS};  // the driver's code when it had no room
  MemoryPool pool_;
};

}  // namespace switchyard::opencl

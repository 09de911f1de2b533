// The Vulkan driver (backends/driver.hpp) of one physical device: buffers with device addresses,
// copies, compute pipelines from SPIR-V, and one queue onto which launches are recorded and
// submitted when the host next needs their results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "backends/driver.hpp"
#include "backends/vulkan/vulkan_api.hpp"

namespace switchyard::vulkan {

// What detection learned about a physical device that the driver needs.
struct Traits {
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  std::uint32_t max_group_size = 1;  // maxComputeWorkGroupInvocations
  std::uint32_t max_groups = 1;      // maxComputeWorkGroupCount[0]
  std::string identity, versions;
};

// One device allocation: a buffer, its memory and its address in shaders.
struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceAddress address = 0;
  std::byte* mapped = nullptr;  // where the memory is host-visible
  std::size_t bytes = 0;
};

class Driver final : public switchyard::Driver {
 public:
  // Throws DeviceError when the logical device or its queue cannot be made.
  Driver(const Instance& in, DeviceInfo info, Traits traits);
  ~Driver() override;

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
  std::string identity() const override { return traits_.identity; }
  std::string versions() const override { return traits_.versions; }
  std::string build_options() const override { return "glsl450 vulkan1.2"; }
  std::vector<std::byte> build(const std::string& source,
                               std::span<const std::string_view> entries) override;
  std::unique_ptr<Module> load(std::span<const std::byte> binary,
                               std::span<const std::string_view> entries) override;
  void launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
              const LaunchArguments& args) override;
  void synchronize() override;

  // For modules: pipelines are destroyed once no queued work uses them.
  void retire(VkPipeline pipeline, VkShaderModule shader);

  // FFTs through VkFFT (vulkan_fft.cpp); null for the other ops, gemm and gemv included (Vulkan
  // has no vendor BLAS), which codegen's library kernels run.
  std::shared_ptr<LibraryRoutine<switchyard::Device>> prepare_library(
      const LibraryOp& op, switchyard::Device& device) override;

  // ---- for VkFFT (vulkan_fft.cpp), which records its dispatches among the driver's own work
  struct Handles {
    const Instance& instance;
    const DeviceFunctions& functions;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;  // for command buffers VkFFT submits itself (while planning)
    VkFence fence;
  };
  // Runs `work` under the driver's lock: it may submit to the queue and wait (VkFFT's planning
  // uploads tables so), while work recorded earlier stays recorded, unsubmitted.
  void with_handles(const std::function<void(const Handles&)>& work);
  // Records `commands` into the open command buffer, ordered after the work queued before them
  // and before the work queued after. `batch` is the command buffer an earlier call recorded
  // commands that these change the state of (descriptor sets) into: when it is still open it is
  // submitted first, as Vulkan forbids changing what recorded commands use; on return `batch`
  // names this one.
  void record_commands(const std::function<void(VkCommandBuffer, const Handles&)>& commands,
                       std::uint64_t* batch = nullptr);
  static VkBuffer buffer(DeviceMemory m);

 private:
  // Each needs mutex_ held.
  Buffer* make_buffer(std::size_t bytes, std::uint32_t type, VkResult& result);
  void destroy(Buffer* b);
  void record();   // opens the command buffer when it is closed
  void finish();   // submits what was recorded and waits for it
  void barrier();  // orders everything recorded so far before what follows
  Buffer& staging(std::size_t bytes);
  Handles handles() const;

  const Instance& instance_;
  const DeviceInfo info_;
  const Traits traits_;
  VkDevice device_ = VK_NULL_HANDLE;
  DeviceFunctions vk_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool commands_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::uint32_t device_type_ = 0, host_type_ = 0;  // memory types: arrays, staging/arguments
  bool mapped_arrays_ = false;  // arrays' memory is host-visible: copies are memcpy

  std::mutex mutex_;  // guards the queue, the recording and everything below
  bool recording_ = false;
  std::uint64_t batch_ = 1;      // the open command buffer's number: finish() moves it on
  int recorded_ = 0;             // dispatches and copies in the open command buffer
  Buffer* arguments_ = nullptr;  // argument blocks of the recorded launches
  std::size_t arguments_used_ = 0;
  Buffer* staging_ = nullptr;
  VkResult last_refusal_ = VK_SUCCESS;
};

}  // namespace switchyard::vulkan

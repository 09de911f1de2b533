#include "backends/vulkan/vulkan_backend.hpp"

#include <cstdio>
#include <thread>
#include <vector>

#include "backends/compiled_device.hpp"
#include "backends/vulkan/vulkan_compiler.hpp"
#include "backends/vulkan/vulkan_driver.hpp"
#include "switchyard/error.hpp"

namespace switchyard::vulkan {
namespace {

DeviceKind kind_of(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return DeviceKind::GPU;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return DeviceKind::CPU;
    default:
      return DeviceKind::Other;
  }
}

std::string vendor_name(std::uint32_t id) {
  switch (id) {
    case 0x10de:
      return "NVIDIA";
    case 0x1002:
      return "AMD";
    case 0x8086:
      return "Intel";
    case 0x13b5:
      return "ARM";
    case 0x5143:
      return "Qualcomm";
    case 0x10005:
      return "Mesa";
    default:
      break;
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", id);
  return hex;
}

// The device's DeviceInfo and Traits, or why it cannot serve (a missing feature).
std::string examine(const Instance& in, VkPhysicalDevice physical, int index, DeviceInfo& info,
                    Traits& traits) {
  VkPhysicalDeviceVulkan12Properties p12{
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceVulkan11Properties p11{
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, .pNext = &p12};
  VkPhysicalDeviceProperties2 props{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                    .pNext = &p11};
  in.vkGetPhysicalDeviceProperties2(physical, &props);
  const VkPhysicalDeviceProperties& p = props.properties;
  VkPhysicalDeviceVulkan12Features f12{.sType =
                                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 features{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &f12};
  in.vkGetPhysicalDeviceFeatures2(physical, &features);

  const std::string name = p.deviceName;
  if (p.apiVersion < VK_API_VERSION_1_2) return name + " offers Vulkan below 1.2";
  // Generated code keeps NaN and infinities (SignedZeroInfNanPreserve): without it a compiler
  // may assume there are none, and min, max and isnan would be wrong.
  if (!f12.bufferDeviceAddress || !f12.shaderInt8 || !f12.storageBuffer8BitAccess ||
      !features.features.shaderInt64 || !p12.shaderSignedZeroInfNanPreserveFloat32)
    return name +
           " lacks one of bufferDeviceAddress, shaderInt8, storageBuffer8BitAccess, "
           "shaderInt64, shaderSignedZeroInfNanPreserveFloat32";
  std::uint32_t families = 0;
  in.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family(families);
  in.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, family.data());
  traits.queue_family = families;
  for (std::uint32_t i = 0; i < families && traits.queue_family == families; ++i)
    if (family[i].queueFlags & VK_QUEUE_COMPUTE_BIT) traits.queue_family = i;
  if (traits.queue_family == families) return name + " has no compute queue";

  VkPhysicalDeviceMemoryProperties memory;
  in.vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  std::uint64_t local = 0;
  for (std::uint32_t h = 0; h < memory.memoryHeapCount; ++h)
    if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      local = std::max<std::uint64_t>(local, memory.memoryHeaps[h].size);

  info.backend = "vulkan";
  info.index = index;
  info.name = name;
  info.vendor = vendor_name(p.vendorID);
  info.driver_version = std::string(p12.driverName) + " " + p12.driverInfo;
  info.kind = kind_of(p.deviceType);
  info.compute_units = info.kind == DeviceKind::CPU
                           ? static_cast<int>(std::thread::hardware_concurrency())
                           : 0;  // Vulkan does not say
  info.global_memory_bytes = local;
  info.max_allocation_bytes = std::min<std::uint64_t>(p11.maxMemoryAllocationSize, local);
  // float64 kernels keep NaN and infinities too.
  info.fp64 = features.features.shaderFloat64 && p12.shaderSignedZeroInfNanPreserveFloat64;
  info.library_ops = true;  // codegen's library kernels: gemm, scans, sorts, compaction, gathers
  info.fft = true;          // VkFFT's Vulkan path (vulkan_fft.cpp)
  info.unified_memory =
      info.kind == DeviceKind::CPU || p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;

  traits.physical = physical;
  traits.max_group_size = p.limits.maxComputeWorkGroupInvocations;
  traits.max_groups = p.limits.maxComputeWorkGroupCount[0];
  char uuid[2 * VK_UUID_SIZE + 1] = {};
  for (unsigned i = 0; i < VK_UUID_SIZE; ++i)
    std::snprintf(uuid + 2 * i, 3, "%02x", p.pipelineCacheUUID[i]);
  traits.identity = name + "|" + info.vendor + "|" + std::to_string(p.deviceID) + "|" + uuid;
  traits.versions =
      info.driver_version + "|" + std::to_string(p.driverVersion) + "|" + compiler_version();
  return {};
}

class Backend final : public switchyard::Backend {
 public:
  Backend() {
    const Instance* in = instance(reason_);
    if (!in) return;
    std::uint32_t count = 0;
    in->vkEnumeratePhysicalDevices(in->instance, &count, nullptr);
    std::vector<VkPhysicalDevice> physical(count);
    in->vkEnumeratePhysicalDevices(in->instance, &count, physical.data());
    std::string skipped;
    for (VkPhysicalDevice d : physical) {
      DeviceInfo info;
      Traits traits;
      const std::string why = examine(*in, d, static_cast<int>(devices_.size()), info, traits);
      if (!why.empty()) {
        skipped += why + "; ";
        continue;
      }
      try {
        devices_.push_back(std::make_unique<CompiledDevice>(
            info, std::make_unique<Driver>(*in, info, std::move(traits))));
        view_.push_back(devices_.back().get());
      } catch (const Error& e) {
        skipped += std::string(e.what()) + "; ";
      }
    }
    if (devices_.empty())
      reason_ = count == 0 ? "the Vulkan loader lists no device: install a driver, e.g. "
                             "mesa-vulkan-drivers"
                           : "no Vulkan device can run compute kernels here: " + skipped;
  }

  std::string_view name() const override { return "vulkan"; }
  DriverErrorNames error_names() const override {
    return {"shaderc_compilation_status_compilation_error", "VK_ERROR_UNKNOWN",
            "VK_ERROR_OUT_OF_DEVICE_MEMORY", "VK_ERROR_DEVICE_LOST"};
  }
  std::string unavailable_reason() const override { return reason_; }
  std::span<switchyard::Device* const> devices() override { return view_; }

 private:
  std::vector<std::unique_ptr<CompiledDevice>> devices_;
  std::vector<switchyard::Device*> view_;
  std::string reason_;
};

}  // namespace

std::unique_ptr<switchyard::Backend> make_backend() {
  return std::make_unique<Backend>();
}

}  // namespace switchyard::vulkan

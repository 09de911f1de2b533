// Vulkan's loader, opened at run time (libvulkan.so.1), so that one binary runs where Vulkan is
// absent and reports the backend unavailable; its entry points, as tables of function pointers.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

// Vulkan's structs are written with designated initializers naming only the fields that matter
// (the rest zero, as Vulkan expects); only the Vulkan backend's sources include this header.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <string>
#include <string_view>

#include "switchyard/device.hpp"

namespace switchyard::vulkan {

#define SY_VK_INSTANCE_FUNCTIONS(X)           \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

#define SY_VK_DEVICE_FUNCTIONS(X)  \
  X(vkDestroyDevice)               \
  X(vkGetDeviceQueue)              \
  X(vkDeviceWaitIdle)              \
  X(vkCreateBuffer)                \
  X(vkDestroyBuffer)               \
  X(vkGetBufferMemoryRequirements) \
  X(vkAllocateMemory)              \
  X(vkFreeMemory)                  \
  X(vkBindBufferMemory)            \
  X(vkMapMemory)                   \
  X(vkGetBufferDeviceAddress)      \
  X(vkCreateShaderModule)          \
  X(vkDestroyShaderModule)         \
  X(vkCreatePipelineLayout)        \
  X(vkDestroyPipelineLayout)       \
  X(vkCreateComputePipelines)      \
  X(vkDestroyPipeline)             \
  X(vkCreateCommandPool)           \
  X(vkDestroyCommandPool)          \
  X(vkAllocateCommandBuffers)      \
  X(vkResetCommandBuffer)          \
  X(vkBeginCommandBuffer)          \
  X(vkEndCommandBuffer)            \
  X(vkCmdBindPipeline)             \
  X(vkCmdPushConstants)            \
  X(vkCmdDispatch)                 \
  X(vkCmdPipelineBarrier)          \
  X(vkCmdCopyBuffer)               \
  X(vkQueueSubmit)                 \
  X(vkCreateFence)                 \
  X(vkDestroyFence)                \
  X(vkWaitForFences)               \
  X(vkResetFences)                 \
  /* the rest only VkFFT calls */  \
  X(vkUnmapMemory)                 \
  X(vkFreeCommandBuffers)          \
  X(vkCreateDescriptorPool)        \
  X(vkDestroyDescriptorPool)       \
  X(vkCreateDescriptorSetLayout)   \
  X(vkDestroyDescriptorSetLayout)  \
  X(vkAllocateDescriptorSets)      \
  X(vkUpdateDescriptorSets)        \
  X(vkCmdBindDescriptorSets)

#define SY_VK_MEMBER(name) PFN_##name name = nullptr;

// The loader's instance, made once per process, and its instance-level functions.
struct Instance {
  VkInstance instance = VK_NULL_HANDLE;
  SY_VK_INSTANCE_FUNCTIONS(SY_VK_MEMBER)
};

// Device-level functions of one VkDevice.
struct DeviceFunctions {
  SY_VK_DEVICE_FUNCTIONS(SY_VK_MEMBER)
};

// The process's instance, or null with `reason` set: no loader, no driver, Vulkan below 1.2.
const Instance* instance(std::string& reason);
DeviceFunctions device_functions(const Instance& in, VkDevice device);

// "VK_ERROR_DEVICE_LOST", ...
std::string result_name(VkResult r);
bool is_out_of_memory(VkResult r);
// Throws DeviceError (OutOfMemory for the memory results) naming the call and the device.
void check(VkResult r, std::string_view what, const DeviceInfo& device);

}  // namespace switchyard::vulkan

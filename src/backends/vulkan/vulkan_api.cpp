#include "backends/vulkan/vulkan_api.hpp"

#include <dlfcn.h>

#include "switchyard/error.hpp"

namespace switchyard::vulkan {
namespace {

// Made once; never destroyed, like the registry that holds its devices (driver_calls.hpp).
struct Loaded {
  Instance in;
  std::string reason;
};

Loaded load() {
  Loaded l;
  void* library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    l.reason = "no Vulkan loader (libvulkan.so.1: " + std::string(dlerror()) +
               "); install libvulkan1 and a driver, e.g. mesa-vulkan-drivers";
    return l;
  }
  auto get = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
  auto create =
      get ? reinterpret_cast<PFN_vkCreateInstance>(get(VK_NULL_HANDLE, "vkCreateInstance"))
          : nullptr;
  auto version = get ? reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
                           get(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"))
                     : nullptr;
  std::uint32_t api = VK_API_VERSION_1_0;
  if (version) version(&api);
  if (!create || api < VK_API_VERSION_1_2) {
    l.reason = "the Vulkan loader offers version " + std::to_string(VK_API_VERSION_MAJOR(api)) +
               "." + std::to_string(VK_API_VERSION_MINOR(api)) + ": expected 1.2 or later";
    return l;
  }
  const VkApplicationInfo app{.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                              .pApplicationName = "switchyard",
                              .pEngineName = "switchyard",
                              .apiVersion = VK_API_VERSION_1_2};
  const VkInstanceCreateInfo info{.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                  .pApplicationInfo = &app};
  const VkResult r = create(&info, nullptr, &l.in.instance);
  if (r != VK_SUCCESS) {
    l.reason = "creating a Vulkan instance failed (" + result_name(r) +
               "): no driver is installed for it, e.g. mesa-vulkan-drivers";
    return l;
  }
#define SY_VK_LOAD(name) l.in.name = reinterpret_cast<PFN_##name>(get(l.in.instance, #name));
  SY_VK_INSTANCE_FUNCTIONS(SY_VK_LOAD)
#undef SY_VK_LOAD
  return l;
}

}  // namespace

const Instance* instance(std::string& reason) {
  static const Loaded* loaded = new Loaded(load());
  reason = loaded->reason;
  return reason.empty() ? &loaded->in : nullptr;
}

DeviceFunctions device_functions(const Instance& in, VkDevice device) {
  DeviceFunctions f;
#define SY_VK_LOAD(name) \
  f.name = reinterpret_cast<PFN_##name>(in.vkGetDeviceProcAddr(device, #name));
  SY_VK_DEVICE_FUNCTIONS(SY_VK_LOAD)
#undef SY_VK_LOAD
  return f;
}

std::string result_name(VkResult r) {
  switch (r) {
#define SY_VK_RESULT(name) \
  case name:               \
    return #name;
    SY_VK_RESULT(VK_SUCCESS)
    SY_VK_RESULT(VK_NOT_READY)
    SY_VK_RESULT(VK_TIMEOUT)
    SY_VK_RESULT(VK_INCOMPLETE)
    SY_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    SY_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    SY_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    SY_VK_RESULT(VK_ERROR_DEVICE_LOST)
    SY_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    SY_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    SY_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    SY_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    SY_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    SY_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    SY_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    SY_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    SY_VK_RESULT(VK_ERROR_UNKNOWN)
    SY_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    SY_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    SY_VK_RESULT(VK_ERROR_FRAGMENTATION)
    SY_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    SY_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef SY_VK_RESULT
    default:
      break;
  }
  return "VkResult " + std::to_string(static_cast<int>(r));
}

bool is_out_of_memory(VkResult r) {
  return r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY;
}

void check(VkResult r, std::string_view what, const DeviceInfo& device) {
  if (r == VK_SUCCESS) return;
  const std::string message = result_name(r) + " while " + std::string(what) + " on " +
                              device.id() + " (" + device.name + ")";
  if (is_out_of_memory(r)) throw OutOfMemory(message);
  throw DeviceError(message);
}

}  // namespace switchyard::vulkan

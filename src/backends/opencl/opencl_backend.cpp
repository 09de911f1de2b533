#include "backends/opencl/opencl_backend.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "backends/compiled_device.hpp"
#include "backends/opencl/opencl_driver.hpp"
#include "backends/opencl/opencl_driver_cache.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "core/kernel_cache.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {
namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  const auto first = s.find_first_not_of(' ');
  return first == std::string::npos ? std::string() : s.substr(first);
}

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  return trimmed(std::move(s));
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  std::size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  return trimmed(std::move(s));
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

DeviceKind kind_of(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return DeviceKind::GPU;
  if (t & CL_DEVICE_TYPE_CPU) return DeviceKind::CPU;
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return DeviceKind::Accelerator;
  return DeviceKind::Other;
}

DeviceInfo describe(cl_device_id d, int index) {
  DeviceInfo info;
  info.backend = "opencl";
  info.index = index;
  info.name = device_string(d, CL_DEVICE_NAME);
  info.vendor = device_string(d, CL_DEVICE_VENDOR);
  info.driver_version = device_string(d, CL_DRIVER_VERSION);
  info.kind = kind_of(device_value<cl_device_type>(d, CL_DEVICE_TYPE));
  info.compute_units = static_cast<int>(device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS));
  info.global_memory_bytes = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.max_allocation_bytes = device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.fp64 = device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  info.fp16 = device_string(d, CL_DEVICE_EXTENSIONS).find("cl_khr_fp16") != std::string::npos;
  info.unified_memory = device_value<cl_bool>(d, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE;
  return info;
}

Traits traits_of(cl_platform_id p, cl_device_id d) {
  Traits t;
  t.device = d;
  t.platform_version = platform_string(p, CL_PLATFORM_VERSION);
  t.device_version = device_string(d, CL_DEVICE_VERSION);
  t.preferred_float_width =
      static_cast<int>(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT));
  t.preferred_double_width =
      static_cast<int>(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE));
  t.max_work_group_size = device_value<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  t.correctly_rounded_divide_sqrt =
      (device_value<cl_device_fp_config>(d, CL_DEVICE_SINGLE_FP_CONFIG) &
       CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  const char* pocl_cache = std::getenv("POCL_KERNEL_CACHE");
  t.caches_its_programs = platform_string(p, CL_PLATFORM_NAME) == "Portable Computing Language" &&
                          !(pocl_cache && std::string_view(pocl_cache) == "0");
  return t;
}

class Backend final : public switchyard::Backend {
 public:
  Backend() {
    const std::filesystem::path driver_cache = place_driver_cache();
    if (!driver_cache.empty())
      bound_driver_cache(driver_cache, KernelCache::instance().max_bytes());
    cl_uint count = 0;
    const cl_int err = clGetPlatformIDs(0, nullptr, &count);
    if (err != CL_SUCCESS || count == 0) {
      reason_ = "no OpenCL platform found (" + error_name(err) +
                "): the ICD loader lists no driver in /etc/OpenCL/vendors; install one, e.g. "
                "pocl-opencl-icd for CPUs or the GPU vendor's OpenCL driver";
      return;
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    std::string skipped;
    for (cl_platform_id p : platforms) add_platform(p, skipped);
    if (devices_.empty())
      reason_ = "OpenCL platforms found, but no usable device" +
                (skipped.empty() ? std::string() : ": " + skipped);
  }

  std::string_view name() const override { return "opencl"; }
  DriverErrorNames error_names() const override {
    return {"CL_BUILD_PROGRAM_FAILURE", "CL_OUT_OF_RESOURCES", "CL_MEM_OBJECT_ALLOCATION_FAILURE",
            "CL_DEVICE_NOT_AVAILABLE"};
  }
  std::string unavailable_reason() const override { return reason_; }
  std::span<switchyard::Device* const> devices() override { return view_; }

 private:
  void add_platform(cl_platform_id p, std::string& skipped) {
    cl_uint count = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) return;
    std::vector<cl_device_id> ids(count);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr);
    for (cl_device_id d : ids) {
      const std::string name = device_string(d, CL_DEVICE_NAME);
      if (!device_value<cl_bool>(d, CL_DEVICE_AVAILABLE) ||
          !device_value<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE)) {
        skipped += name + " is unavailable or has no compiler; ";
        continue;
      }
      try {
        const DeviceInfo info = describe(d, static_cast<int>(devices_.size()));
        devices_.push_back(std::make_unique<CompiledDevice>(
            info, std::make_unique<Driver>(info, traits_of(p, d))));
        view_.push_back(devices_.back().get());
      } catch (const DeviceError& e) {
        skipped += std::string(e.what()) + "; ";
      }
    }
  }

  std::vector<std::unique_ptr<CompiledDevice>> devices_;
  std::vector<switchyard::Device*> view_;
  std::string reason_;
};

}  // namespace

std::unique_ptr<switchyard::Backend> make_backend() {
  return std::make_unique<Backend>();
}

}  // namespace switchyard::opencl

#include "backends/cuda/cuda_backend.hpp"
#include "core/log.hpp"

#include <dlpack/dlpack.h>

#include <cstdio>
#include <vector>

#include "backends/compiled_device.hpp"
#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

// "12.4" from 12040.
std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

int attribute(CUdevice device, CUdevice_attribute which, const std::string& where) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute", where);
  return value;
}

DeviceInfo device_info(int index, std::string name, const PrimaryContext& context) {
  const CUdevice device = context.device();
  const std::string& where = context.where();
  DeviceInfo info;
  info.backend = "cuda";
  info.index = index;
  info.name = std::move(name);
  info.vendor = "NVIDIA";
  int version = 0;
  check(driver().cuDriverGetVersion(&version), "cuDriverGetVersion", where);
  info.driver_version = "CUDA " + version_text(version);
  info.kind = DeviceKind::GPU;
  info.compute_units = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, where);
  std::size_t total = 0, free_bytes = 0;
  {
    ContextScope scope(context);
    check(driver().cuMemGetInfo(&free_bytes, &total), "cuMemGetInfo", where);
  }
  info.global_memory_bytes = total;
  info.free_memory_bytes = free_bytes;
  // CUDA has no per-allocation limit below the device's memory.
  info.max_allocation_bytes = total;
  info.fp64 = true;
  info.fp16 = context.compute_capability() >= 53;
  // Even integrated GPUs (Jetson) cannot dereference the plain host pointers the runtime would
  // hand a unified-memory device, only pinned or registered ones; so every CUDA device gets
  // copies.
  info.unified_memory = false;
  return info;
}

class Backend final : public switchyard::Backend {
 public:
  Backend() { detect(); }
  // Devices first: they release contexts the driver still has to know about.
  ~Backend() override { devices_.clear(); }

  std::string_view name() const override { return "cuda"; }
  DriverErrorNames error_names() const override {
    return {"NVRTC_ERROR_COMPILATION", "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_OUT_OF_MEMORY",
            "CUDA_ERROR_DEVICE_UNAVAILABLE"};
  }
  int dlpack_device_type() const override { return kDLCUDA; }
  std::string unavailable_reason() const override { return reason_; }
  std::span<switchyard::Device* const> devices() override { return views_; }

 private:
  // A device that cannot be opened (another process holds it in exclusive mode, it has fallen
  // off the bus) is left out; the backend is unavailable only when no device is usable.
  void detect() {
    if (!driver_library().available()) {
      reason_ = driver_library().unavailable_reason;
      return;
    }
    int count = 0;
    if (const CUresult r = driver().cuDeviceGetCount(&count); r != CUDA_SUCCESS) {
      reason_ = "cuDeviceGetCount failed: " + describe(r);
      return;
    }
    std::string failures;
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      const std::string where = "CUDA device " + std::to_string(ordinal);
      try {
        CUdevice device = 0;
        check(driver().cuDeviceGet(&device, ordinal), "cuDeviceGet", where);
        // The driver's ordinal, even when an earlier device failed to open: DLPack's device_id
        // and CUDA_VISIBLE_DEVICES number devices so.
        const int index = ordinal;
        char name[256] = {};
        check(driver().cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName", where);
        auto context = std::make_shared<const PrimaryContext>(
            device, "cuda:" + std::to_string(index) + " (" + name + ")");
        const DeviceInfo info = device_info(index, name, *context);
        devices_.push_back(
            std::make_unique<CompiledDevice>(info, std::make_unique<Driver>(info, context)));
        views_.push_back(devices_.back().get());
      } catch (const Error& e) {
        failures += std::string(failures.empty() ? "" : "; ") + e.what();
      }
    }
    if (devices_.empty())
      reason_ = count == 0 ? "the NVIDIA driver reports no CUDA device"
                           : "no CUDA device could be opened: " + failures;
    else if (!failures.empty())
      log(LogLevel::Warn, "cuda: skipping devices: " + failures);
  }

  std::string reason_;
  std::vector<std::unique_ptr<CompiledDevice>> devices_;
  std::vector<switchyard::Device*> views_;
};

}  // namespace

std::unique_ptr<switchyard::Backend> make_backend() {
  return std::make_unique<Backend>();
}

}  // namespace switchyard::cuda

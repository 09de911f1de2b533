#include "backends/cuda/cuda_context.hpp"

#include "backends/cuda/cuda_error.hpp"

namespace switchyard::cuda {

PrimaryContext::PrimaryContext(CUdevice device, std::string where)
    : device_(device), where_(std::move(where)) {
  int major = 0, minor = 0;
  check(driver().cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
        "cuDeviceGetAttribute", where_);
  check(driver().cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
        "cuDeviceGetAttribute", where_);
  compute_capability_ = major * 10 + minor;
  check(driver().cuDevicePrimaryCtxRetain(&context_, device), "cuDevicePrimaryCtxRetain", where_);
}

// The result is ignored: at process exit the driver may already be shutting down.
PrimaryContext::~PrimaryContext() {
  driver().cuDevicePrimaryCtxRelease(device_);
}

ContextScope::ContextScope(const PrimaryContext& context) {
  check(driver().cuCtxPushCurrent(context.get()), "cuCtxPushCurrent", context.where());
}

ContextScope::~ContextScope() {
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

QuietContextScope::QuietContextScope(const PrimaryContext& context) noexcept
    : pushed_(driver().cuCtxPushCurrent(context.get()) == CUDA_SUCCESS) {}

QuietContextScope::~QuietContextScope() {
  CUcontext popped = nullptr;
  if (pushed_) driver().cuCtxPopCurrent(&popped);
}

}  // namespace switchyard::cuda

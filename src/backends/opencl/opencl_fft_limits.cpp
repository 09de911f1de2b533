#include "backends/opencl/opencl_fft_limits.hpp"

#include <algorithm>
#include <limits>

#include "switchyard/device.hpp"

namespace switchyard::opencl {
namespace {

thread_local const PlanLimits* active_limits = nullptr;

template <class T>
void cap(void* value, std::size_t size, T limit) {
  T* values = static_cast<T*>(value);
  for (std::size_t i = 0; i < size / sizeof(T); ++i) values[i] = std::min(values[i], limit);
}

}  // namespace

PlanLimits plan_limits(const DeviceInfo& info) {
  if (info.kind == DeviceKind::CPU) return {1024, 128 * 1024};
  return {std::numeric_limits<std::size_t>::max(), std::numeric_limits<cl_ulong>::max()};
}

PlanLimitsScope::PlanLimitsScope(const PlanLimits& limits) {
  active_limits = &limits;
}

PlanLimitsScope::~PlanLimitsScope() {
  active_limits = nullptr;
}

cl_int limited_device_info(cl_device_id device, cl_device_info param, std::size_t size, void* value,
                           std::size_t* size_returned) {
  const cl_int err = clGetDeviceInfo(device, param, size, value, size_returned);
  if (err != CL_SUCCESS || value == nullptr || active_limits == nullptr) return err;
  switch (param) {
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
      cap<std::size_t>(value, size, active_limits->work_group_items);
      break;
    case CL_DEVICE_LOCAL_MEM_SIZE:
      cap<cl_ulong>(value, size, active_limits->local_bytes);
      break;
    default:
      break;
  }
  return err;
}

}  // namespace switchyard::opencl

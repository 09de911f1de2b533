// The device limits VkFFT plans an FFT within, lowered where a device's own figures make VkFFT
// plan work-groups the device cannot run.
//
// VkFFT (1.2.x) reads CL_DEVICE_MAX_WORK_GROUP_SIZE and CL_DEVICE_LOCAL_MEM_SIZE itself and has no
// setting to lower them, so its one translation unit (opencl_fft.cpp) calls clGetDeviceInfo
// through limited_device_info, which caps them while a PlanLimitsScope is active on the thread.
#pragma once

#include <cstddef>

#include "backends/opencl/opencl_api.hpp"

namespace switchyard {
struct DeviceInfo;
}

namespace switchyard::opencl {

struct PlanLimits {
  std::size_t work_group_items;  // caps CL_DEVICE_MAX_WORK_GROUP_SIZE and each item size
  cl_ulong local_bytes;          // caps CL_DEVICE_LOCAL_MEM_SIZE
};

// The limits VkFFT plans within on `info`'s device.
//
// A CPU device (PoCL) reports work-groups of 4096 items and its L2 size as local memory (512 KiB
// here, 1 MiB or more on AVX-512 servers). VkFFT then plans transforms of up to that many bytes in
// one work-group, and PoCL runs a work-group on one worker thread, keeping every item's private
// values that live across barriers on that thread's stack: 512 KiB of transform needed 4-6 MiB of
// stack (measured by lowering `ulimit -s`), so a 1 MiB transform overflows the usual 8 MiB and
// the process dies with SIGSEGV inside the kernel. Capped at 1024 items and 128 KiB, every plan
// ran with 1 MiB of stack, whatever the machine's L2; on PoCL (2 cores) the capped plans also ran
// 1.3-3x faster (2^16 float32 fft 4.3-4.8 ms against 11-18 ms, 2^20 float64 rfft 22-24 ms against
// 31-48 ms) and compiled faster than 256 items and 64 KiB did. Other devices keep their figures.
PlanLimits plan_limits(const DeviceInfo& info);

// Caps what limited_device_info reports on this thread while it lives (plans nest nothing).
class PlanLimitsScope {
 public:
  explicit PlanLimitsScope(const PlanLimits& limits);
  ~PlanLimitsScope();
  PlanLimitsScope(const PlanLimitsScope&) = delete;
  PlanLimitsScope& operator=(const PlanLimitsScope&) = delete;
};

// clGetDeviceInfo, with the limits of the active PlanLimitsScope applied.
cl_int limited_device_info(cl_device_id device, cl_device_info param, std::size_t size, void* value,
                           std::size_t* size_returned);

}  // namespace switchyard::opencl

// A device's primary context, retained for a Device's lifetime. The primary context is the one
// the CUDA runtime API and libraries such as PyTorch use too, so memory and streams can be shared
// with them without a second context per process.
#pragma once

#include <string>

#include "backends/cuda/cuda_api.hpp"

namespace switchyard::cuda {

class PrimaryContext {
 public:
  // Retains the context; `where` names the device in error messages. Throws DeviceError.
  PrimaryContext(CUdevice device, std::string where);
  ~PrimaryContext();
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;

  CUdevice device() const { return device_; }
  int compute_capability() const { return compute_capability_; }  // major * 10 + minor, e.g. 90
  CUcontext get() const { return context_; }
  const std::string& where() const { return where_; }

 private:
  CUdevice device_;
  int compute_capability_ = 0;
  CUcontext context_ = nullptr;
  std::string where_;
};

// Makes a context current on this thread for one scope. Push and pop, rather than set, so that
// a context the caller had made current is restored.
class ContextScope {
 public:
  explicit ContextScope(const PrimaryContext& context);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
};

// The same where a failure must not throw: teardown, which may run while the driver shuts down
// at process exit, and out-of-memory messages. Work under it is skipped when the push failed.
class QuietContextScope {
 public:
  explicit QuietContextScope(const PrimaryContext& context) noexcept;
  ~QuietContextScope();
  QuietContextScope(const QuietContextScope&) = delete;
  QuietContextScope& operator=(const QuietContextScope&) = delete;
  explicit operator bool() const { return pushed_; }

 private:
  bool pushed_;
};

}  // namespace switchyard::cuda

// The backend registry: detects every backend once per process, in priority order, keeps the
// unavailable ones with their reason, and applies SWITCHYARD_BACKEND / SWITCHYARD_DISABLE.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"

namespace switchyard {

struct BackendStatus {
  Backend* backend;
  std::string reason;  // empty when usable; otherwise unavailable or disabled, and why
};

class Registry {
 public:
  // The process-wide registry; detection runs on first use. Throws ConfigError for a bad
  // SWITCHYARD_BACKEND or SWITCHYARD_DISABLE value, and BackendUnavailable when the backend
  // forced by SWITCHYARD_BACKEND cannot be used.
  static Registry& instance();

  // Every known backend, highest priority first, usable or not.
  std::span<const BackendStatus> backends() const { return status_; }

  // Devices of the usable backends, highest priority first (only the forced backend's when
  // SWITCHYARD_BACKEND names one).
  std::span<Device* const> devices() const { return devices_; }

  // The host CPU device; always present.
  Device& cpu() const { return *cpu_; }

  Backend* find(std::string_view name) const;

  Registry();  // detects; use instance() outside tests
  ~Registry();

 private:
  std::vector<std::unique_ptr<Backend>> owned_;
  std::vector<BackendStatus> status_;
  std::vector<Device*> devices_;
  Device* cpu_ = nullptr;
};

}  // namespace switchyard

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

// SWITCHYARD_BACKEND, SWITCHYARD_DISABLE and SWITCHYARD_REQUIRE_BACKENDS, checked against the
// backends this build knows.
struct BackendSettings {
  std::string choice;  // "auto" or one backend's name
  std::vector<std::string> disabled;
  std::vector<std::string> required;  // must be usable: a missing one is a failure, not a skip
  bool requires_backend(std::string_view name) const;
};

// Reads and checks the settings; throws ConfigError naming the valid backends for a bad value.
BackendSettings backend_settings();

// The backends this build knows, highest priority first, without detecting any.
std::vector<std::string_view> known_backends();

class Registry {
 public:
  // The process-wide registry; detection runs on first use. Throws ConfigError for a bad
  // setting (backend_settings), and BackendUnavailable when the backend forced by
  // SWITCHYARD_BACKEND, or one named by SWITCHYARD_REQUIRE_BACKENDS, cannot be used.
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

#include "backends/registry.hpp"

#include <algorithm>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/simd_target.hpp"
#include "backends/opencl/opencl_backend.hpp"
#ifdef SWITCHYARD_WITH_VULKAN
#include "backends/vulkan/vulkan_backend.hpp"
#endif
#ifdef SWITCHYARD_WITH_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif
#include "core/config.hpp"
#include "core/log.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

struct Entry {
  std::string_view name;
  std::unique_ptr<Backend> (*make)();
};

// Highest priority first. Adding a backend is one line here.
constexpr Entry kEntries[] = {
#ifdef SWITCHYARD_WITH_CUDA
    {"cuda", cuda::make_backend},
#endif
    {"opencl", opencl::make_backend},
#ifdef SWITCHYARD_WITH_VULKAN
    {"vulkan", vulkan::make_backend},
#endif
    {"cpu", cpu::make_backend},
};

std::string valid_names(bool with_auto) {
  std::string s = with_auto ? "auto" : "";
  for (const auto& e : kEntries) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

bool known(std::string_view name) {
  return std::any_of(std::begin(kEntries), std::end(kEntries),
                     [&](const Entry& e) { return e.name == name; });
}

// "detect: opencl: 1 device: opencl:0 = pthread-... (driver ...)", or why it is unavailable.
std::string detection_line(std::string_view name, Backend& b, const std::string& reason) {
  std::string line = "detect: " + std::string(name) + ": ";
  if (!reason.empty()) return line + "unavailable: " + reason;
  const auto devices = b.devices();
  line += std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices");
  for (std::size_t i = 0; i < devices.size(); ++i)
    line += (i ? "; " : ": ") + devices[i]->info().id() + " = " + devices[i]->info().name +
            " (driver " + devices[i]->info().driver_version + ")";
  return line;
}

}  // namespace

std::vector<std::string_view> known_backends() {
  std::vector<std::string_view> names;
  for (const auto& e : kEntries) names.push_back(e.name);
  return names;
}

BackendSettings backend_settings() {
  BackendSettings s;
  const char* backend_text = env_value("SWITCHYARD_BACKEND");
  s.choice = backend_text ? backend_text : "auto";
  if (s.choice != "auto" && !known(s.choice))
    throw ConfigError("SWITCHYARD_BACKEND='" + s.choice + "': expected one of " +
                      valid_names(true));
  const char* disable_text = env_value("SWITCHYARD_DISABLE");
  s.disabled = split_list(disable_text ? disable_text : "");
  for (const auto& d : s.disabled) {
    if (!known(d))
      throw ConfigError("SWITCHYARD_DISABLE names '" + d + "': expected a comma list of " +
                        valid_names(false));
    if (d == s.choice)
      throw ConfigError("SWITCHYARD_BACKEND='" + s.choice +
                        "' is also in SWITCHYARD_DISABLE: expected a backend that is not disabled");
  }
  const char* require_text = env_value("SWITCHYARD_REQUIRE_BACKENDS");
  s.required = split_list(require_text ? require_text : "");
  for (const auto& r : s.required)
    if (!known(r))
      throw ConfigError("SWITCHYARD_REQUIRE_BACKENDS names '" + r + "': expected a comma list of " +
                        valid_names(false));
  return s;
}

bool BackendSettings::requires_backend(std::string_view name) const {
  return std::find(required.begin(), required.end(), name) != required.end();
}

Registry& Registry::instance() {
  // Never destroyed: threads the program left running may be between driver calls, reading
  // their devices, while exit destroys statics (driver_calls.hpp); the drivers release what the
  // devices hold with the process.
  static Registry* registry = new Registry;
  return *registry;
}

Registry::Registry() {
  // Detection calls into every driver (PoCL initialises itself here): exit waits for it too.
  const DriverCall detecting;
  // Settings are checked once, up front: a typo fails the first operation, not a later one.
  log_enabled(LogLevel::Error);
  memory_reserve_fraction();
  cpu::simd_cap();
  const BackendSettings settings = backend_settings();
  const std::string& choice = settings.choice;
  const auto& disabled = settings.disabled;
  const char* disable_text = env_value("SWITCHYARD_DISABLE");
  const bool forced = choice != "auto";

  for (const auto& entry : kEntries) {
    owned_.push_back(entry.make());
    Backend* b = owned_.back().get();
    std::string reason = b->unavailable_reason();
    if (reason.empty() && std::find(disabled.begin(), disabled.end(), entry.name) != disabled.end())
      reason = "disabled by SWITCHYARD_DISABLE";
    if (reason.empty() && forced && entry.name != choice)
      reason = "not selected: SWITCHYARD_BACKEND=" + choice;
    if (entry.name == "cpu") cpu_ = b->devices().front();
    if (reason.empty())
      for (Device* d : b->devices()) devices_.push_back(d);
    if (log_enabled(LogLevel::Info)) log(LogLevel::Info, detection_line(entry.name, *b, reason));
    // Only a backend missing from the machine counts: a disabled one was left out on purpose.
    if (!b->available() && settings.requires_backend(entry.name))
      throw BackendUnavailable("SWITCHYARD_REQUIRE_BACKENDS names " + std::string(entry.name) +
                               ", which is not usable here: " + b->unavailable_reason() +
                               "; expected it usable, or leave it out of the list");
    status_.push_back({b, std::move(reason)});
  }
  if (!forced && devices_.empty())
    throw ConfigError("no usable backend: every one is unavailable or in SWITCHYARD_DISABLE='" +
                      std::string(disable_text ? disable_text : "") +
                      "': expected at least one of " + valid_names(false) + " left enabled");
  if (forced && devices_.empty()) {
    const Backend* b = find(choice);
    throw BackendUnavailable("SWITCHYARD_BACKEND=" + choice +
                             " but that backend is unavailable: " + b->unavailable_reason());
  }
}

Registry::~Registry() = default;

Backend* Registry::find(std::string_view name) const {
  for (const auto& s : status_)
    if (s.backend->name() == name) return s.backend;
  return nullptr;
}

}  // namespace switchyard

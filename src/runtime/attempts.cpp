#include "runtime/attempts.hpp"
#include "core/log.hpp"

#include "core/config.hpp"
#include "switchyard/error.hpp"
#include "switchyard/fallback.hpp"

namespace switchyard {
namespace {

thread_local int strict_depth = 0;

bool fallback_from_environment() {
  const char* text = env_value("SWITCHYARD_FALLBACK");
  if (!text || std::string_view(text) == "on") return true;
  if (std::string_view(text) == "off") return false;
  throw ConfigError(std::string("SWITCHYARD_FALLBACK='") + text +
                    "': expected on (move failed work to the next device, the default) or off "
                    "(raise the first device's error)");
}

}  // namespace

StrictScope::StrictScope() {
  ++strict_depth;
}
StrictScope::~StrictScope() {
  --strict_depth;
}

bool fallback_enabled() {
  // Read once; a bad value throws here, and again on every call until it is fixed.
  static const bool from_environment = fallback_from_environment();
  return strict_depth == 0 && from_environment;
}

namespace runtime {

std::string_view error_type_name(const std::exception& error) {
  // Most derived first: every class below derives from Error.
  if (dynamic_cast<const CompileError*>(&error)) return "CompileError";
  if (dynamic_cast<const OutOfMemory*>(&error)) return "OutOfMemory";
  if (dynamic_cast<const DeviceError*>(&error)) return "DeviceError";
  if (dynamic_cast<const BackendUnavailable*>(&error)) return "BackendUnavailable";
  if (dynamic_cast<const AllDevicesFailed*>(&error)) return "AllDevicesFailed";
  if (dynamic_cast<const ShapeError*>(&error)) return "ShapeError";
  if (dynamic_cast<const DTypeError*>(&error)) return "DTypeError";
  if (dynamic_cast<const ValueError*>(&error)) return "ValueError";
  if (dynamic_cast<const ConfigError*>(&error)) return "ConfigError";
  if (dynamic_cast<const Error*>(&error)) return "Error";
  return "std::exception";
}

Attempt make_attempt(std::string device, std::string_view stage, const std::exception& error) {
  return {std::move(device), std::string(stage), std::string(error_type_name(error)), error.what()};
}

void throw_all_failed(const std::vector<Attempt>& attempts, std::string_view label) {
  if (attempts.empty())
    throw AllDevicesFailed("no device could run " + std::string(label) +
                           ": expected at least one usable device, but every candidate is "
                           "disabled or unavailable; see `switchyard info`");
  std::string message = "every device failed to run " + std::string(label) + " (" +
                        std::to_string(attempts.size()) + " attempts):";
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const Attempt& a = attempts[i];
    message += "\n  " + std::to_string(i + 1) + ". " + a.device + " at " + a.stage + ": " +
               a.error_type + ": " + a.message;
  }
  message +=
      "\nFix the first cause above, or pin a working device with DeviceScope or "
      "SWITCHYARD_BACKEND; SWITCHYARD_FAULT, when set, injects some of these failures";
  throw AllDevicesFailed(message);
}

std::string fallback_message(const Attempt& failed, std::string_view label,
                             std::string_view next_device) {
  return std::string(label) + " failed on " + failed.device + " at " + failed.stage + " (" +
         failed.error_type + ": " + failed.message + "); " +
         (next_device.empty() ? "no device left to try" : "trying " + std::string(next_device));
}

void log_fallback(const Attempt& failed, std::string_view label, std::string_view next_device) {
  if (log_enabled(LogLevel::Warn))
    log(LogLevel::Warn, fallback_message(failed, label, next_device));
}

DeviceHealth::DeviceHealth(int max_failures, LogSink log)
    : max_failures_(max_failures), log_(std::move(log)) {
  if (!log_) log_ = [](std::string_view line) { switchyard::log(LogLevel::Warn, line); };
}

bool DeviceHealth::record_failure(const std::string& device_id, const std::exception& error) {
  if (dynamic_cast<const OutOfMemory*>(&error)) return false;
  std::string line;
  {
    std::lock_guard lock(mutex_);
    State& s = states_[device_id];
    if (s.disabled) return false;
    if (s.consecutive_failures++ == 0) failing_count_.fetch_add(1, std::memory_order_release);
    if (s.consecutive_failures < max_failures_) return false;
    s.disabled = true;
    failing_count_.fetch_sub(1, std::memory_order_release);  // never succeeds again: not "failing"
    disabled_count_.fetch_add(1, std::memory_order_release);
    line = "disabling " + device_id + " for this process after " +
           std::to_string(s.consecutive_failures) + " failures: " + error.what();
  }
  log_(line);  // outside the lock: a sink may be slow or log through Switchyard itself
  return true;
}

void DeviceHealth::record_success(const std::string& device_id) {
  if (failing_count_.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(mutex_);
  const auto it = states_.find(device_id);
  if (it == states_.end() || it->second.consecutive_failures == 0 || it->second.disabled) return;
  it->second.consecutive_failures = 0;
  failing_count_.fetch_sub(1, std::memory_order_release);
}

bool DeviceHealth::disabled(std::string_view device_id) const {
  if (disabled_count_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(mutex_);
  const auto it = states_.find(device_id);
  return it != states_.end() && it->second.disabled;
}

std::vector<std::string> DeviceHealth::disabled_devices() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;
  for (const auto& [id, s] : states_)
    if (s.disabled) ids.push_back(id);
  return ids;
}

void DeviceHealth::reset() {
  std::lock_guard lock(mutex_);
  states_.clear();
  failing_count_.store(0, std::memory_order_release);
  disabled_count_.store(0, std::memory_order_release);
}

DeviceHealth& device_health() {
  static DeviceHealth* health = new DeviceHealth;  // never destroyed: work may outlive statics
  return *health;
}

}  // namespace runtime
}  // namespace switchyard

// Fallback bookkeeping for the executor: what each device attempt did, the one error raised when
// every device failed, and the per-device failure counts that disable a device that keeps failing.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/device.hpp"

namespace switchyard::runtime {

// One device's failed try at a piece of work.
struct Attempt {
  std::string device;      // "opencl:0"
  std::string stage;       // "compile", "allocate", "transfer", "launch"
  std::string error_type;  // "CompileError", "OutOfMemory", "DeviceError", ...
  std::string message;     // the error's own message, unchanged
};

// The class name of a Switchyard error ("DeviceError"), or "std::exception" for others.
std::string_view error_type_name(const std::exception& error);

Attempt make_attempt(std::string device, std::string_view stage, const std::exception& error);

// Throws AllDevicesFailed naming the work (`label`, e.g. "add f32") and listing every attempt
// with its cause, in the order they were made.
[[noreturn]] void throw_all_failed(const std::vector<Attempt>& attempts, std::string_view label);

// "add f32 failed on opencl:0 at launch (DeviceError: ...); trying cpu:0", ending
// "no device left to try" when `next_device` is empty.
std::string fallback_message(const Attempt& failed, std::string_view label,
                             std::string_view next_device);
// Logs fallback_message as a warning: a fallback is never silent (each distinct one once).
void log_fallback(const Attempt& failed, std::string_view label, std::string_view next_device);

// Consecutive failures per device. After `max_failures` in a row a device is disabled for the
// rest of the process, with one log line. Out-of-memory does not count: it says the work was too
// big for the device, not that the device is broken, and smaller work should still go there.
class DeviceHealth {
 public:
  using LogSink = std::function<void(std::string_view line)>;
  static constexpr int kDefaultMaxFailures = 3;

  // `log` receives the disabling line; the default writes it to stderr.
  explicit DeviceHealth(int max_failures = kDefaultMaxFailures, LogSink log = {});

  // Returns true when this failure disabled the device.
  bool record_failure(const std::string& device_id, const std::exception& error);
  // Hot path: one atomic load while no device has a failure outstanding.
  void record_success(const std::string& device_id);

  // Hot path: one atomic load while no device is disabled (the device's id is not even made).
  bool disabled(std::string_view device_id) const;
  bool disabled(const DeviceInfo& device) const {
    return disabled_count_.load(std::memory_order_acquire) != 0 && disabled(device.id());
  }
  std::vector<std::string> disabled_devices() const;

  // Forgets every count and re-enables every device (tests).
  void reset();

 private:
  struct State {
    int consecutive_failures = 0;
    bool disabled = false;
  };
  int max_failures_;
  LogSink log_;
  // Counts let the hot path skip the lock while nothing has failed or been disabled.
  std::atomic<int> failing_count_{0};  // devices with a failure since their last success
  std::atomic<int> disabled_count_{0};
  mutable std::mutex mutex_;  // guards states_
  std::map<std::string, State, std::less<>> states_;
};

// The process's device health, used by the executor.
DeviceHealth& device_health();

}  // namespace switchyard::runtime

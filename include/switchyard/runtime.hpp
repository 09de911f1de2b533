// The runtime as a user sees it: which backends and devices exist, and waiting for work.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "switchyard/device.hpp"

namespace switchyard {

struct BackendReport {
  std::string name;
  bool usable = false;
  std::string reason;  // why not usable: no driver, disabled, not selected
  std::vector<DeviceInfo> devices;
};

// Every backend Switchyard knows, highest priority first, usable or not.
std::vector<BackendReport> backends();

// Devices work may run on (usable backends only), highest priority first.
std::vector<DeviceInfo> devices();

// One SWITCHYARD_* variable as this process sees it.
struct Setting {
  std::string name;
  std::string value;  // empty when unset
  std::string default_value;
  std::string meaning;
  std::string problem;  // empty when the value is valid; otherwise what is wrong and expected
};

// Every variable Switchyard reads, each checked without raising, so a tool can show all of them
// with the bad ones marked.
std::vector<Setting> settings();

// Pins the work this thread submits to one device ("cpu:0", "opencl:0") while the scope lives,
// overriding the scheduler; on the CPU, "cpu:0/inline" runs on the calling thread only and
// "cpu:0/parallel" on every core. Throws BackendUnavailable naming the valid ids when there is
// no such device. Scopes nest.
class DeviceScope {
 public:
  explicit DeviceScope(std::string_view device_id);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  void* previous_device_;
  unsigned char previous_parallelism_;
};

// Waits until all submitted work on every device has finished.
void synchronize();

}  // namespace switchyard

// The runtime as a user sees it: which backends and devices exist, and waiting for work.
#pragma once

#include <string>
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

// Waits until all submitted work on every device has finished.
void synchronize();

}  // namespace switchyard

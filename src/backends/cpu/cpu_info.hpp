// What the host reports about its processor and memory, as a DeviceInfo.
#pragma once

#include "switchyard/device.hpp"

namespace switchyard::cpu {

DeviceInfo detect_cpu_info();

}  // namespace switchyard::cpu

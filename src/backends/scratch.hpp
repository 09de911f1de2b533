// A plan's scratch buffers (codegen's kernel and library plans), back to the device's pool once
// the launches are queued: a device runs its work in order, so whoever the pool hands a buffer to
// next runs after these launches.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "backends/backend.hpp"

namespace switchyard {

class Scratch {
 public:
  Scratch(Device& device, std::span<const std::size_t> bytes) : device_(device) {
    try {
      for (std::size_t b : bytes) memory_.push_back(device.allocate(b));
    } catch (...) {
      release();
      throw;
    }
  }
  ~Scratch() { release(); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  const std::vector<DeviceMemory>& memory() const { return memory_; }

 private:
  void release() {
    for (const DeviceMemory& m : memory_) device_.free(m);
    memory_.clear();
  }

  Device& device_;
  std::vector<DeviceMemory> memory_;
};

}  // namespace switchyard

// Library operations on a CUDA device (backend.hpp's LibraryOp): one routine per op.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace switchyard::cuda {

class Device;

class LibraryRoutine : public Executable {
 public:
  explicit LibraryRoutine(const Device& device) : device_(device) {}
  const Device& device() const { return device_; }  // the device it was prepared for
  // Enqueues the op on the device's stream (its context current); returns before it runs.
  virtual void launch(Device& device, const LibraryArgs& args) const = 0;

 private:
  const Device& device_;
};

// Throws DTypeError for a dtype the op does not take.
std::shared_ptr<LibraryRoutine> prepare_library(Device& device, const LibraryOp& op);

}  // namespace switchyard::cuda

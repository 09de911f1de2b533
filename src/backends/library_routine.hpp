// A library op (LibraryOp) prepared for one device: what a backend's do_prepare_library returns
// and its do_launch_library runs, whatever does the work (a vendor library such as OpenBLAS,
// CLBlast or cuBLAS, FFTW/VkFFT/cuFFT, or kernels codegen/library_kernels.hpp renders). One base
// for every backend, on the backend's own device type.
#pragma once

#include <string>

#include "backends/backend.hpp"
#include "switchyard/error.hpp"

namespace switchyard {

template <class DeviceType>
class LibraryRoutine : public Executable {
 public:
  LibraryRoutine(DeviceType& device, const LibraryOp& op) : device_(device), op_(op) {}

  DeviceType& device() const { return device_; }  // the one it was prepared for, and runs on
  const LibraryOp& op() const { return op_; }
  // Runs the op on device(): a device with a queue enqueues it and returns before it runs.
  virtual void launch(const LibraryArgs& args) = 0;

 private:
  DeviceType& device_;
  LibraryOp op_;
};

// `exe` as the routine `device` prepared, or ValueError for an executable prepared elsewhere
// (another device, or a kernel rather than a library op).
template <class DeviceType>
LibraryRoutine<DeviceType>& routine_on(Executable& exe, const switchyard::Device& device) {
  auto* routine = dynamic_cast<LibraryRoutine<DeviceType>*>(&exe);
  if (!routine || &routine->device() != &device)
    throw ValueError(
        "library op launched on " + device.info().id() +
        " with an executable prepared elsewhere: prepare it on the device that runs it");
  return *routine;
}

}  // namespace switchyard

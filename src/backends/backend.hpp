// The backend interface. A Backend detects its devices once; a Device allocates, copies,
// prepares executables from Kernel IR or a library op, launches and synchronizes.
//
// Non-virtual interface: each public method checks its arguments and translates nothing twice,
// holds a DriverCall (exit waits for calls in flight: driver_calls.hpp), then calls the private
// do_...() that a backend implements. Backends throw typed errors (OutOfMemory, DeviceError,
// CompileError) whose messages keep the driver's own error names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/driver_calls.hpp"
#include "ir/kernel_ir.hpp"
#include "ir/launch.hpp"
#include "switchyard/device.hpp"
#include "switchyard/shape.hpp"

namespace switchyard {

// A kernel or library op made ready to launch on one device.
class Executable {
 public:
  virtual ~Executable() = default;
};

// Launches recorded once and replayed with one call (a CUDA graph), over the memory and
// arguments they were recorded with. What it holds is the backend's own.
class LaunchGraph {
 public:
  virtual ~LaunchGraph() = default;
};

class Device {
 public:
  explicit Device(DeviceInfo info) : info_(std::move(info)), id_(info_.id()) {}
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return info_; }
  // info().id(), made once: metrics name the device of every run.
  const std::string& id() const { return id_; }

  // Throws OutOfMemory naming the device, the size asked and the device's limit.
  DeviceMemory allocate(std::size_t bytes);
  void free(DeviceMemory memory) {
    const DriverCall call;
    if (memory) do_free(memory);
  }

  // Copies return when the data has arrived (the source may be reused at once).
  void copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src, std::size_t bytes);
  void copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset, std::size_t bytes);
  void copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                   std::size_t src_offset, std::size_t bytes);

  std::shared_ptr<Executable> prepare(const ir::Kernel& kernel) {
    const DriverCall call;
    return do_prepare(kernel);
  }
  std::shared_ptr<Executable> prepare(const LibraryOp& op) {
    const DriverCall call;
    return do_prepare_library(op);
  }
  // The routines and arithmetic the device has (ir/launch.hpp's Needs), as its DeviceInfo says:
  // the library ops' routines (library_ops), FFTs (fft), the dense solvers, which only a device
  // with a solver library has (dense_solvers), and float64 (fp64). The scheduler never places work
  // on a device without what it needs.
  Needs has() const;
  bool runs(LibraryOp::Kind kind) const { return (has() & needs_routine(kind)) != 0; }

  // Launches may be asynchronous; synchronize() waits for all work on the device.
  void launch(Executable& exe, const LaunchArgs& args) {
    const DriverCall call;
    do_launch(exe, args);
  }
  void launch(Executable& exe, const LibraryArgs& args) {
    const DriverCall call;
    do_launch_library(exe, args);
  }
  void synchronize() {
    const DriverCall call;
    do_synchronize();
  }

  // ---- optional: launch graphs (captured replay records its launches into one)
  // Between begin_graph() and end_graph() this thread's launches on the device are recorded,
  // not run; the launches must not allocate, copy or wait. end_graph() also ends a recording
  // that failed part-way (and then throws DeviceError). launch_graph() runs a graph's launches
  // in their order, asynchronously like launch().
  bool supports_graphs() const { return do_supports_graphs(); }
  void begin_graph() {
    const DriverCall call;
    do_begin_graph();
  }
  std::unique_ptr<LaunchGraph> end_graph() {
    const DriverCall call;
    return do_end_graph();
  }
  void launch_graph(LaunchGraph& graph) {
    const DriverCall call;
    do_launch_graph(graph);
  }

 private:
  virtual DeviceMemory do_allocate(std::size_t bytes) = 0;
  virtual void do_free(DeviceMemory memory) = 0;
  virtual void do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                                 std::size_t bytes) = 0;
  virtual void do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                               std::size_t bytes) = 0;
  virtual void do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                              std::size_t src_offset, std::size_t bytes) = 0;
  virtual std::shared_ptr<Executable> do_prepare(const ir::Kernel& kernel) = 0;
  virtual std::shared_ptr<Executable> do_prepare_library(const LibraryOp& op) = 0;
  virtual void do_launch(Executable& exe, const LaunchArgs& args) = 0;
  virtual void do_launch_library(Executable& exe, const LibraryArgs& args) = 0;
  virtual void do_synchronize() = 0;
  // Launch graphs: none unless a backend overrides all four (the defaults throw ValueError).
  virtual bool do_supports_graphs() const { return false; }
  virtual void do_begin_graph();
  virtual std::unique_ptr<LaunchGraph> do_end_graph();
  virtual void do_launch_graph(LaunchGraph& graph);

  DeviceInfo info_;
  std::string id_;
};

// What a backend's driver calls each kind of failure, so that injected faults
// (SWITCHYARD_FAULT) read like real ones.
struct DriverErrorNames {
  std::string_view compile = "build failed", launch = "launch failed",
                   out_of_memory = "allocation failed", lost = "device unavailable";
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual DriverErrorNames error_names() const { return {}; }
  // The DLPack device type of this backend's memory (kDLCUDA, ...); 0 when DLPack exchanges it
  // through the host.
  virtual int dlpack_device_type() const { return 0; }
  // Empty when available; otherwise why not (no driver, no platform, ...).
  virtual std::string unavailable_reason() const = 0;
  bool available() const { return unavailable_reason().empty(); }
  virtual std::span<Device* const> devices() = 0;
};

}  // namespace switchyard

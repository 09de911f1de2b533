// A recording replayed as one launch graph (a CUDA graph): when every launch runs on one device
// that supports graphs and each can be recorded into one (backend.hpp), the launches are recorded
// into a graph once, over memory the graph keeps: a staging buffer per input and a buffer per
// output. A replay then copies the inputs in, launches the graph, and copies the outputs into
// fresh buffers, since the caller gets new arrays every time.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backends/backend.hpp"
#include "runtime/executor.hpp"

namespace switchyard::runtime {

class Recording;

class ReplayGraph {
 public:
  // The graph of `recording`'s launches for inputs laid out as `inputs`, or null when there can
  // be none (several devices, a host device, a launch a graph cannot hold, a strided input) or
  // the device failed to record it (logged; the recording then replays launch by launch).
  static std::unique_ptr<ReplayGraph> build(Recording& recording, std::span<const View> inputs);

  // Replays the graph over `inputs`; the outputs' fresh buffers go into the recording's bound
  // slots. Throws the device's typed errors.
  void run(Recording& recording, std::span<const View> inputs);

 private:
  explicit ReplayGraph(Device& device) : device_(&device) {}
  bool record(Recording& recording, std::span<const View> inputs);

  Device* device_;
  std::vector<std::shared_ptr<Buffer>> held_;  // per slot: staging (inputs), outputs' buffers
  std::vector<DeviceMemory> held_memory_;      // their memory on device_
  std::unique_ptr<LaunchGraph> graph_;
};

}  // namespace switchyard::runtime

// Predicted time of a workload on a candidate: compile (0 when cached) + transfers of inputs not
// resident there + transfer of the result to where it is read next (the host, or another device)
// + launch latency + max(bytes / bandwidth, work / throughput).
#pragma once

#include <span>

#include "scheduler/device_model.hpp"
#include "scheduler/workload.hpp"

namespace switchyard::scheduler {

struct CostBreakdown {
  double compile_s = 0;
  double transfer_s = 0;         // inputs in, and the result to where it is read next
  double result_transfer_s = 0;  // the result's part of transfer_s
  double launch_s = 0;
  double compute_s = 0;
  double total_s() const { return compile_s + transfer_s + launch_s + compute_s; }
};

// `device_index` is the candidate's index in the device list (for residency); `compiled` says
// whether the kernel is ready there. `sources[j]` is the model of device j, whose
// device-to-host figures price data that must first come back from it; where absent (or null)
// the candidate's own figures stand in.
CostBreakdown predict(const Workload& w, const DeviceModel& m, int device_index, bool compiled,
                      std::span<const DeviceModel* const> sources = {});

// The inputs-in part of predict()'s transfer_s: moving w's inputs to the candidate.
double inputs_transfer_s(const Workload& w, const DeviceModel& m, int device_index,
                         std::span<const DeviceModel* const> sources = {});

// Whether the candidate can hold the working set: what is not resident there yet (inputs to copy
// in, the result) must fit in free memory minus the reserve fraction.
bool fits(const Workload& w, const DeviceModel& m, double reserve_fraction);

}  // namespace switchyard::scheduler

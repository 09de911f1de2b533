// Calibration: measures a DeviceModel on the real device (never datasheet constants).
//
// Each parameter comes from a small probe run several times (the median is kept, so a stray
// timing spike does not skew the model): an empty launch, small and large copies, a streaming
// a+b kernel, chains of cheap and of transcendental operations, a gemm, and fresh kernel
// compiles. Quick depth is what the first auto decision on an uncalibrated machine runs (well
// under a second for CPU + PoCL); Full is `switchyard calibrate` (a few seconds).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "scheduler/device_model.hpp"

namespace switchyard::scheduler {

enum class CalibrationDepth { Quick, Full };

// Called before each step: candidate name ("opencl:0"), step ("launch", "gemm", ...), and the
// fraction of this candidate's steps already done.
using CalibrationProgress =
    std::function<void(std::string_view candidate, std::string_view step, double fraction)>;

// "cpu:0/inline", "cpu:0/parallel" for the CPU (host-addressable) device, else the device id.
std::string candidate_name(const DeviceInfo& info, bool inline_cpu);

// Measures one candidate. For the CPU, `inline_cpu` picks how its kernels run (the CPU
// backend's parallel threshold is set for the probes and restored afterwards); other devices
// ignore it. Throws what the device throws (the caller decides whether to skip the device).
DeviceModel calibrate(Device& device, bool inline_cpu, CalibrationDepth depth,
                      const CalibrationProgress& progress = {});

// A candidate to calibrate: a device, and for the host whether inline (true) or parallel.
struct CandidateRef {
  Device* device;
  bool inline_cpu;
};

// Every candidate of every usable device in the registry, in registry order; the host gives
// two (inline, then parallel).
std::vector<CandidateRef> all_candidates();

// Measures each candidate; one whose probes fail is left out with one warning.
std::vector<DeviceModel> calibrate_candidates(std::span<const CandidateRef> candidates,
                                              CalibrationDepth depth,
                                              const CalibrationProgress& progress = {});

// calibrate_candidates(all_candidates(), ...).
std::vector<DeviceModel> calibrate_all(CalibrationDepth depth,
                                       const CalibrationProgress& progress = {});

}  // namespace switchyard::scheduler

// The calibrated model of one candidate: measured on this machine by calibration (never datasheet
// constants), and pure data so the decision logic is testable with models written in a test.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ir/launch.hpp"

namespace switchyard::scheduler {

// A way to run work: a device, and for the CPU whether on the caller's thread (inline: no
// dispatch cost) or on every core (parallel).
struct CandidateId {
  int device = 0;  // index in Registry::devices()
  bool inline_cpu = false;
  bool operator==(const CandidateId&) const = default;
};

struct DeviceModel {
  std::string name;  // "cpu:0/inline", "cpu:0/parallel", "opencl:0", "cuda:0"
  CandidateId id;    // id.device is the residency bit (InputPlacement::device_mask) it reads
  bool host_addressable = false;  // reads host memory directly: no transfers
  double launch_s = 0;            // launch + wait of an empty kernel
  double h2d_latency_s = 0, h2d_bytes_per_s = 1;
  double d2h_latency_s = 0, d2h_bytes_per_s = 1;
  double memory_bytes_per_s = 1;                    // streaming kernel bandwidth
  double arithmetic_per_s = 1;                      // cheap elementwise operations per second
  double transcendental_per_s = 1;                  // sin/exp/... per second
  double flops_per_s = 1;                           // BLAS gemm
  double compile_base_s = 0, compile_per_op_s = 0;  // 0 where nothing is compiled
  // Free now, so buffers already resident there are excluded; 0: unknown (never excludes).
  std::uint64_t free_memory_bytes = 0;
  // Routines and float64 (Device::has): what the device is, not measured, so not saved.
  Needs has = kEveryRoutine | kNeedsFloat64;
};

// The device of a candidate name: "cpu:0/inline" -> "cpu:0".
inline std::string device_of(std::string_view candidate) {
  return std::string(candidate.substr(0, candidate.find('/')));
}

}  // namespace switchyard::scheduler

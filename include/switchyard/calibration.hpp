// Calibration: measuring what each candidate (every device; the host twice, inline on the
// calling thread and in parallel on every core) costs, which the scheduler's model predicts from.
// A process calibrates the host at start-up when no saved profile exists; calibrate() measures
// everything again, for example after a driver or hardware change.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard {

// What one candidate measured.
struct CandidateModel {
  std::string name;               // "cpu:0/inline", "cpu:0/parallel", "opencl:0", "cuda:0"
  bool host_addressable = false;  // reads host memory in place: no transfers
  double launch_s = 0;            // launching an empty kernel and waiting for it
  double h2d_latency_s = 0, h2d_bytes_per_s = 0;
  double d2h_latency_s = 0, d2h_bytes_per_s = 0;
  double memory_bytes_per_s = 0;    // a streaming kernel's bandwidth
  double arithmetic_per_s = 0;      // cheap elementwise operations
  double transcendental_per_s = 0;  // sin, exp, ...
  double flops_per_s = 0;           // BLAS gemm
  double compile_base_s = 0, compile_per_op_s = 0;
  std::uint64_t free_memory_bytes = 0;  // 0: unknown
};

struct Calibration {
  std::vector<CandidateModel> candidates;
  std::string profile_path;  // where it was saved; empty when no cache directory is set
  double seconds = 0;
};

// Called before each step: the candidate, the step ("launch", "gemm", ...) and the fraction of
// that candidate's steps already done.
using CalibrationProgress =
    std::function<void(std::string_view candidate, std::string_view step, double fraction)>;

// Measures every candidate (quick: fewer and smaller probes), saves the profile with the history
// measured so far, and makes this process's scheduler use the new models at once. A candidate
// whose probes fail is left out with a warning.
Calibration calibrate(bool quick = false, const CalibrationProgress& progress = {});

}  // namespace switchyard

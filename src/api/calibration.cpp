#include "switchyard/calibration.hpp"

#include <chrono>

#include "runtime/placement.hpp"
#include "scheduler/calibration.hpp"
#include "scheduler/profile.hpp"

namespace switchyard {
namespace {

CandidateModel to_public(const scheduler::DeviceModel& m) {
  return {m.name,
          m.host_addressable,
          m.launch_s,
          m.h2d_latency_s,
          m.h2d_bytes_per_s,
          m.d2h_latency_s,
          m.d2h_bytes_per_s,
          m.memory_bytes_per_s,
          m.arithmetic_per_s,
          m.transcendental_per_s,
          m.flops_per_s,
          m.compile_base_s,
          m.compile_per_op_s,
          m.free_memory_bytes};
}

}  // namespace

Calibration calibrate(bool quick, const CalibrationProgress& progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto models = scheduler::calibrate_all(
      quick ? scheduler::CalibrationDepth::Quick : scheduler::CalibrationDepth::Full, progress);
  Calibration result;
  // Measured history stays valid across a recalibration: keep the saved one.
  const auto path = scheduler::profile_path();
  if (!path.empty()) {
    const auto old = scheduler::load_profile(path);
    scheduler::save_profile(models, old ? old->history : scheduler::History{}, path);
    result.profile_path = path.string();
  }
  runtime::Placement::instance().use_models(models);
  for (const auto& m : models) result.candidates.push_back(to_public(m));
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace switchyard

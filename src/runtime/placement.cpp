#include "runtime/placement.hpp"
#include "core/log.hpp"

#include <cstdio>

#include "backends/registry.hpp"
#include "core/config.hpp"
#include "runtime/fault_injection.hpp"
#include "switchyard/fallback.hpp"
#include "scheduler/calibration.hpp"
#include "scheduler/profile.hpp"
#include "switchyard/error.hpp"

namespace switchyard::runtime {

Placement& Placement::instance() {
  static Placement placement;
  return placement;
}

Placement::Placement() {
  // Runtime settings are checked before any work runs (ConfigError on a bad value).
  fallback_enabled();
  if (const char* faults = env_value("SWITCHYARD_FAULT")) parse_fault_spec(faults);
  scheduler::Profile profile;
  try {
    profile = scheduler::load_or_calibrate(scheduler::CalibrationDepth::Quick);
  } catch (const ConfigError&) {
    throw;
  } catch (const Error& e) {
    log(LogLevel::Warn,
        std::string("calibration failed (") + e.what() + "); placing work by backend priority");
    return;
  }
  auto models = scheduler::scheduler_models(profile);
  if (models.empty()) return;
  const auto devices = Registry::instance().devices();
  for (const auto& m : models) {
    Device* d = devices[m.id.device];
    const Parallelism p = !d->info().host_addressable ? Parallelism::Auto
                          : m.id.inline_cpu           ? Parallelism::Inline
                                                      : Parallelism::Parallel;
    candidates_.push_back({d, p, static_cast<int>(candidates_.size())});
  }
  scheduler::SchedulerOptions options;
  options.memory_reserve = memory_reserve_fraction();
  scheduler_ = std::make_unique<scheduler::Scheduler>(std::move(models), options);
  scheduler_->history() = profile.history;
}

Placement::~Placement() {
  if (!scheduler_) return;
  try {
    auto profile = scheduler::load_profile();
    scheduler::save_profile(profile ? profile->models : scheduler_->models(),
                            scheduler_->history());
  } catch (const std::exception& e) {
    log(LogLevel::Warn, std::string("could not save the execution history: ") + e.what());
  }
}

std::vector<Candidate> Placement::priority_order() const {
  std::vector<Candidate> order;
  for (Device* d : Registry::instance().devices()) order.push_back({d, Parallelism::Auto, -1});
  return order;
}

void add_residency(scheduler::Workload& w, std::span<const Buffer* const> inputs) {
  const auto devices = Registry::instance().devices();
  w.inputs.clear();
  // Eager work does not say whether its result will be read on the host next. Assume it will
  // when every input is on the host (the data lives there), and that it stays on the device
  // when an input already lives on one (the caller keeps work there).
  w.result_to_host = true;
  for (const Buffer* b : inputs) {
    w.inputs.push_back(b->placement(devices));
    w.result_to_host = w.result_to_host && w.inputs.back().on_host;
  }
}

}  // namespace switchyard::runtime

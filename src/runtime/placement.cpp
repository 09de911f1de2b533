#include "runtime/placement.hpp"

#include "backends/registry.hpp"
#include "core/cancellation.hpp"
#include "core/config.hpp"
#include "core/log.hpp"
#include "runtime/background.hpp"
#include "runtime/fault_injection.hpp"
#include "runtime/result_destination.hpp"
#include "scheduler/calibration.hpp"
#include "switchyard/error.hpp"
#include "switchyard/fallback.hpp"

namespace switchyard::runtime {

using scheduler::CalibrationDepth;
using scheduler::CalibrationScope;

// How long a process runs before its devices are calibrated in the background (calibrate_devices).
constexpr double kDeviceCalibrationDelay_s = 2.0;

Placement& Placement::instance() {
  static Placement* placement = new Placement;
  return *placement;
}

Placement::Placement() {
  // Runtime settings are checked before any work runs (ConfigError on a bad value).
  fallback_enabled();
  exploration_enabled();
  if (const char* faults = env_value("SWITCHYARD_FAULT")) parse_fault_spec(faults);
  Background& background = Background::instance();
  bool devices_missing = false;
  try {
    const auto profile =
        scheduler::load_or_calibrate(CalibrationDepth::Quick, {}, CalibrationScope::HostOnly);
    install(profile);
    devices_missing = scheduler::devices_uncalibrated(profile);
  } catch (const ConfigError&) {
    throw;
  } catch (const Error& e) {
    log(LogLevel::Warn,
        std::string("calibration failed (") + e.what() + "); placing work by backend priority");
    install({});
    return;
  }
  background.at_shutdown([this] { save(); });
  if (devices_missing) background.run([this] { calibrate_devices(); });
}

void Placement::calibrate_devices() {
  // A process that ends within its first seconds (a short script, one test) would only start
  // the calibration to abandon it at exit, after paying a driver compile or two that exit then
  // waits for; the next such process would start over. It waits instead, and measures nothing.
  if (Background::instance().wait_unless_cancelled(kDeviceCalibrationDelay_s)) return;
  // Checked before each calibration step: exit does not wait for a whole calibration.
  const auto stop_at_exit = [](std::string_view, std::string_view, double) {
    Background& background = Background::instance();
    if (background.cancelled()) throw Cancelled();
    background.keep_exit_handler_last();  // the last step may have created driver statics
  };
  try {
    install(scheduler::load_or_calibrate(CalibrationDepth::Quick, stop_at_exit,
                                         CalibrationScope::DevicesOnly));
  } catch (const Cancelled&) {
    log(LogLevel::Info, "device calibration abandoned at exit");
  } catch (const std::exception& e) {
    log(LogLevel::Warn, std::string("device calibration failed: ") + e.what());
  }
}

void Placement::install(const scheduler::Profile& profile) {
  const std::lock_guard lock(install_mutex_);
  auto choices = std::make_unique<Choices>();
  auto models = scheduler::scheduler_models(profile);
  const auto devices = Registry::instance().devices();
  for (auto& m : models) {
    Device* d = devices[m.id.device];
    m.has = d->has();
    const Parallelism p = !d->info().host_addressable ? Parallelism::Auto
                          : m.id.inline_cpu           ? Parallelism::Inline
                                                      : Parallelism::Parallel;
    choices->candidates.push_back({d, p, static_cast<int>(choices->candidates.size())});
  }
  if (!models.empty()) {
    scheduler::SchedulerOptions options;
    options.memory_reserve = memory_reserve_fraction();
    options.explore = exploration_enabled();
    choices->scheduler = std::make_unique<scheduler::Scheduler>(std::move(models), options);
    // What this process measured so far wins over the saved history.
    const Choices* previous = current_.load(std::memory_order_acquire);
    choices->scheduler->history() =
        previous && previous->scheduler ? previous->scheduler->history() : profile.history;
  }
  all_.push_back(std::move(choices));
  current_.store(all_.back().get(), std::memory_order_release);
}

void Placement::use_models(std::vector<scheduler::DeviceModel> models) {
  install(scheduler::Profile{std::move(models), {}});
}

void Placement::save() const {
  const Choices& now = current();
  if (!now.scheduler) return;
  try {
    scheduler::merge_into_profile(now.scheduler->models(), now.scheduler->history());
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
  w.result_to_device = -1;
  // Eager work does not say where its result will be read next. Where the work that read the
  // same work's results lately mostly wanted them, it will be again (result_destination.hpp). Else
  // assume the host when every input lives on the host alone (the data lives there), and that it
  // stays where it is written when an input has a copy on a device, even beside the host's: work
  // with that data ran there before, and will again (a device pinned once, a matrix moved for the
  // steps that read it). Storage no one has written yet lives nowhere and says nothing.
  std::uint32_t device_bits = 0;  // bits of the devices that are not the host
  for (std::size_t i = 0; i < devices.size() && i < 32; ++i)
    if (!devices[i]->info().host_addressable) device_bits |= 1u << i;
  w.result_to_host = true;
  for (const Buffer* b : inputs) {
    const scheduler::InputPlacement& in = w.inputs.emplace_back(b->placement(devices));
    if (!in.on_host && in.device_mask == 0) continue;  // unwritten
    w.result_to_host = w.result_to_host && in.on_host && !(in.device_mask & device_bits);
  }
  const int destination = result_destination(w.signature, w.elements);
  if (destination == kDestinationHost) {
    w.result_to_host = true;
  } else if (destination >= 0) {
    w.result_to_host = false;
    w.result_to_device = destination;
  }
}

}  // namespace switchyard::runtime

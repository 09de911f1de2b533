// Where work can run: the candidates (each usable device; the CPU twice, inline and parallel),
// the process's scheduler over their calibrated models, and the residency of a workload's
// inputs. Built on first use from the saved profile. Without one, the host is calibrated at once
// (about 0.1 s) and the other devices in the background, since a device's first kernel build
// alone can take most of a second: until their models exist, work stays on the host. The
// background calibration is a Background task, cancelled at exit; the history this process
// measured is merged into the saved profile by a Background shutdown hook, before the statics
// it uses are destroyed.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "backends/backend.hpp"
#include "runtime/buffer.hpp"
#include "scheduler/profile.hpp"
#include "scheduler/scheduler.hpp"

namespace switchyard::runtime {

struct Candidate {
  Device* device = nullptr;
  Parallelism parallelism = Parallelism::Auto;
  int model = -1;  // index into the scheduler's models; -1 when not scheduled
};

// A scheduler and the candidates its models stand for (parallel to its models). Replaced whole
// when background calibration adds devices; old ones live until exit, so a reader's pointer
// stays valid.
struct Choices {
  std::unique_ptr<scheduler::Scheduler> scheduler;  // null when no model could be had
  std::vector<Candidate> candidates;
};

class Placement {
 public:
  // The process's placement; throws ConfigError for bad settings.
  static Placement& instance();

  const Choices& current() const { return *current_.load(std::memory_order_acquire); }
  scheduler::Scheduler* scheduler() const { return current().scheduler.get(); }
  // Candidates in the registry's priority order, for when there is no scheduler.
  std::vector<Candidate> priority_order() const;

  // Merges this process's history into the saved profile (Background's shutdown runs it).
  void save() const;
  // Schedules over freshly calibrated models from now on, keeping the history measured so far.
  void use_models(std::vector<scheduler::DeviceModel> models);

 private:
  Placement();  // never destroyed: exit goes through Background::shutdown() instead
  void install(const scheduler::Profile& profile);
  void calibrate_devices();

  // Guards all_: the background calibration and calibrate() may install at the same time.
  std::mutex install_mutex_;
  std::vector<std::unique_ptr<Choices>> all_;  // every Choices ever installed (owner)
  std::atomic<const Choices*> current_{nullptr};
};

// Fills w.inputs with where each buffer's valid copies are (bit i = Registry::devices()[i]),
// and w.result_to_host.
void add_residency(scheduler::Workload& w, std::span<const Buffer* const> inputs);

}  // namespace switchyard::runtime

// Where work can run: the candidates (each usable device; the CPU twice, inline and parallel),
// the process's scheduler over their calibrated models, and the residency of a workload's
// inputs. The scheduler is built on first use from the saved profile, or from a quick
// calibration when there is none; its history is saved back at exit.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backends/backend.hpp"
#include "runtime/buffer.hpp"
#include "scheduler/scheduler.hpp"

namespace switchyard::runtime {

struct Candidate {
  Device* device = nullptr;
  Parallelism parallelism = Parallelism::Auto;
  int model = -1;  // index into the scheduler's models; -1 when not scheduled (pinned)
};

class Placement {
 public:
  // The process's placement; throws what calibration throws only for configuration errors.
  static Placement& instance();

  // Null when no model could be had (every calibration failed): work then follows the
  // registry's priority order.
  scheduler::Scheduler* scheduler() { return scheduler_.get(); }
  const Candidate& candidate(int model) const { return candidates_[model]; }
  std::span<const Candidate> candidates() const { return candidates_; }
  // Candidates in the registry's priority order, for when there is no scheduler.
  std::vector<Candidate> priority_order() const;

  ~Placement();  // saves the history with the profile

 private:
  Placement();
  std::unique_ptr<scheduler::Scheduler> scheduler_;
  std::vector<Candidate> candidates_;  // parallel to the scheduler's models
};

// Fills w.inputs with where each buffer's valid copies are (bit i = Registry::devices()[i]),
// and w.result_to_host.
void add_residency(scheduler::Workload& w, std::span<const Buffer* const> inputs);

}  // namespace switchyard::runtime

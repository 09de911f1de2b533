// Collects KernelReports for switchyard::explain while it runs some work on this thread. The
// executor asks ExplainRecorder::active() once per kernel (a thread-local load); only while
// explaining does it pay for a full ranking and break-even search.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/placement.hpp"
#include "scheduler/scheduler.hpp"
#include "switchyard/explain.hpp"

namespace switchyard::runtime {

class ExplainRecorder {
 public:
  // Candidates: each kernel's report ranks every candidate and finds its break-even size (about
  // 4 us a kernel); Outcomes: where each ran, why and its times only. A recorder inside another
  // records as much as the outer one asks for.
  enum class Detail { Candidates, Outcomes };
  explicit ExplainRecorder(Explanation& out, Detail detail = Detail::Candidates);
  ~ExplainRecorder();
  static ExplainRecorder* active();

  // Before the first attempt: the decision (scheduler null when the work was pinned or there is
  // no model).
  void begin(const scheduler::Workload& w, std::string_view label,
             const scheduler::Scheduler* scheduler, const std::vector<bool>& compiled,
             const Candidate& chosen, scheduler::Reason reason, const Device* background);
  // After the attempt that succeeded, with its stage times.
  struct Outcome {
    double total_s = 0, compile_s = 0, transfer_s = 0, execute_s = 0;
    bool cache_hit = false;
    int fallbacks = 0;
    double predicted_s = 0;  // the model's prediction where it ran; 0 when it made none
  };
  void finish(const Candidate& ran, const Outcome& outcome);
  // Where a lazy graph was split into more kernels than one, and why.
  void fusion_stop(std::string what);

 private:
  Explanation& out_;
  ExplainRecorder* previous_;
  Detail detail_;
};

// Runs `work` and reports each kernel it launched on this thread as it ran, without ranking the
// candidates: what a pipeline's stage report needs, on every terminal.
Explanation outcomes_of(const std::function<void()>& work);

// "cpu:0/inline", "opencl:0": a candidate's name as explain and the profile show it.
std::string candidate_name(const Candidate& c);

std::vector<std::string> advise(const std::vector<KernelReport>& kernels);

// The operators a kernel's label lists: "mul,sin,add float32" -> mul, sin, add.
std::vector<std::string> operators_of(std::string_view label);

}  // namespace switchyard::runtime

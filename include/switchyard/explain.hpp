// Explain: why each kernel of some work ran where it did. For every kernel the work launches:
// each candidate with its predicted compile / transfer / launch / compute times (and measured
// history), the choice and its reason, what actually happened, and advice.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace switchyard {

struct CandidateReport {
  std::string name;  // "cpu:0/inline", "opencl:0", ...
  double compile_s = 0, transfer_s = 0, launch_s = 0, compute_s = 0;
  double predicted_s = 0;            // their sum
  std::optional<double> measured_s;  // from history, when this size has run there before
  double expected_s = 0;             // what the ranking used
  bool fits = true;                  // enough free memory for the working set
  bool compiled = true;              // the kernel is ready there
  bool has_routine = true;           // the device has a routine for the op (a dense solver)
};

struct KernelReport {
  std::string kernel;                  // "mul,sin,add float32"
  std::vector<std::string> operators;  // the operators fused into it: "mul", "sin", "add"
  std::int64_t elements = 0;
  std::vector<CandidateReport> candidates;  // best first (non-fitting last)
  std::string chosen;
  std::string reason;
  std::string compiling_in_background;  // device compiling the kernel meanwhile, or empty
  std::string ran_on;                   // after fallbacks, where it actually ran
  double actual_s = 0;
  double predicted_s = 0;  // the model's prediction where it ran; 0 when it made none
  // Of the attempt that succeeded: its stages, and whether its program was already compiled.
  double compile_s = 0, transfer_s = 0, execute_s = 0;
  bool cache_hit = false;
  int fallbacks = 0;
  std::optional<std::int64_t> break_even_elements;  // nearest size where the choice changes
  std::string break_even_choice;                    // what it changes to
};

struct Explanation {
  // What the kernels cannot say: how an array already computed came to be, when no kernel did.
  std::vector<std::string> notes;
  std::vector<KernelReport> kernels;
  // Each place the work could not stay one kernel: "reduction-consumed: sum (3) float32", ...
  // (reason codes: reduction-consumed, graph-bound, reshape, library-op, iteration-space).
  std::vector<std::string> fusion_stops;
  std::vector<std::string> advice;
  std::string to_string() const;  // the text `switchyard explain` prints
};

// Runs `work` and explains every kernel it launched on this thread.
Explanation explain(const std::function<void()>& work);

class Array;
// How `a` is computed: pending, by computing it now (as explain of its eval()); already computed,
// by the kernel that last wrote its storage: where it ran, why there, its stages' times and the
// model's prediction (the other candidates' figures are known only while the work runs: explain
// the work itself to see them). An array whose values came from the host has no kernel, and a
// note says so.
Explanation explain(const Array& a);

}  // namespace switchyard

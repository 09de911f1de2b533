#include <algorithm>
#include <cstdio>
#include <string>

#include "runtime/buffer.hpp"
#include "runtime/explain_recorder.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace runtime {
namespace {

thread_local ExplainRecorder* current = nullptr;

std::string ms(double s) {
  char text[32];
  std::snprintf(text, sizeof text, s < 1e-3 ? "%.1f us" : "%.3f ms", s < 1e-3 ? s * 1e6 : s * 1e3);
  return text;
}

}  // namespace

std::string candidate_name(const Candidate& c) {
  const std::string id = c.device->info().id();
  switch (c.parallelism) {
    case Parallelism::Inline:
      return id + "/inline";
    case Parallelism::Parallel:
      return id + "/parallel";
    case Parallelism::Auto:
      break;
  }
  return id;
}

ExplainRecorder::ExplainRecorder(Explanation& out, Detail detail)
    : out_(out),
      previous_(current),
      detail_(previous_ && previous_->detail_ == Detail::Candidates ? Detail::Candidates : detail) {
  current = this;
}
ExplainRecorder::~ExplainRecorder() {
  current = previous_;
  // Work that explains itself (a pipeline's stage report) inside the caller's explain: the
  // caller's report has every kernel too.
  if (previous_) {
    auto& outer = previous_->out_;
    outer.kernels.insert(outer.kernels.end(), out_.kernels.begin(), out_.kernels.end());
    outer.fusion_stops.insert(outer.fusion_stops.end(), out_.fusion_stops.begin(),
                              out_.fusion_stops.end());
  }
}
ExplainRecorder* ExplainRecorder::active() {
  return current;
}

void ExplainRecorder::begin(const scheduler::Workload& w, std::string_view label,
                            const scheduler::Scheduler* scheduler,
                            const std::vector<bool>& compiled, const Candidate& chosen,
                            scheduler::Reason reason, const Device* background) {
  KernelReport r;
  r.kernel = label;
  r.operators = operators_of(label);
  r.elements = w.elements;
  r.chosen = candidate_name(chosen);
  r.reason = scheduler ? std::string(scheduler::describe(reason))
                       : "pinned by a DeviceScope or no calibrated model";
  if (background) r.compiling_in_background = background->info().id();
  if (scheduler && detail_ == Detail::Candidates) {
    const auto decision = scheduler->decide(w, compiled);
    for (const auto& e : decision.ranking) {
      const auto& m = scheduler->models()[e.candidate];
      r.candidates.push_back({m.name, e.predicted.compile_s, e.predicted.transfer_s,
                              e.predicted.launch_s, e.predicted.compute_s, e.predicted.total_s(),
                              e.measured_s, e.expected_s, e.fits, e.compiled, e.has_routine});
    }
    // From the ranking shown (kernels compiled where they are now), so that what it flips to is
    // never the ranking's own best.
    if (auto flip = scheduler->break_even(w, compiled)) {
      r.break_even_elements = *flip;
      const scheduler::Workload at =
          scheduler::scaled(w, static_cast<double>(*flip) / static_cast<double>(w.elements));
      r.break_even_choice =
          scheduler->models()[scheduler->decide(at, compiled).ranking.front().candidate].name;
    }
  }
  out_.kernels.push_back(std::move(r));
}

void ExplainRecorder::fusion_stop(std::string what) {
  out_.fusion_stops.push_back(std::move(what));
}

void ExplainRecorder::finish(const Candidate& ran, const Outcome& outcome) {
  KernelReport& r = out_.kernels.back();
  r.ran_on = candidate_name(ran);
  r.actual_s = outcome.total_s;
  r.compile_s = outcome.compile_s;
  r.transfer_s = outcome.transfer_s;
  r.execute_s = outcome.execute_s;
  r.cache_hit = outcome.cache_hit;
  r.fallbacks = outcome.fallbacks;
  r.predicted_s = outcome.predicted_s;
}

std::vector<std::string> operators_of(std::string_view label) {
  // The label lists the operators before the dtype: "mul,sin,add float32".
  std::vector<std::string> operators;
  const std::string_view ops = label.substr(0, label.find(' '));
  for (std::size_t at = 0; at < ops.size();) {
    const std::size_t comma = std::min(ops.find(',', at), ops.size());
    operators.emplace_back(ops.substr(at, comma - at));
    at = comma + 1;
  }
  return operators;
}

// Advice from the reports: what would make this work faster.
std::vector<std::string> advise(const std::vector<KernelReport>& kernels) {
  std::vector<std::string> advice;
  int elementwise = 0;
  for (const auto& k : kernels) {
    elementwise +=
        k.kernel.find("gemm") == std::string::npos && k.kernel.find("gemv") == std::string::npos;
    if (k.candidates.empty()) continue;
    const CandidateReport& c = k.candidates.front();
    if (c.transfer_s > c.compute_s + c.launch_s)
      advice.push_back(k.kernel + ": moving data costs more than computing on " + c.name +
                       " — keep data on one device across operations");
    if (c.launch_s > 0.5 * c.predicted_s)
      advice.push_back(k.kernel + ": launch latency is most of its time on " + c.name +
                       " — batch small work into larger arrays");
    if (!k.compiling_in_background.empty())
      advice.push_back(k.kernel + ": ran on " + k.ran_on + " while it compiled for " +
                       k.compiling_in_background + " in the background");
    if (k.break_even_elements)
      advice.push_back(k.kernel + ": the choice changes to " + k.break_even_choice + " at about " +
                       std::to_string(*k.break_even_elements) + " elements (break-even)");
    if (k.fallbacks)
      advice.push_back(k.kernel + ": " + std::to_string(k.fallbacks) + " device(s) failed first");
  }
  if (elementwise > 1)
    advice.push_back(std::to_string(elementwise) +
                     " elementwise kernels each made a pass over memory — build the whole "
                     "expression before reading it, or realise results together with eval()");
  return advice;
}

Explanation outcomes_of(const std::function<void()>& work) {
  Explanation e;
  {
    ExplainRecorder recorder(e, ExplainRecorder::Detail::Outcomes);
    work();
  }
  return e;
}

}  // namespace runtime

std::string Explanation::to_string() const {
  std::string s;
  for (const auto& n : notes) s += n + "\n";
  for (const auto& k : kernels) {
    s += "kernel " + k.kernel + " over " + std::to_string(k.elements) + " elements (" +
         std::to_string(k.operators.size()) + " operators fused)\n";
    char line[256];
    if (k.candidates.empty()) {
      s += "  predicted " + (k.predicted_s > 0 ? runtime::ms(k.predicted_s) : std::string("-")) +
           " where it ran; compile " + runtime::ms(k.compile_s) + ", transfer " +
           runtime::ms(k.transfer_s) + ", execute " + runtime::ms(k.execute_s) +
           (k.cache_hit ? " (already compiled)" : "") + "\n";
    }
    for (const auto& c : k.candidates) {
      if (&c == &k.candidates.front()) {
        std::snprintf(line, sizeof line, "  %-16s %10s %10s %10s %10s %11s %11s %11s %s\n",
                      "candidate", "compile", "transfer", "launch", "compute", "predicted",
                      "measured", "expected", "");
        s += line;
      }
      std::snprintf(line, sizeof line, "  %-16s %10s %10s %10s %10s %11s %11s %11s %s\n",
                    c.name.c_str(), runtime::ms(c.compile_s).c_str(),
                    runtime::ms(c.transfer_s).c_str(), runtime::ms(c.launch_s).c_str(),
                    runtime::ms(c.compute_s).c_str(), runtime::ms(c.predicted_s).c_str(),
                    c.measured_s ? runtime::ms(*c.measured_s).c_str() : "-",
                    runtime::ms(c.expected_s).c_str(),
                    !c.has_routine ? "(no routine: not a candidate)"
                    : !c.fits      ? "(does not fit)"
                    : !c.compiled  ? "(not compiled)"
                                   : "");
      s += line;
    }
    s += "  chosen: " + k.chosen + " — " + k.reason + "\n";
    s += "  ran on: " + k.ran_on + " in " + runtime::ms(k.actual_s) +
         (k.fallbacks ? " after " + std::to_string(k.fallbacks) + " fallback(s)" : "") + "\n";
  }
  if (!fusion_stops.empty()) s += "fusion stopped:\n";
  for (const auto& f : fusion_stops) s += "  - " + f + "\n";
  if (!advice.empty()) s += "advice:\n";
  for (const auto& a : advice) s += "  - " + a + "\n";
  return s;
}

Explanation explain(const std::function<void()>& work) {
  Explanation e;
  {
    runtime::ExplainRecorder recorder(e);
    work();
  }
  e.advice = runtime::advise(e.kernels);
  return e;
}

}  // namespace switchyard

#include <xxhash.h>

#include <algorithm>
#include <limits>

#include "scheduler/scheduler.hpp"

namespace switchyard::scheduler {
namespace {

// Whole runs of a group are kept in history under this candidate name, by placement.
constexpr const char* kGroupSeries = "group";

std::string device_name(const DeviceModel& m) {
  return m.name.substr(0, m.name.find('/'));
}

// The history signature of the group placed on `candidates`: its steps' signatures and sizes
// and where each runs.
std::uint64_t placement_signature(std::span<const GroupStep> steps,
                                  const std::vector<int>& candidates) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::uint64_t words[] = {steps[i].work.signature,
                                   static_cast<std::uint64_t>(steps[i].work.elements),
                                   static_cast<std::uint64_t>(candidates[i])};
    h = XXH3_64bits_withSeed(words, sizeof words, h);
  }
  return h;
}

std::int64_t total_elements(std::span<const GroupStep> steps) {
  std::int64_t n = 0;
  for (const GroupStep& s : steps) n += s.work.elements;
  return n;
}

// Step i as it runs when placed on `candidates`: inputs an earlier step wrote are where that
// step ran; the result goes to the host only when the group returns it (and it was read there).
Workload placed_step(std::span<const GroupStep> steps, std::size_t i,
                     const std::vector<int>& candidates, const std::vector<DeviceModel>& models) {
  Workload w = steps[i].work;
  for (std::size_t k = 0; k < w.inputs.size() && k < steps[i].producers.size(); ++k) {
    const int producer = steps[i].producers[k];
    if (producer < 0) continue;
    const DeviceModel& m = models[candidates[producer]];
    w.inputs[k].on_host = m.host_addressable;
    w.inputs[k].device_mask = m.host_addressable ? 0 : 1u << m.id.device;
  }
  w.result_to_host = steps[i].returns && steps[i].work.result_to_host;
  return w;
}

}  // namespace

std::vector<int> Scheduler::greedy_placement(std::span<const GroupStep> steps, int device) const {
  std::vector<int> candidates(steps.size(), -1);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Workload w = placed_step(steps, i, candidates, models_);  // reads earlier steps only
    double best_s = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < models_.size(); ++c) {
      if (device >= 0 && models_[c].id.device != device) continue;
      const CandidateEstimate e = estimate(w, c, true);
      if (e.fits && e.expected_s < best_s)
        candidates[i] = static_cast<int>(c), best_s = e.expected_s;
    }
    if (candidates[i] < 0) return {};
  }
  return candidates;
}

GroupAlternative Scheduler::group_alternative(std::span<const GroupStep> steps,
                                              std::vector<int> candidates, int device) const {
  GroupAlternative a;
  a.name = device >= 0 ? "all on " + device_name(models_[candidates.front()]) : "";
  for (std::size_t i = 0; i < steps.size(); ++i)
    a.predicted_s +=
        estimate(placed_step(steps, i, candidates, models_), candidates[i], true).expected_s;
  const HistoryKey key{placement_signature(steps, candidates), size_bucket(total_elements(steps)),
                       kGroupSeries};
  a.samples = history_.samples(key);
  a.expected_s = a.predicted_s;
  if (a.samples > 0) {
    a.measured_s = history_.estimate(key);
    a.expected_s = trusted(a.samples, *a.measured_s, a.predicted_s);
  }
  a.candidates = std::move(candidates);
  return a;
}

GroupDecision Scheduler::decide_group(std::span<const GroupStep> steps) const {
  GroupDecision d;
  if (steps.empty()) return d;
  std::vector<int> now;
  for (const GroupStep& s : steps) now.push_back(s.candidate);
  d.alternatives.push_back(group_alternative(steps, now, -1));
  d.alternatives.back().name = "as recorded";
  const auto add = [&](std::vector<int> candidates, int device, const char* name) {
    if (candidates.empty() || candidates == now) return;
    for (const GroupAlternative& a : d.alternatives)
      if (a.candidates == candidates) return;
    d.alternatives.push_back(group_alternative(steps, std::move(candidates), device));
    if (name) d.alternatives.back().name = name;
  };
  add(greedy_placement(steps, -1), -1, "each kernel's best");
  std::vector<int> devices;
  for (const DeviceModel& m : models_)
    if (m.id.device >= 0 && std::find(devices.begin(), devices.end(), m.id.device) == devices.end())
      devices.push_back(m.id.device);
  for (const int device : devices) add(greedy_placement(steps, device), device, nullptr);

  // The placement it runs with stays unless another is expected faster by the margin.
  const auto best = std::min_element(d.alternatives.begin(), d.alternatives.end(),
                                     [](const GroupAlternative& a, const GroupAlternative& b) {
                                       return a.expected_s < b.expected_s;
                                     });
  if ((1 + options_.hysteresis) * best->expected_s < d.alternatives.front().expected_s)
    d.chosen = static_cast<int>(best - d.alternatives.begin());
  return d;
}

void Scheduler::record_group(std::span<const GroupStep> steps, double seconds) {
  if (steps.empty()) return;
  std::vector<int> candidates;
  for (const GroupStep& s : steps) candidates.push_back(s.candidate);
  history_.record(
      {placement_signature(steps, candidates), size_bucket(total_elements(steps)), kGroupSeries},
      seconds);
}

}  // namespace switchyard::scheduler

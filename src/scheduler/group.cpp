#include <xxhash.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "scheduler/scheduler.hpp"

namespace switchyard::scheduler {
namespace {

// Whole runs of a group are kept in history under this candidate name, by placement.
constexpr const char* kGroupSeries = "group";

// The history signature of the group placed on `candidates`: its steps' signatures and sizes
// and where each runs, by candidate name (history outlives this process's model order).
std::uint64_t placement_signature(std::span<const GroupStep> steps,
                                  const std::vector<int>& candidates,
                                  const std::vector<DeviceModel>& models) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string& where = models[candidates[i]].name;
    const std::uint64_t words[] = {steps[i].work.signature,
                                   static_cast<std::uint64_t>(steps[i].work.elements),
                                   XXH3_64bits(where.data(), where.size())};
    h = XXH3_64bits_withSeed(words, sizeof words, h);
  }
  return h;
}

std::int64_t total_elements(std::span<const GroupStep> steps) {
  std::int64_t n = 0;
  for (const GroupStep& s : steps) n += s.work.elements;
  return n;
}

// Step i as it runs when placed on `candidates`, into `w` (whose memory is reused: this runs for
// every step and placement priced): inputs an earlier step wrote are where that step ran; the
// result goes to the host only when the group returns it (and it was read there).
void place_step(std::span<const GroupStep> steps, std::size_t i, const std::vector<int>& candidates,
                const std::vector<DeviceModel>& models, Workload& w) {
  w = steps[i].work;
  for (std::size_t k = 0; k < w.inputs.size() && k < steps[i].producers.size(); ++k) {
    const int producer = steps[i].producers[k];
    if (producer < 0) continue;
    const DeviceModel& m = models[candidates[producer]];
    w.inputs[k].on_host = m.host_addressable;
    w.inputs[k].device_mask = m.host_addressable ? 0 : 1u << m.id.device;
  }
  w.result_to_host = steps[i].returns && steps[i].work.result_to_host;
  w.result_to_device = steps[i].returns ? steps[i].work.result_to_device : -1;
}

}  // namespace

// Each step's history and model correction per candidate, and the step costs priced so far, by
// step and candidate, then by where the step's inputs are: placements share most of them, and a
// few slots hold them (one allocation for the whole decision; a miss beyond them is re-priced).
struct Scheduler::GroupPricing {
  struct Priced {
    std::uint64_t inputs_from;
    bool fits;
    double expected_s;
  };
  static constexpr int kSlots = 4;
  struct Slots {
    std::optional<CandidateEstimate> executing;  // Scheduler::executing(), priced once
    int used = 0;
    Priced priced[kSlots];
  };
  GroupPricing(std::size_t steps, std::size_t candidates)
      : candidates(candidates),
        measured(steps),
        corrections(steps * candidates),
        costs(steps * candidates) {}
  std::size_t candidates;
  std::vector<std::vector<History::BucketEstimate>> measured;  // [step]: History::estimates
  std::vector<ModelCorrection> corrections;                    // [step * candidates + c]
  std::vector<Slots> costs;                                    // [step * candidates + c]
  Workload placed;                                             // place_step()'s, reused
};

std::pair<bool, double> Scheduler::step_cost(std::span<const GroupStep> steps, std::size_t i,
                                             int candidate, const std::vector<int>& candidates,
                                             GroupPricing& pricing) const {
  // Where each input comes from, hashed: from outside the group (0), or the device of the step
  // that wrote it (1 for the host, device + 2 otherwise).
  std::uint64_t inputs_from = 0;
  for (const int producer : steps[i].producers) {
    const DeviceModel* from = producer < 0 ? nullptr : &models_[candidates[producer]];
    const int where = !from ? 0 : from->host_addressable ? 1 : from->id.device + 2;
    inputs_from = (inputs_from ^ static_cast<std::uint64_t>(where + 1)) * 0x100000001b3ull;
  }
  const std::size_t at = i * pricing.candidates + static_cast<std::size_t>(candidate);
  GroupPricing::Slots& slots = pricing.costs[at];
  for (int k = 0; k < slots.used; ++k)
    if (slots.priced[k].inputs_from == inputs_from)
      return {slots.priced[k].fits, slots.priced[k].expected_s};
  place_step(steps, i, candidates, models_, pricing.placed);
  if (!slots.executing)
    slots.executing = executing(pricing.placed, static_cast<std::size_t>(candidate), true,
                                pricing.corrections[at], pricing.measured[i]);
  const CandidateEstimate e = placed(pricing.placed, *slots.executing);
  if (slots.used < GroupPricing::kSlots)
    slots.priced[slots.used++] = {inputs_from, e.fits, e.expected_s};
  return {e.fits, e.expected_s};
}

std::pair<std::vector<int>, double> Scheduler::greedy_placement(std::span<const GroupStep> steps,
                                                                int device,
                                                                GroupPricing& pricing) const {
  std::vector<int> candidates(steps.size(), -1);
  double total_s = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    double best_s = std::numeric_limits<double>::infinity();
    int best = -1;
    for (std::size_t c = 0; c < models_.size(); ++c) {
      if (device >= 0 && models_[c].id.device != device) continue;
      const auto [fits, expected_s] =
          step_cost(steps, i, static_cast<int>(c), candidates, pricing);  // reads steps < i
      if (fits && expected_s < best_s) best = static_cast<int>(c), best_s = expected_s;
    }
    if (best < 0) return {};
    candidates[i] = best;
    total_s += best_s;
  }
  return {std::move(candidates), total_s};
}

GroupAlternative Scheduler::group_alternative(std::span<const GroupStep> steps,
                                              std::vector<int> candidates,
                                              double predicted_s) const {
  GroupAlternative a;
  a.predicted_s = a.expected_s = predicted_s;
  const HistoryKey key{placement_signature(steps, candidates, models_),
                       size_bucket(total_elements(steps)), kGroupSeries};
  const History::Measured measured = history_.measured(key);
  a.samples = measured.weight();
  if (a.samples > 0) {
    a.measured_s = measured.estimate_s;
    a.expected_s = trusted(a.samples, measured.estimate_s, a.predicted_s);
  }
  a.candidates = std::move(candidates);
  return a;
}

GroupDecision Scheduler::decide_group(std::span<const GroupStep> steps) const {
  GroupDecision d;
  if (steps.empty()) return d;
  GroupPricing pricing(steps.size(), models_.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    pricing.measured[i] = history_.estimates(steps[i].work.signature);
    for (std::size_t c = 0; c < models_.size(); ++c)
      pricing.corrections[i * models_.size() + c] =
          correction(steps[i].work, models_[c], pricing.measured[i]);
  }
  std::vector<int> now;
  double now_s = 0;
  for (const GroupStep& s : steps) now.push_back(s.candidate);
  for (std::size_t i = 0; i < steps.size(); ++i)
    now_s += step_cost(steps, i, now[i], now, pricing).second;
  d.alternatives.push_back(group_alternative(steps, now, now_s));
  d.alternatives.back().name = "as recorded";
  const auto add = [&](std::pair<std::vector<int>, double> placed, std::string all_on) {
    if (placed.first.empty()) return;
    for (const GroupAlternative& a : d.alternatives)
      if (a.candidates == placed.first) return;
    d.alternatives.push_back(group_alternative(steps, std::move(placed.first), placed.second));
    d.alternatives.back().name = all_on.empty() ? "each kernel's best" : "all on " + all_on;
    d.alternatives.back().all_on = std::move(all_on);
  };
  add(greedy_placement(steps, -1, pricing), "");
  std::vector<int> devices;
  for (const DeviceModel& m : models_) {
    if (m.id.device < 0 || std::find(devices.begin(), devices.end(), m.id.device) != devices.end())
      continue;
    devices.push_back(m.id.device);
    add(greedy_placement(steps, m.id.device, pricing), device_of(m.name));
  }

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
  history_.record({placement_signature(steps, candidates, models_),
                   size_bucket(total_elements(steps)), kGroupSeries},
                  seconds);
}

}  // namespace switchyard::scheduler

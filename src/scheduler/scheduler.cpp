#include "scheduler/scheduler.hpp"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>
#include <set>
#include <tuple>

#include "switchyard/error.hpp"

namespace switchyard::scheduler {
namespace {

void check(const std::vector<DeviceModel>& models, const SchedulerOptions& options) {
  if (models.empty() || models.size() > 64)
    throw ValueError("scheduler: expected 1 to 64 candidate models, got " +
                     std::to_string(models.size()));
  std::set<std::string> names;
  for (const auto& m : models)
    if (!names.insert(m.name).second)
      throw ValueError("scheduler: two candidate models are named \"" + m.name +
                       "\"; history is keyed by name, so names must be unique");
  if (!(options.memory_reserve >= 0 && options.memory_reserve < 1) || !(options.hysteresis >= 0) ||
      options.history_trust_samples < 1 || options.history_trust_samples > History::kWindow ||
      !(options.explore_within >= 1) ||
      !(options.explore_share >= 0 && options.explore_share < 1) ||
      !(options.decide_share >= 0 && options.decide_share < 1))
    throw ValueError(
        "scheduler: expected memory_reserve in [0, 1), hysteresis >= 0, "
        "history_trust_samples in [1, " +
        std::to_string(History::kWindow) +
        "] (no more samples than history keeps), explore_within >= 1, "
        "explore_share in [0, 1) and decide_share in [0, 1)");
}

// Candidates the caller did not mention (an empty or short vector) are taken as ready.
bool is_compiled(const std::vector<bool>& compiled, std::size_t c) {
  return c >= compiled.size() || compiled[c];
}

// The history key of whole runs (inputs moved in + execute) for where the inputs are now: the
// signature mixed with every input's residency (FNV-1a over the words).
std::uint64_t placed_signature(const Workload& w) {
  std::uint64_t h = w.signature ^ 0xcbf29ce484222325ull;
  for (const auto& in : w.inputs)
    h = (h ^ (in.device_mask | std::uint64_t{in.on_host} << 32)) * 0x100000001b3ull;
  return h;
}

}  // namespace

std::string_view describe(Reason r) {
  switch (r) {
    case Reason::OnlyCandidate:
      return "the only candidate that can take this work";
    case Reason::LowestPredicted:
      return "lowest predicted time (cost model, nothing measured yet)";
    case Reason::LowestMeasured:
      return "lowest expected time, corrected by measured history";
    case Reason::KeptByHysteresis:
      return "kept the previous choice: no other candidate is faster by the hysteresis margin";
    case Reason::Exploring:
      return "exploring: measured too few times, and expected within 1.3x of the best, or a small "
             "run whose expected loss fits the kernel's exploration budget (5% of its run time)";
    case Reason::CompileInBackground:
      return "the fastest candidate is not compiled yet: runs where the kernel is ready meanwhile";
    case Reason::InsufficientMemory:
      return "the working set does not fit in free memory minus the reserve";
    case Reason::Forced:
      return "forced by SWITCHYARD_BACKEND or a device scope";
    case Reason::MovingReusedData:
      return "its inputs kept coming back: the time lost leaving them where they were reached the "
             "cost of moving them here";
  }
  return "unknown reason";
}

Scheduler::Scheduler(std::vector<DeviceModel> models, SchedulerOptions options)
    : models_(std::move(models)), options_(options) {
  check(models_, options_);
  // Data that lives only on device j comes back at device j's d2h figures; the first
  // non-host-addressable model of each device stands for it.
  for (const auto& m : models_) {
    if (m.host_addressable || m.id.device < 0) continue;
    const auto j = static_cast<std::size_t>(m.id.device);
    if (device_models_.size() <= j) device_models_.resize(j + 1, nullptr);
    if (device_models_[j] == nullptr) device_models_[j] = &m;
  }
}

Decision Scheduler::decide(const Workload& w, const std::vector<bool>& compiled) const {
  Decision d;
  d.ranking.reserve(models_.size());
  const auto measured = history_.estimates(w.signature);
  for (std::size_t c = 0; c < models_.size(); ++c) {
    const ModelCorrection k = correction(w, models_[c], measured);
    d.ranking.push_back(estimate(w, c, is_compiled(compiled, c), k, measured));
  }
  // Fitting first, then by expected time; equal times go to the lower index (determinism).
  std::sort(d.ranking.begin(), d.ranking.end(), [](const auto& a, const auto& b) {
    return std::tuple(!a.fits, a.expected_s, a.candidate) <
           std::tuple(!b.fits, b.expected_s, b.candidate);
  });

  const CandidateEstimate& best = d.ranking.front();
  const auto fitting =
      std::count_if(d.ranking.begin(), d.ranking.end(), [](const auto& e) { return e.fits; });
  d.chosen = best.candidate;
  if (fitting == 0) {
    d.reason = Reason::InsufficientMemory;  // least bad; fallback handles the out-of-memory
  } else if (fitting == 1) {
    d.reason = Reason::OnlyCandidate;
  } else if (!best.compiled) {
    const auto ready = std::find_if(d.ranking.begin(), d.ranking.end(),
                                    [](const auto& e) { return e.fits && e.compiled; });
    d.reason = ready == d.ranking.end() ? Reason::LowestPredicted : Reason::CompileInBackground;
    if (ready != d.ranking.end()) d.chosen = ready->candidate;
  } else {
    const bool measured = std::any_of(d.ranking.begin(), d.ranking.end(),
                                      [](const auto& e) { return e.fits && e.measured_s; });
    d.reason = measured ? Reason::LowestMeasured : Reason::LowestPredicted;
    if (const CandidateEstimate* c = challenger(d.ranking, ledger(w.signature))) {
      d.chosen = c->candidate;
      d.reason = Reason::Exploring;
      d.explore_cost_s = c->expected_s - best.expected_s;
      d.best_expected_s = best.expected_s;
    }
  }
  if (d.reason == Reason::LowestMeasured || d.reason == Reason::LowestPredicted)
    d.rent = rent_of(d, options_.hysteresis);
  return d;
}

Rent Scheduler::rent_of(const Decision& d, double hysteresis) {
  const auto chosen = std::find_if(d.ranking.begin(), d.ranking.end(),
                                   [&](const auto& e) { return e.candidate == d.chosen; });
  Rent rent;
  double best_s = chosen->expected_s / (1 + hysteresis);
  for (const CandidateEstimate& e : d.ranking) {
    const double move_s = e.expected_s - e.resident_s;
    if (!e.fits || !e.compiled || e.candidate == d.chosen || move_s <= 0 || e.resident_s >= best_s)
      continue;
    best_s = e.resident_s;
    rent = {e.candidate, chosen->expected_s - e.resident_s, move_s};
  }
  return rent;
}

CandidateEstimate Scheduler::executing(const Workload& w, std::size_t c, bool compiled,
                                       const ModelCorrection& correction,
                                       std::span<const History::BucketEstimate> measured) const {
  const DeviceModel& m = models_[c];
  const int bucket = size_bucket(w.elements);
  CandidateEstimate e;
  e.candidate = static_cast<int>(c);
  e.compiled = compiled;
  e.predicted = predict(w, m, m.id.device, e.compiled, device_models_);
  e.correction = correction;
  // History replaces the model's execute time (launch + compute) in proportion to how many
  // samples back it (placed() does the same for whole runs). Compile and the result's trip back
  // to the host stay predicted (see record()).
  e.execute_s = e.correction.apply(e.predicted.launch_s, e.predicted.compute_s);
  const auto mine = std::find_if(measured.begin(), measured.end(), [&](const auto& b) {
    return b.bucket == bucket && b.candidate == m.name;
  });
  if (mine != measured.end()) {
    e.samples = mine->weight;
    e.measured_s = mine->estimate_s;
    e.execute_s = trusted(mine->weight, mine->estimate_s, e.execute_s);
  }
  return e;
}

CandidateEstimate Scheduler::placed(const Workload& w, CandidateEstimate e) const {
  const DeviceModel& m = models_[static_cast<std::size_t>(e.candidate)];
  // Whole runs measured with the inputs where they are now replace execute + moving the inputs
  // in proportion to their samples.
  const double inputs_in_s = inputs_transfer_s(w, m, m.id.device, device_models_);
  e.predicted.transfer_s = inputs_in_s + e.predicted.result_transfer_s;
  e.has_routine = (w.needs & ~m.has) == 0;
  e.fits = e.has_routine && fits(w, m, options_.memory_reserve);
  double run_s = inputs_in_s + e.execute_s;
  const History::Measured whole =
      history_.measured({placed_signature(w), size_bucket(w.elements), m.name});
  if (whole.samples > 0) run_s = trusted(whole.weight(), whole.estimate_s, run_s);
  const double fixed_s = e.predicted.compile_s + e.predicted.result_transfer_s;
  e.expected_s = fixed_s + run_s;
  e.resident_s = std::min(e.expected_s, fixed_s + e.execute_s);
  return e;
}

double Scheduler::trusted(int samples, double measured_s, double modelled_s) const {
  const double trust = std::min(1.0, static_cast<double>(samples) / options_.history_trust_samples);
  return trust * measured_s + (1 - trust) * modelled_s;
}

// Once the best candidate has been measured, the first ranked candidate that is ready, fits, has
// fewer than history_trust_samples measurements and cannot cost much (SchedulerOptions::explore).
// Its model may be wrong (a calibration taken under load, an op the model prices poorly), and only
// measuring it can tell. Each is tried at most that many times per kernel and size.
const CandidateEstimate* Scheduler::challenger(const std::vector<CandidateEstimate>& ranking,
                                               const Ledger& ledger) const {
  const CandidateEstimate& best = ranking.front();
  if (!options_.explore || !best.measured_s) return nullptr;
  const double budget_s = options_.explore_share * ledger.run_s - ledger.explored_s;
  for (std::size_t i = 1; i < ranking.size(); ++i) {
    const CandidateEstimate& c = ranking[i];
    const bool close = c.expected_s <= options_.explore_within * best.expected_s;
    const bool small_and_cheap = c.expected_s <= options_.explore_share * ledger.largest_s &&
                                 c.expected_s - best.expected_s <= budget_s;
    if (!close && !small_and_cheap) break;  // ranked by expected time: later ones cost more
    if (c.fits && c.compiled && c.samples < options_.history_trust_samples) return &c;
  }
  return nullptr;
}

Scheduler::Ledger Scheduler::ledger(std::uint64_t signature) const {
  std::lock_guard lock(ledger_mutex_);
  const auto it = ledgers_.find(signature);
  return it == ledgers_.end() ? Ledger{} : it->second;
}

// The model of m against what m measured for this kernel at every size it ran (the model's
// prediction at the middle of each measured bucket), trusted as history is: in proportion to the
// samples behind it, up to history_trust_samples (a factor f counts as f^trust). A first run is
// often an outlier (cold caches, first-touch page faults, a pool's threads starting), and carried
// at full weight to every size it would mislead them all.
ModelCorrection Scheduler::correction(const Workload& w, const DeviceModel& m,
                                      std::span<const History::BucketEstimate> measured) const {
  if (w.elements < 1) return {};
  const auto mine = [&](const History::BucketEstimate& b) { return b.candidate == m.name; };
  if (std::none_of(measured.begin(), measured.end(), mine)) return {};
  // The model's compute time grows linearly with the size (scaled()) from a fixed part (reading
  // back a data-dependent size); launch is fixed: two predictions give it at every bucket.
  const CostBreakdown here = predict(w, m, m.id.device, true, device_models_);
  const double fixed_s = w.data_dependent_size
                             ? predict(scaled(w, 0), m, m.id.device, true, device_models_).compute_s
                             : 0;
  // Reused (this does not recurse): a group decision corrects every step on every candidate.
  thread_local std::vector<MeasuredSize> sizes;
  sizes.clear();
  int samples = 0;
  for (const auto& bucket : measured) {
    if (!mine(bucket)) continue;
    const double factor = bucket_elements(bucket.bucket) / static_cast<double>(w.elements);
    sizes.push_back(
        {here.launch_s, fixed_s + factor * (here.compute_s - fixed_s), bucket.estimate_s});
    samples += bucket.weight;
  }
  const ModelCorrection fitted = fit_correction(sizes);
  if (samples >= options_.history_trust_samples) return fitted;
  const double trust = static_cast<double>(samples) / options_.history_trust_samples;
  return {std::pow(fitted.launch, trust), std::pow(fitted.compute, trust)};
}

std::uint64_t Scheduler::cache_key(const Workload& w, const std::vector<bool>& compiled) const {
  std::uint64_t compiled_mask = 0;
  for (std::size_t c = 0; c < models_.size(); ++c)
    compiled_mask |= std::uint64_t{is_compiled(compiled, c)} << c;
  // Hashed in chunks so any number of inputs is keyed exactly, without allocating.
  constexpr std::size_t kWords = 16;
  std::array<std::uint64_t, kWords> words;
  words[0] = w.signature;
  const auto bucket = static_cast<std::uint32_t>(size_bucket(w.elements));
  words[1] = bucket | std::uint64_t{w.result_to_host} << 32 |
             static_cast<std::uint64_t>(w.result_to_device + 1) << 33;
  words[2] = compiled_mask;
  std::size_t used = 3;
  std::uint64_t h = 0;
  for (const auto& in : w.inputs) {
    if (used == kWords) {
      h = XXH3_64bits_withSeed(words.data(), sizeof words, h);
      used = 0;
    }
    words[used++] = in.device_mask | std::uint64_t{in.on_host} << 32;
  }
  return XXH3_64bits_withSeed(words.data(), used * sizeof(std::uint64_t), h);
}

std::uint64_t Scheduler::version(const Workload& w) const {
  const int bucket = size_bucket(w.elements);
  return history_.generation(w.signature, bucket) +
         history_.generation(placed_signature(w), bucket);
}

// The hot path: a cache hit is one hash of a few words, one shared lock and one map lookup;
// about 30 ns of CPU (median, 4 candidates, 3 inputs) in bench/scheduler_bench.cpp.
int Scheduler::choose(const Workload& w, const std::vector<bool>& compiled,
                      ChoiceDetails* details) {
  const std::uint64_t key = cache_key(w, compiled);
  const std::uint64_t generation = version(w);
  std::optional<int> previous;
  {
    std::shared_lock lock(cache_mutex_);
    const auto it = decisions_.find(key);
    if (it != decisions_.end()) {
      const CachedChoice& cached = it->second;
      if (cached.generation == generation || use_stale(cached, generation)) {
        if (details)
          *details = {cached.reason, cached.rent, cached.generation, cached.best_expected_s};
        if (cached.reason == Reason::Exploring) charge_exploration(w, cached.explore_cost_s);
        return cached.candidate;
      }
      previous = cached.candidate;
    }
  }
  const auto ranking_start = std::chrono::steady_clock::now();
  const Decision d = redecide(w, compiled, previous);
  const auto decided_at = std::chrono::steady_clock::now();
  const auto ranking = decided_at - ranking_start;
  const std::int64_t ranking_ns = std::chrono::nanoseconds(ranking).count();
  rankings_.fetch_add(1, std::memory_order_relaxed);
  ranking_ns_.fetch_add(ranking_ns, std::memory_order_relaxed);
  for (std::int64_t longest = longest_ranking_ns_.load(std::memory_order_relaxed);
       ranking_ns > longest && !longest_ranking_ns_.compare_exchange_weak(
                                   longest, ranking_ns, std::memory_order_relaxed);) {
  }
  std::unique_lock lock(cache_mutex_);
  if (decisions_.size() >= kMaxCachedDecisions) decisions_.clear();
  decisions_[key] = {
      d.chosen, d.reason,   d.explore_cost_s, d.best_expected_s,
      d.rent,   generation, decided_at,       std::chrono::duration<double>(ranking).count()};
  lock.unlock();
  if (details) *details = {d.reason, d.rent, generation, d.best_expected_s};
  if (d.reason == Reason::Exploring) charge_exploration(w, d.explore_cost_s);
  return d.chosen;
}

bool Scheduler::use_stale(const CachedChoice& cached, std::uint64_t generation) const {
  if (options_.decide_share == 0 || cached.reason == Reason::Exploring ||
      cached.reason == Reason::CompileInBackground ||
      History::learning(cached.generation) != History::learning(generation))
    return false;
  const std::chrono::duration<double> since = std::chrono::steady_clock::now() - cached.decided_at;
  return since.count() * options_.decide_share < cached.ranking_s;
}

Scheduler::RankingStats Scheduler::ranking_stats() const {
  return {rankings_.load(std::memory_order_relaxed),
          1e-9 * static_cast<double>(ranking_ns_.load(std::memory_order_relaxed)),
          1e-9 * static_cast<double>(longest_ranking_ns_.load(std::memory_order_relaxed))};
}

std::optional<Reason> Scheduler::cached_reason(const Workload& w,
                                               const std::vector<bool>& compiled) const {
  const std::uint64_t key = cache_key(w, compiled);
  std::shared_lock lock(cache_mutex_);
  const auto it = decisions_.find(key);
  if (it == decisions_.end()) return std::nullopt;
  return it->second.reason;
}

// Hysteresis: the previous choice stays while it is within the margin of the new best, so noise
// in measurements does not move work back and forth.
Decision Scheduler::redecide(const Workload& w, const std::vector<bool>& compiled,
                             std::optional<int> previous) const {
  Decision d = decide(w, compiled);
  if (!previous || *previous == d.chosen || d.reason == Reason::CompileInBackground ||
      d.reason == Reason::Exploring)
    return d;
  const auto estimate_of = [&d](int c) -> const CandidateEstimate& {
    return *std::find_if(d.ranking.begin(), d.ranking.end(),
                         [c](const auto& e) { return e.candidate == c; });
  };
  const CandidateEstimate& kept = estimate_of(*previous);
  const CandidateEstimate& best = estimate_of(d.chosen);
  if (kept.fits && kept.compiled &&
      kept.expected_s <= (1 + options_.hysteresis) * best.expected_s) {
    d.chosen = *previous;
    d.reason = Reason::KeptByHysteresis;
    d.rent = rent_of(d, options_.hysteresis);
  }
  return d;
}

void Scheduler::record(const Workload& w, int candidate, double seconds,
                       std::optional<double> transfer_s) {
  const int bucket = size_bucket(w.elements);
  const std::string& name = models_.at(candidate).name;
  history_.record({w.signature, bucket, name}, seconds);
  if (transfer_s) history_.record({placed_signature(w), bucket, name}, seconds + *transfer_s);
  const double run_s = seconds + transfer_s.value_or(0);
  std::lock_guard lock(ledger_mutex_);
  Ledger& ledger = ledger_for(w.signature);
  ledger.run_s += run_s;
  ledger.largest_s = std::max(ledger.largest_s, run_s);
}

void Scheduler::charge_exploration(const Workload& w, double cost_s) {
  std::lock_guard lock(ledger_mutex_);
  ledger_for(w.signature).explored_s += cost_s;
}

Scheduler::Ledger& Scheduler::ledger_for(std::uint64_t signature) {
  if (ledgers_.size() >= kMaxLedgers && !ledgers_.contains(signature)) ledgers_.clear();
  return ledgers_[signature];
}

}  // namespace switchyard::scheduler

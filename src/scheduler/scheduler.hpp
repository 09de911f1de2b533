// The scheduler: ranks every candidate for a workload by predicted time (calibrated model,
// corrected by measured history), excludes those without memory for it, keeps a choice unless
// another is better by a margin (hysteresis), and caches decisions so the hot path costs well
// under a microsecond. Deterministic for a given set of models and history.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scheduler/cost_model.hpp"
#include "scheduler/device_model.hpp"
#include "scheduler/group.hpp"
#include "scheduler/history.hpp"
#include "scheduler/model_correction.hpp"
#include "scheduler/workload.hpp"

namespace switchyard::scheduler {

// Why a candidate was chosen (or not): the raw material of explain.
enum class Reason : std::uint8_t {
  OnlyCandidate,        // one candidate could take it
  LowestPredicted,      // model prediction, no history yet
  LowestMeasured,       // measured history decided
  KeptByHysteresis,     // another is predicted slightly faster, not by the margin
  Exploring,            // a candidate with too few measurements, run there where it costs little
  CompileInBackground,  // best device not compiled yet: runs where ready meanwhile
  InsufficientMemory,   // (per candidate) working set does not fit
  MovingReusedData,     // inputs kept coming back: the time lost leaving them reached moving them
  Forced,               // SWITCHYARD_BACKEND or a DeviceScope
};

std::string_view describe(Reason r);

struct CandidateEstimate {
  int candidate = 0;  // index into the scheduler's models
  CostBreakdown predicted;
  ModelCorrection correction;        // of the model's execute time, from other sizes measured
  std::optional<double> measured_s;  // history estimate, when there is one
  int samples = 0;                   // behind measured_s (History::Measured::weight)
  double execute_s = 0;              // launch + compute: the model corrected, blended with history
  double expected_s = 0;             // what ranking uses (blend of measured and predicted)
  double resident_s = 0;             // expected_s were the inputs there already
  bool has_routine = true;  // the device has a routine for the op (a dense solver for Solver ops)
  bool fits = true;         // it has the routine and the memory for the working set
  bool compiled = true;
};

// Data that keeps coming back (ski rental). Work may run where its inputs are although another
// candidate would be faster with the inputs there, because moving them costs more than it saves
// once. Then each run loses `lost_s`; the runtime charges that to the inputs' storage, and moves
// them when the sum reaches `move_s`. Data read again and again moves after at most twice the
// best placement's cost; data read once never moves.
struct Rent {
  int candidate = -1;  // the candidate faster were the inputs there; -1: none
  double lost_s = 0;   // the chosen's expected time over that candidate's with the inputs there
  double move_s = 0;   // the expected cost of moving the inputs there
};

struct Decision {
  std::vector<CandidateEstimate> ranking;  // fitting candidates best first, then non-fitting
  int chosen = 0;                          // candidate index
  Reason reason = Reason::LowestPredicted;
  double explore_cost_s = 0;   // when exploring: the chosen's expected time over the best's
  double best_expected_s = 0;  // when exploring: the best's expected time, what it is measured
                               // against (metrics' explored_over_best_s)
  Rent rent;                   // what staying where the inputs are costs
};

struct SchedulerOptions {
  double memory_reserve = 0.3;    // SWITCHYARD_MEMORY_RESERVE
  double hysteresis = 0.15;       // a challenger must be predicted this much faster to take over
  int history_trust_samples = 3;  // samples at which measurement fully replaces the model
                                  // (at most History::kWindow)
  // Exploring: a candidate measured fewer than history_trust_samples times for a kernel and size
  // is run there to measure it only where that cannot cost much. Either it is expected within
  // explore_within of the best (a full-size run loses at most that, a bounded number of times), or
  // the run is small: expected at most explore_share of the kernel's largest run so far, and its
  // expected loss fits the kernel's exploration budget, explore_share of the time the kernel has
  // run (every exploration is charged to it). What small sizes measure corrects the model at every
  // size (ModelCorrection), so large sizes need not be explored. `explore` false: never explore.
  bool explore = true;  // SWITCHYARD_EXPLORE=bounded|off
  double explore_within = 1.3;
  double explore_share = 0.05;
  // Ranking again when estimates drift costs at most this share of the time. A cached choice
  // whose history has only drifted (estimates of candidates with full sample windows moving
  // past the noise, History::generation) is used again without a new ranking until
  // 1 / decide_share times what its ranking took has passed since it was made: about 100 us for
  // a ranking of 5 us, a few dozen runs of a tiny kernel, the very next run of anything longer.
  // What teaches something new (a candidate's first samples, a replaced history) is ranked again
  // at once, and so are exploring and compiling choices. 0: always rank again at once.
  double decide_share = 0.05;
};

class Scheduler {
 public:
  // Throws ValueError without models, when two share a name (history is keyed by name) or for
  // options out of range.
  Scheduler(std::vector<DeviceModel> models, SchedulerOptions options = {});

  const std::vector<DeviceModel>& models() const { return models_; }
  const SchedulerOptions& options() const { return options_; }
  History& history() { return history_; }
  const History& history() const { return history_; }

  // The full rankings choose() has made and the time they took: what deciding costs.
  struct RankingStats {
    std::int64_t rankings = 0;
    double ranking_s = 0;
    double longest_s = 0;  // the longest ranking (a thread descheduled in one lengthens it)
  };
  RankingStats ranking_stats() const;

  // Full ranking with breakdowns (explain, and the slow path of choose).
  // `compiled[i]` says whether the kernel is ready on candidate i (empty: all ready).
  Decision decide(const Workload& w, const std::vector<bool>& compiled = {}) const;

  // What choose() knows besides the candidate.
  struct ChoiceDetails {
    Reason reason = Reason::LowestPredicted;  // as cached_reason() would say, without a lookup
    Rent rent;                                // what leaving the inputs where they are costs
    std::uint64_t version = 0;                // version(w) when the choice was ranked
    double best_expected_s = 0;               // Decision::best_expected_s
  };
  // Hot path: the cached choice for (signature, size bucket, residency, result-to-host, which
  // candidates are compiled), falling back to decide() on a miss or when history has moved since
  // it was cached (SchedulerOptions::decide_share); a previous choice is then kept unless beaten
  // by the hysteresis margin. `details`, when given, receives the rest of the choice.
  int choose(const Workload& w, const std::vector<bool>& compiled = {},
             ChoiceDetails* details = nullptr);
  // The version of the history w's choice depends on (moved by its kernel's and size's series):
  // a choice ranked at the version it has now (ChoiceDetails::version) was not kept while
  // history moved (SchedulerOptions::decide_share).
  std::uint64_t version(const Workload& w) const;
  // Why choose() last picked what it did for this key (KeptByHysteresis shows only here, since
  // decide() has no memory); nullopt before the first choose().
  std::optional<Reason> cached_reason(const Workload& w,
                                      const std::vector<bool>& compiled = {}) const;

  // `seconds`: the measured execute time (launch + compute) of w on `candidate`, kept per
  // (signature, size bucket, candidate). With `transfer_s` (the rest of the run: moving its
  // inputs there, allocating its outputs, the backend's own work around the launch), the whole
  // run is also kept per residency of w's inputs: the model's copy figures
  // (one latency, one bandwidth measured out of the caches) missed copies of cached data by
  // 2-3x on PoCL. Compile time is left out (it depends on the kernel cache), and so is the
  // result's trip to the host (it happens later, if at all): the model keeps predicting them.
  void record(const Workload& w, int candidate, double seconds,
              std::optional<double> transfer_s = std::nullopt);

  // Placement of a whole step (group.hpp): the placement it runs with now, each step on its own
  // best candidate, and every step on one device, each predicted over the group with data moving
  // between steps as each placement moves it, corrected by what whole runs of that placement
  // measured. The placement it runs with is kept unless another is expected faster by the
  // hysteresis margin.
  GroupDecision decide_group(std::span<const GroupStep> steps) const;
  // A whole run of the group, placed as its steps' candidates say, took `seconds`.
  void record_group(std::span<const GroupStep> steps, double seconds);

  // The size (elements) nearest to w.elements at which the best-ranked candidate changes,
  // searching a factor of 10^4 each way (bytes and flops scaled with the elements, `compiled` as
  // decide() takes it: the ranking it starts from is decide(w, compiled)'s); nullopt when the
  // choice never flips there.
  std::optional<std::int64_t> break_even(const Workload& w,
                                         const std::vector<bool>& compiled = {}) const;

 private:
  struct CachedChoice {
    int candidate;
    Reason reason;
    double explore_cost_s;  // when exploring: expected time over the best's, charged per run
    double best_expected_s;
    Rent rent;
    std::uint64_t generation;  // the sum of History::generation(signature, bucket) of the
                               // plain and the residency keys when decided
    std::chrono::steady_clock::time_point decided_at;
    double ranking_s;  // how long that ranking took
  };
  // Whether `cached`, whose history has moved to `generation`, is used once more
  // (SchedulerOptions::decide_share).
  bool use_stale(const CachedChoice& cached, std::uint64_t generation) const;
  static constexpr std::size_t kMaxCachedDecisions = 4096;  // bounds memory for endless shapes
  // What one kernel (signature) has run and what exploring it has cost: its exploration budget.
  struct Ledger {
    double run_s = 0;       // every measured run of it
    double largest_s = 0;   // its longest run
    double explored_s = 0;  // expected loss of the runs chosen to explore
  };
  static constexpr std::size_t kMaxLedgers = 4096;

  std::uint64_t cache_key(const Workload& w, const std::vector<bool>& compiled) const;
  // `correction`: of this kernel's model on that candidate (correction()); `measured`:
  // History::estimates(w.signature), every candidate's.
  CandidateEstimate estimate(const Workload& w, std::size_t candidate, bool compiled,
                             const ModelCorrection& correction,
                             std::span<const History::BucketEstimate> measured) const {
    return placed(w, executing(w, candidate, compiled, correction, measured));
  }
  // estimate() in two parts. executing(): what does not depend on where the inputs are (compile,
  // execute, the result's trip back); placed(): moving w's inputs to the candidate of `e` (which
  // executing() priced for this work, its inputs anywhere) and whole runs measured with the
  // inputs where w has them. A group decision prices one step with its inputs in several places.
  CandidateEstimate executing(const Workload& w, std::size_t candidate, bool compiled,
                              const ModelCorrection& correction,
                              std::span<const History::BucketEstimate> measured) const;
  CandidateEstimate placed(const Workload& w, CandidateEstimate e) const;
  // Measured and modelled times blended by how many samples back the measurement.
  double trusted(int samples, double measured_s, double modelled_s) const;
  // Placing a group (group.cpp): what one decision has priced so far.
  struct GroupPricing;
  // Step i on `candidate`, its inputs where the steps before it ran on `candidates`: whether it
  // fits and its expected time.
  std::pair<bool, double> step_cost(std::span<const GroupStep> steps, std::size_t i, int candidate,
                                    const std::vector<int>& candidates,
                                    GroupPricing& pricing) const;
  // Each step on the best candidate of `device` (any device: -1) given where earlier steps left
  // its inputs, with the sum of their expected times; empty when a step fits none.
  std::pair<std::vector<int>, double> greedy_placement(std::span<const GroupStep> steps, int device,
                                                       GroupPricing& pricing) const;
  GroupAlternative group_alternative(std::span<const GroupStep> steps, std::vector<int> candidates,
                                     double predicted_s) const;
  // `measured`: History::estimates(w.signature), every candidate's.
  ModelCorrection correction(const Workload& w, const DeviceModel& m,
                             std::span<const History::BucketEstimate> measured) const;
  const CandidateEstimate* challenger(const std::vector<CandidateEstimate>& ranking,
                                      const Ledger& ledger) const;
  Ledger ledger(std::uint64_t signature) const;
  void charge_exploration(const Workload& w, double cost_s);
  Ledger& ledger_for(std::uint64_t signature);  // caller holds ledger_mutex_; bounded map
  Decision redecide(const Workload& w, const std::vector<bool>& compiled,
                    std::optional<int> previous) const;
  // The candidate that beats the chosen by the hysteresis margin were the inputs there.
  static Rent rent_of(const Decision& d, double hysteresis);

  std::vector<DeviceModel> models_;
  std::vector<const DeviceModel*> device_models_;  // by device index: d2h figures of sources
  SchedulerOptions options_;
  History history_;
  mutable std::shared_mutex cache_mutex_;  // guards decisions_
  std::unordered_map<std::uint64_t, CachedChoice> decisions_;
  std::atomic<std::int64_t> rankings_ = 0, ranking_ns_ = 0, longest_ranking_ns_ = 0;
  mutable std::mutex ledger_mutex_;                    // guards ledgers_
  std::unordered_map<std::uint64_t, Ledger> ledgers_;  // by kernel signature
};

}  // namespace switchyard::scheduler

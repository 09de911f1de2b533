// Measured history: every execution's time per (kernel signature, size bucket, candidate).
// Robust to noise: the estimate is the median of recent samples after rejecting outliers by
// median absolute deviation (a few 100x timing spikes never move the estimate), and old samples
// decay (a bounded window, newest kept). Persisted with the profile.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace switchyard::scheduler {

struct HistoryKey {
  std::uint64_t signature;
  int bucket;
  std::string candidate;  // DeviceModel::name
  auto operator<=>(const HistoryKey&) const = default;
};

class History {
 public:
  static constexpr int kWindow = 16;  // samples kept per key (older ones decay out)
  // Series a saved profile keeps: the most recently used. Every process loads the profile at its
  // first placement and merges into it at exit; unbounded, a profile grew to 9,305 series
  // (2.2 MB, one test-suite run), which cost each process 0.7 s (2.5 s under ASan).
  static constexpr std::size_t kMaxSaved = 1024;

  History() = default;
  History(const History& other);
  // Bumps the generation past both histories', so decisions cached against this one are redone.
  History& operator=(const History& other);

  // Ignores what cannot be a duration (negative, NaN, infinite).
  void record(const HistoryKey& key, double seconds);
  // Robust estimate (median after MAD outlier rejection), or nullopt without samples.
  std::optional<double> estimate(const HistoryKey& key) const;
  int samples(const HistoryKey& key) const;
  // Both at once (one lookup): samples 0 and estimate 0 without samples.
  struct Measured {
    int samples = 0;
    double estimate_s = 0;
    int fresh = 0;  // of the samples, those this process measured
    // How many samples the estimate counts as: those measured by earlier processes (loaded from
    // the profile, maybe under another load, on another day) count as one together until this
    // process measures again.
    int weight() const { return std::min(samples, fresh + (samples > fresh ? 1 : 0)); }
  };
  Measured measured(const HistoryKey& key) const;
  // The estimate of every bucket of `signature` that any candidate has samples for, by candidate
  // then bucket.
  struct BucketEstimate {
    std::string candidate;
    int bucket;
    double estimate_s;
    int weight;  // as Measured::weight()
  };
  std::vector<BucketEstimate> estimates(std::uint64_t signature) const;
  // Bumped whenever a key's sample count grows (until its window is full) or its estimate moves
  // from the value it had at the last bump by more than 10% and by more than two standard errors
  // (noise is no news): decision caches compare it.
  // Lock-free: read on the scheduler's hot path.
  std::uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  // The same, moved only by keys of this signature and bucket (and by replacing the whole
  // history): what a decision about them depends on, so a noisy series of another kernel does
  // not send every cached decision back to the slow path. Striped: keys sharing a stripe move
  // each other's, which costs only a redundant re-decision. Lock-free. Two counts in one word:
  // learning() is moved by what teaches the scheduler something new (a sample count that grows,
  // samples merged from elsewhere, a replaced history), the rest by estimates that drift.
  std::uint64_t generation(std::uint64_t signature, int bucket) const {
    return (replaced_.load(std::memory_order_acquire) << kLearningShift) +
           stripes_[stripe(signature, bucket)].load(std::memory_order_acquire);
  }
  static std::uint64_t learning(std::uint64_t generation) { return generation >> kLearningShift; }

  // Adds the samples `other` measured in this process (recorded, not loaded from JSON) to this
  // history: how a process merges what it measured into a profile that other processes may
  // have extended since it was read. Each key keeps its newest kWindow samples.
  void merge_measured(const History& other);

  // An array of {"signature": "<16 hex digits>", "bucket", "candidate", "samples": [s, ...],
  // "used": n}, of the kMaxSaved series used most recently (largest "used": the logical time of
  // a series' newest sample).
  nlohmann::json to_json() const;
  // Throws nlohmann::json::exception on malformed input (the profile loader catches it).
  static History from_json(const nlohmann::json& j);

 private:
  struct Series {
    std::vector<double> samples_s;  // oldest first, at most kWindow
    double estimate_s = 0;          // robust estimate of samples_s
    double published_s = 0;         // estimate at the last generation bump for this key
    double noise_s = 0;             // standard error of estimate_s (from the samples' MAD)
    int measured = 0;  // newest samples recorded by this process (not loaded), at most kWindow
    std::uint64_t used = 0;  // logical time of the newest sample (clock_ when it was added)
  };
  static void add_sample(Series& series, double seconds);  // caller holds the lock

  static constexpr std::size_t kStripes = 1024;
  static constexpr int kLearningShift = 32;  // generation(): learning count above, drift below
  // Moves the generation of the key's stripe, by a learning step or by drift.
  void bump(const HistoryKey& key, bool learning);
  static std::size_t stripe(std::uint64_t signature, int bucket) {
    return ((signature ^ static_cast<std::uint64_t>(bucket)) * 0x9e3779b97f4a7c15ull) >> 54;
  }

  // One bit per signature hash, set once a series of that signature exists (never cleared): a
  // lookup of a signature never measured, most of what a group decision prices, takes no lock.
  static constexpr std::size_t kPresenceWords = 64;
  void mark_present(std::uint64_t signature);
  bool maybe_present(std::uint64_t signature) const;
  void mark_present_as(const History& other);  // every bit `other` has

  mutable std::mutex mutex_;  // guards series_ and clock_
  std::map<HistoryKey, Series> series_;
  std::array<std::atomic<std::uint64_t>, kPresenceWords> present_{};
  std::uint64_t clock_ = 0;  // the largest Series::used
  std::atomic<std::uint64_t> generation_ = 0;
  std::atomic<std::uint64_t> replaced_ = 0;  // bumped when the whole history is replaced
  std::array<std::atomic<std::uint64_t>, kStripes> stripes_{};
};

}  // namespace switchyard::scheduler

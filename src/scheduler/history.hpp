// Measured history: every execution's time per (kernel signature, size bucket, candidate).
// Robust to noise: the estimate is the median of recent samples after rejecting outliers by
// median absolute deviation (a few 100x timing spikes never move the estimate), and old samples
// decay (a bounded window, newest kept). Persisted with the profile.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
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

  History() = default;
  History(const History& other);
  // Bumps the generation past both histories', so decisions cached against this one are redone.
  History& operator=(const History& other);

  // Ignores what cannot be a duration (negative, NaN, infinite).
  void record(const HistoryKey& key, double seconds);
  // Robust estimate (median after MAD outlier rejection), or nullopt without samples.
  std::optional<double> estimate(const HistoryKey& key) const;
  int samples(const HistoryKey& key) const;
  // Bumped whenever a key's sample count grows (until its window is full) or its estimate moves
  // by more than 10% from the value it had at the last bump: decision caches compare it.
  // Lock-free: read on the scheduler's hot path.
  std::uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

  // An array of {"signature": "<16 hex digits>", "bucket", "candidate", "samples": [s, ...]}.
  nlohmann::json to_json() const;
  // Throws nlohmann::json::exception on malformed input (the profile loader catches it).
  static History from_json(const nlohmann::json& j);

 private:
  struct Series {
    std::vector<double> samples_s;  // oldest first, at most kWindow
    double estimate_s = 0;          // robust estimate of samples_s
    double published_s = 0;         // estimate at the last generation bump for this key
  };
  static void add_sample(Series& series, double seconds);  // caller holds the lock

  mutable std::mutex mutex_;  // guards series_
  std::map<HistoryKey, Series> series_;
  std::atomic<std::uint64_t> generation_ = 0;
};

}  // namespace switchyard::scheduler

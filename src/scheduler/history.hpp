// Measured history: every execution's time per (kernel signature, size bucket, candidate).
// Robust to noise: the estimate is the median of recent samples after rejecting outliers by
// median absolute deviation (a few 100x timing spikes never move the estimate), and old samples
// decay (a bounded window, newest kept). Persisted with the profile.
#pragma once

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

  void record(const HistoryKey& key, double seconds);
  // Robust estimate (median after MAD outlier rejection), or nullopt without samples.
  std::optional<double> estimate(const HistoryKey& key) const;
  int samples(const HistoryKey& key) const;
  // Bumped whenever an estimate moves by more than 10%: decision caches compare it.
  std::uint64_t generation() const;

  nlohmann::json to_json() const;
  // Throws nlohmann::json::exception on malformed input (the profile loader catches it).
  static History from_json(const nlohmann::json& j);

 private:
  mutable std::mutex mutex_;  // guards samples_ and generation_
  std::map<HistoryKey, std::vector<double>> samples_;
  std::uint64_t generation_ = 0;
};

}  // namespace switchyard::scheduler

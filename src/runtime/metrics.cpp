#include "runtime/metrics.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace switchyard {
namespace runtime {
namespace {

struct MetricsStore {
  std::mutex mutex;  // guards everything below
  MetricsTotals totals;
  std::unordered_map<std::uint64_t, KernelMetrics> kernels;
  std::vector<DeviceMetrics> devices;  // sorted by id; a handful, so a vector beats a map
  std::array<ExecutionRecord, kRecentExecutions> recent;  // ring buffer
  std::size_t next_recent = 0, recent_count = 0;
};

MetricsStore& store() {
  static MetricsStore* s = new MetricsStore;  // never destroyed: work may outlive statics
  return *s;
}

void add(MetricsTotals& t, const ExecutionSample& s) {
  ++t.count;
  t.total_s += s.total_s;
  t.compile_s += s.compile_s;
  t.transfer_s += s.transfer_s;
  t.execute_s += s.execute_s;
  t.elements += s.elements;
  t.bytes_moved += s.bytes_moved;
  t.fallbacks += s.fallbacks;
  t.cache_hits += s.cache_hit;
  t.explored += s.explored;
  if (s.explored) t.explored_s += s.total_s;
  t.explored_over_best_s += s.explored_over_best_s;
  if (s.predicted_s > 0) {
    ++t.predicted_count;
    t.predicted_s += s.predicted_s;
    t.predicted_measured_s += s.total_s;
  }
}

// By hand rather than snprintf, which alone took ~80 ns of the hot path.
void format_signature(std::uint64_t signature, std::string& out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out.resize(16);
  for (int i = 15; i >= 0; --i, signature >>= 4) out[i] = kDigits[signature & 0xf];
}

DeviceMetrics& device_entry(MetricsStore& s, std::string_view device) {
  auto it =
      std::lower_bound(s.devices.begin(), s.devices.end(), device,
                       [](const DeviceMetrics& d, std::string_view id) { return d.device < id; });
  if (it == s.devices.end() || it->device != device)
    it = s.devices.insert(it, DeviceMetrics{std::string(device), {}, 0});
  return *it;
}

void store_record(ExecutionRecord& r, const ExecutionSample& s) {
  r.device.assign(s.device);
  format_signature(s.signature, r.signature);
  r.label.assign(s.label);
  r.elements = s.elements;
  r.bytes_moved = s.bytes_moved;
  r.compile_s = s.compile_s;
  r.transfer_s = s.transfer_s;
  r.execute_s = s.execute_s;
  r.total_s = s.total_s;
  r.cache_hit = s.cache_hit;
  r.predicted_s = s.predicted_s;
  r.fallbacks = s.fallbacks;
  r.chosen_reason.assign(s.chosen_reason);
  r.explored = s.explored;
}

nlohmann::json to_json(const MetricsTotals& t) {
  nlohmann::json j = {{"count", t.count},
                      {"total_s", t.total_s},
                      {"mean_s", t.mean_s()},
                      {"compile_s", t.compile_s},
                      {"transfer_s", t.transfer_s},
                      {"execute_s", t.execute_s},
                      {"elements", t.elements},
                      {"bytes_moved", t.bytes_moved},
                      {"fallbacks", t.fallbacks},
                      {"cache_hits", t.cache_hits},
                      {"explored", t.explored},
                      {"explored_s", t.explored_s},
                      {"explored_over_best_s", t.explored_over_best_s},
                      {"predicted_count", t.predicted_count}};
  // null rather than 0 when nothing was predicted: 0 would read as "predicted nothing takes time"
  j["predicted_over_measured"] =
      t.predicted_count ? nlohmann::json(t.predicted_over_measured()) : nlohmann::json();
  return j;
}

nlohmann::json to_json(const ExecutionRecord& r) {
  return {{"device", r.device},
          {"signature", r.signature},
          {"label", r.label},
          {"elements", r.elements},
          {"bytes_moved", r.bytes_moved},
          {"compile_s", r.compile_s},
          {"transfer_s", r.transfer_s},
          {"execute_s", r.execute_s},
          {"total_s", r.total_s},
          {"cache_hit", r.cache_hit},
          {"predicted_s", r.predicted_s},
          {"fallbacks", r.fallbacks},
          {"chosen_reason", r.chosen_reason},
          {"explored", r.explored}};
}

}  // namespace

void record_execution(const ExecutionSample& sample) {
  MetricsStore& s = store();
  std::lock_guard lock(s.mutex);
  add(s.totals, sample);
  KernelMetrics& k = s.kernels[sample.signature];
  if (k.signature.empty()) {
    format_signature(sample.signature, k.signature);
    k.label.assign(sample.label);
  }
  add(k.totals, sample);
  add(device_entry(s, sample.device).totals, sample);
  store_record(s.recent[s.next_recent], sample);
  s.next_recent = (s.next_recent + 1) % s.recent.size();
  s.recent_count = std::min(s.recent_count + 1, s.recent.size());
}

void record_failed_attempt(std::string_view device) {
  MetricsStore& s = store();
  std::lock_guard lock(s.mutex);
  ++device_entry(s, device).failures;
}

}  // namespace runtime

Metrics metrics() {
  runtime::MetricsStore& s = runtime::store();
  Metrics m;
  std::lock_guard lock(s.mutex);
  m.totals = s.totals;
  m.kernels.reserve(s.kernels.size());
  for (const auto& [signature, k] : s.kernels) m.kernels.push_back(k);
  std::sort(m.kernels.begin(), m.kernels.end(), [](const auto& a, const auto& b) {
    return a.totals.total_s != b.totals.total_s ? a.totals.total_s > b.totals.total_s
                                                : a.signature < b.signature;
  });
  m.devices = s.devices;
  const std::size_t oldest = (s.next_recent + s.recent.size() - s.recent_count) % s.recent.size();
  for (std::size_t i = 0; i < s.recent_count; ++i)
    m.recent.push_back(s.recent[(oldest + i) % s.recent.size()]);
  return m;
}

std::string metrics_json() {
  const Metrics m = metrics();
  nlohmann::json kernels = nlohmann::json::array(), devices = nlohmann::json::array(),
                 recent = nlohmann::json::array();
  for (const KernelMetrics& k : m.kernels) {
    nlohmann::json j = runtime::to_json(k.totals);
    j["signature"] = k.signature;
    j["label"] = k.label;
    kernels.push_back(std::move(j));
  }
  for (const DeviceMetrics& d : m.devices) {
    nlohmann::json j = runtime::to_json(d.totals);
    j["device"] = d.device;
    j["failures"] = d.failures;
    devices.push_back(std::move(j));
  }
  for (const ExecutionRecord& r : m.recent) recent.push_back(runtime::to_json(r));
  return nlohmann::json{{"totals", runtime::to_json(m.totals)},
                        {"kernels", std::move(kernels)},
                        {"devices", std::move(devices)},
                        {"recent", std::move(recent)}}
      .dump();
}

void reset_metrics() {
  runtime::MetricsStore& s = runtime::store();
  std::lock_guard lock(s.mutex);
  s.totals = {};
  s.kernels.clear();
  s.devices.clear();
  s.next_recent = s.recent_count = 0;
}

}  // namespace switchyard

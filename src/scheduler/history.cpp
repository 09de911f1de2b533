#include "scheduler/history.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

namespace switchyard::scheduler {
namespace {

// An estimate "moves" when it leaves this band around the value caches last saw: small drift is
// not worth redoing cached decisions.
constexpr double kGenerationBand = 0.10;
// ... nor is drift within the estimate's own noise: a move must also exceed this many standard
// errors of the median (1.2533·sigma/sqrt(n) for normal data). Without it, noisy series (PoCL
// launches on a loaded machine, sub-microsecond CPU runs) moved by 10% on almost every sample
// and each move invalidated every cached decision: interleaving runs on all candidates put the
// scheduler's slow path (~0.5 us) on nearly every eager op.
constexpr double kGenerationStandardErrors = 2.0;
constexpr double kMedianStandardError = 1.2533;
// 1.4826·MAD estimates the standard deviation of normal data; 3 of those is the usual cut-off.
constexpr double kOutlierSigmas = 3.0;
constexpr double kMadToSigma = 1.4826;

// Samples fit on the stack (at most kWindow): the estimate is recomputed on every record, which
// the executor makes for every kernel it runs, so it must not allocate.
using Window = std::array<double, History::kWindow>;

// The median of the sorted values [first, first + n).
double sorted_median(const double* first, std::size_t n) {
  const std::size_t mid = n / 2;
  return n % 2 == 1 ? first[mid] : (first[mid - 1] + first[mid]) / 2;
}

// Median of the samples left after dropping those further than 3 sigma (by MAD) from the median.
// When more than half the samples are equal, MAD is 0 and only those equal ones are kept.
// `sigma_s` receives the samples' spread (1.4826·MAD). Two sorts of at most kWindow values: the
// samples kept are a run of the sorted ones, whose median is read off directly.
double robust_estimate(const std::vector<double>& samples, double& sigma_s) {
  Window values{}, deviations{};
  const std::size_t n = std::min(samples.size(), values.size());
  std::copy_n(samples.begin(), n, values.begin());
  std::sort(values.begin(), values.begin() + n);
  const double m = sorted_median(values.data(), n);
  for (std::size_t i = 0; i < n; ++i) deviations[i] = std::abs(values[i] - m);
  std::sort(deviations.begin(), deviations.begin() + n);
  sigma_s = kMadToSigma * sorted_median(deviations.data(), n);
  const double limit = kOutlierSigmas * sigma_s;
  std::size_t first = 0, last = n;
  while (std::abs(values[first] - m) > limit) ++first;
  while (std::abs(values[last - 1] - m) > limit) --last;
  // never empty: at least half the samples deviate by <= MAD
  return sorted_median(values.data() + first, last - first);
}

std::string to_hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

std::uint64_t from_hex(const nlohmann::json& j) {
  const auto& text = j.get_ref<const std::string&>();
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw nlohmann::json::other_error::create(
        501, "history signature is not a 64-bit hex number: \"" + text + "\"", &j);
  return v;
}

// Beyond what any bucket can be (4·log2 of 2^64 elements), and beyond any run's duration.
constexpr std::int64_t kMaxBucket = 256;
constexpr double kMaxSample_s = 1e6;

bool is_duration(double seconds) {
  return std::isfinite(seconds) && seconds >= 0;
}

}  // namespace

History::History(const History& other) {
  std::lock_guard lock(other.mutex_);
  series_ = other.series_;
  clock_ = other.clock_;
  generation_ = other.generation();
  mark_present_as(other);
}

History& History::operator=(const History& other) {
  if (this == &other) return *this;
  std::scoped_lock lock(mutex_, other.mutex_);
  series_ = other.series_;
  clock_ = other.clock_;
  mark_present_as(other);
  generation_ = std::max(generation(), other.generation()) + 1;
  replaced_.fetch_add(1, std::memory_order_acq_rel);
  return *this;
}

namespace {

std::pair<std::size_t, std::uint64_t> presence_bit(std::uint64_t signature) {
  const std::uint64_t bit = (signature * 0x9e3779b97f4a7c15ull) >> 52;  // of 4096
  return {static_cast<std::size_t>(bit >> 6), std::uint64_t{1} << (bit & 63)};
}

}  // namespace

void History::mark_present(std::uint64_t signature) {
  const auto [word, bit] = presence_bit(signature);
  if (!(present_[word].load(std::memory_order_relaxed) & bit))
    present_[word].fetch_or(bit, std::memory_order_release);
}

bool History::maybe_present(std::uint64_t signature) const {
  const auto [word, bit] = presence_bit(signature);
  return (present_[word].load(std::memory_order_acquire) & bit) != 0;
}

void History::mark_present_as(const History& other) {
  for (std::size_t i = 0; i < kPresenceWords; ++i)
    present_[i].fetch_or(other.present_[i].load(std::memory_order_acquire),
                         std::memory_order_release);
}

void History::add_sample(Series& series, double seconds) {
  series.samples_s.push_back(seconds);
  if (series.samples_s.size() > static_cast<std::size_t>(kWindow))
    series.samples_s.erase(series.samples_s.begin());
  double sigma_s = 0;
  series.estimate_s = robust_estimate(series.samples_s, sigma_s);
  series.noise_s =
      kMedianStandardError * sigma_s / std::sqrt(static_cast<double>(series.samples_s.size()));
}

void History::record(const HistoryKey& key, double seconds) {
  if (!is_duration(seconds)) return;
  std::lock_guard lock(mutex_);
  Series& series = series_[key];
  mark_present(key.signature);
  // Until the window is full of this process's samples the count grows, and with it the weight
  // the scheduler gives the estimate (Measured::weight): that moves decisions as much as a moving
  // estimate does.
  const bool count_grows =
      series.samples_s.size() < static_cast<std::size_t>(kWindow) || series.measured < kWindow;
  add_sample(series, seconds);
  series.used = ++clock_;
  series.measured = std::min(series.measured + 1, kWindow);
  const double band_s =
      std::max(kGenerationBand * series.published_s, kGenerationStandardErrors * series.noise_s);
  if (count_grows || std::abs(series.estimate_s - series.published_s) > band_s) {
    series.published_s = series.estimate_s;
    bump(key, count_grows);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
}

void History::bump(const HistoryKey& key, bool learning) {
  stripes_[stripe(key.signature, key.bucket)].fetch_add(
      learning ? std::uint64_t{1} << kLearningShift : 1, std::memory_order_acq_rel);
}

std::optional<double> History::estimate(const HistoryKey& key) const {
  std::lock_guard lock(mutex_);
  const auto it = series_.find(key);
  if (it == series_.end()) return std::nullopt;
  return it->second.estimate_s;
}

int History::samples(const HistoryKey& key) const {
  std::lock_guard lock(mutex_);
  const auto it = series_.find(key);
  return it == series_.end() ? 0 : static_cast<int>(it->second.samples_s.size());
}

History::Measured History::measured(const HistoryKey& key) const {
  if (!maybe_present(key.signature)) return {};
  std::lock_guard lock(mutex_);
  const auto it = series_.find(key);
  if (it == series_.end()) return {};
  return {static_cast<int>(it->second.samples_s.size()), it->second.estimate_s,
          it->second.measured};
}

std::vector<History::BucketEstimate> History::estimates(std::uint64_t signature) const {
  std::vector<BucketEstimate> out;
  if (!maybe_present(signature)) return out;
  out.reserve(8);  // a few candidates at a few sizes: one allocation on the decision's path
  std::lock_guard lock(mutex_);
  // Keys sort by signature first: the signature's series are one range of the map.
  for (auto it = series_.lower_bound({signature, std::numeric_limits<int>::min(), {}});
       it != series_.end() && it->first.signature == signature; ++it) {
    const Series& series = it->second;
    const Measured measured{static_cast<int>(series.samples_s.size()), series.estimate_s,
                            series.measured};
    out.push_back({it->first.candidate, it->first.bucket, series.estimate_s, measured.weight()});
  }
  return out;
}

void History::merge_measured(const History& other) {
  if (this == &other) return;
  std::scoped_lock lock(mutex_, other.mutex_);
  bool changed = false;
  for (const auto& [key, theirs] : other.series_) {
    const auto n = std::min(static_cast<std::size_t>(theirs.measured), theirs.samples_s.size());
    if (n == 0) continue;
    Series& series = series_[key];
    mark_present(key.signature);
    for (std::size_t i = theirs.samples_s.size() - n; i < theirs.samples_s.size(); ++i)
      add_sample(series, theirs.samples_s[i]);
    series.measured = std::min(series.measured + static_cast<int>(n), kWindow);
    series.used = ++clock_;
    series.published_s = series.estimate_s;
    bump(key, true);
    changed = true;
  }
  if (changed) generation_.fetch_add(1, std::memory_order_acq_rel);
}

nlohmann::json History::to_json() const {
  std::lock_guard lock(mutex_);
  // The oldest use kept: every series used later is saved, and as many used then as fit (uses
  // repeat only where older profiles did not keep them: 0).
  std::uint64_t oldest_kept = 0;
  std::size_t at_oldest = series_.size();
  if (series_.size() > kMaxSaved) {
    std::vector<std::uint64_t> uses;
    uses.reserve(series_.size());
    for (const auto& [key, series] : series_) uses.push_back(series.used);
    const auto kth = uses.begin() + static_cast<std::ptrdiff_t>(kMaxSaved - 1);
    std::nth_element(uses.begin(), kth, uses.end(), std::greater<>());
    oldest_kept = *kth;
    at_oldest = static_cast<std::size_t>(
        std::count(uses.begin(), kth + 1, oldest_kept));  // of the first kMaxSaved
  }
  auto entries = nlohmann::json::array();
  for (const auto& [key, series] : series_) {
    if (series.used < oldest_kept) continue;
    if (series.used == oldest_kept) {
      if (at_oldest == 0) continue;
      --at_oldest;
    }
    entries.push_back({{"signature", to_hex(key.signature)},
                       {"bucket", key.bucket},
                       {"candidate", key.candidate},
                       {"samples", series.samples_s},
                       {"used", series.used}});
  }
  return entries;
}

History History::from_json(const nlohmann::json& j) {
  History h;
  for (const auto& entry : j.get_ref<const nlohmann::json::array_t&>()) {
    const auto& bucket = entry.at("bucket");
    if (!bucket.is_number_integer() || bucket.get<std::int64_t>() < 0 ||
        bucket.get<std::int64_t>() > kMaxBucket)
      throw nlohmann::json::other_error::create(
          504, "history bucket is not a size bucket: " + bucket.dump(), &bucket);
    const HistoryKey key{from_hex(entry.at("signature")), bucket.get<int>(),
                         entry.at("candidate").get<std::string>()};
    const auto& samples = entry.at("samples").get_ref<const nlohmann::json::array_t&>();
    if (samples.empty())
      throw nlohmann::json::other_error::create(502, "history entry without samples", &entry);
    Series& series = h.series_[key];
    h.mark_present(key.signature);
    for (const auto& sample : samples) {
      if (!sample.is_number() || !is_duration(sample.get<double>()) ||
          sample.get<double>() > kMaxSample_s)
        throw nlohmann::json::other_error::create(
            503, "history sample is not a duration in seconds: " + sample.dump(), &sample);
      add_sample(series, sample.get<double>());
    }
    series.published_s = series.estimate_s;
    // Absent from profiles written before it was kept: those series count as oldest.
    const auto& used = entry.value("used", nlohmann::json(0));
    if (!used.is_number_unsigned() && !(used.is_number_integer() && used.get<std::int64_t>() >= 0))
      throw nlohmann::json::other_error::create(505, "history use is not a count: " + used.dump(),
                                                &used);
    series.used = used.get<std::uint64_t>();
    h.clock_ = std::max(h.clock_, series.used);
  }
  h.generation_ = 1;
  return h;
}

}  // namespace switchyard::scheduler

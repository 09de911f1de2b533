// The events query as pipeline stages: total (one fused pass), running total (compaction and
// scan), top-k (a cut from a sorted sample, then a sort of the few events above it).
#include "switchyard/apps/query.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "checks.hpp"

namespace switchyard::apps::query {
namespace {

namespace q = switchyard::pipeline;

void check(const Events& e, const Query& query) {
  if (!e.values || !e.weights)
    throw ValueError("query run: events values and weights must not be null");
  check_run(e.values.shape(), e.values.dtype(), e.weights.shape(), e.weights.dtype(), query);
}

// The kept events' revenues, over `values` and the matching `weights` (both the events' arrays,
// or the same strided view of each).
q::Query kept_revenue_of(const Array& values, const Array& weights, const Query& query) {
  const double threshold = query.threshold, scale = query.scale;
  return q::from(values)
      .where([threshold](const Array& v) { return v > threshold; })
      .map([weights, scale](const Array& v) { return v * weights * scale; });
}

// The k largest kept revenues, largest first, ties at the later event first. A sorted sample of
// every stride-th event gives a cut that at least k events reach (the sample's k-th largest),
// so only the events at or above it are compacted and sorted, not all n. With a sample of
// about sqrt(n·k) events both sorts hold about sqrt(n·k) elements.
void select_top_k(const Events& e, const Query& query, std::int64_t k, Result& r) {
  if (k == 0) return;
  const std::int64_t n = e.values.size();
  const auto sample = static_cast<std::int64_t>(
      std::ceil(std::sqrt(static_cast<double>(n) * static_cast<double>(k))));
  const std::int64_t stride = std::max<std::int64_t>(1, n / sample);
  double cut = -std::numeric_limits<double>::infinity();
  if (stride > 1) {
    const q::Query sampled =
        kept_revenue_of(e.values.slice(0, 0, n, stride), e.weights.slice(0, 0, n, stride), query);
    const Array sorted = sampled.sort();
    r.stages.push_back({"top_k_cut", sampled.report()});
    if (sorted.size() >= k) cut = sorted[sorted.size() - k].item<double>();
  }
  const q::Query candidates =
      kept_revenue_of(e.values, e.weights, query).where(pipeline::_1 >= cut);
  // Positions of the candidates by ascending revenue (ties in event order): the last k, read
  // backwards, are the answer.
  const Array order = candidates.argsort();
  r.stages.push_back({"top_k", candidates.report()});
  const std::int64_t last = order.size() - 1, stop = last - k;
  const Array top = order.slice(0, last, stop >= 0 ? std::optional(stop) : std::nullopt, -1);
  r.top_events = top.to_vector<std::int64_t>();
  r.top_revenue = (e.values[top] * e.weights[top] * query.scale).to_vector<double>();
}

}  // namespace

Events synthetic_events(std::int64_t n, std::uint64_t seed, DType dtype) {
  if (n < 0) throw ValueError("synthetic_events: n must be >= 0, given " + std::to_string(n));
  if (dtype != DType::Float32 && dtype != DType::Float64)
    throw DTypeError("synthetic_events: dtype must be float32 or float64, given " +
                     std::string(name(dtype)));
  Events e{Array::normal({n}, seed, 0, 1, dtype), Array::uniform({n}, seed + 1, 0.5, 1.5, dtype)};
  eval(e.values, e.weights);
  return e;
}

Result run(const Events& events, const Query& query) {
  check(events, query);
  const q::Query kept_revenue = kept_revenue_of(events.values, events.weights, query);
  Result r;
  r.total = kept_revenue.sum().item<double>();
  r.stages.push_back({"total", kept_revenue.report()});
  r.running_total = kept_revenue.scan(Accumulate::Sum);
  r.stages.push_back({"running_total", kept_revenue.report()});
  r.count = r.running_total.size();
  select_top_k(events, query, std::min(query.top_k, r.count), r);
  return r;
}

}  // namespace switchyard::apps::query

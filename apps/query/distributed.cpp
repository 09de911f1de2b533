// The decomposed query: the where, map and top-k candidates are each rank's own work on its
// devices; a count per rank (compress), the kept revenues' move to row blocks (redistribute),
// one partial per block (sum, cumsum) and k candidates per rank (top_k) cross between ranks.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "checks.hpp"
#include "switchyard/apps/query_dist.hpp"

namespace switchyard::apps::query {
namespace {

void check(const DistEvents& e, const Query& query) {
  dist::require_same_layout("query run", e.values, e.weights);
  check_run(e.values.shape(), e.values.dtype(), e.weights.shape(), e.weights.dtype(), query);
}

// Each of this rank's events' global position, in the events' layout.
dist::DistArray event_positions(const dist::DistArray& values) {
  const std::int64_t first = values.layout().first_row(values.communicator().rank());
  return values.with_local(Array::arange(first, first + values.local().shape()[0]));
}

// The events that the kept revenues at `top` (positions among the kept events, replicated) came
// from, in top's order: the kept events' positions at top, compressed and gathered (k int64).
std::vector<std::int64_t> events_at(const dist::DistArray& kept_events,
                                    const std::vector<std::int64_t>& top) {
  const dist::Layout& layout = kept_events.layout();
  const std::int64_t first = layout.first_row(kept_events.communicator().rank());
  const std::int64_t rows = kept_events.local().shape()[0];
  std::vector<std::uint8_t> mine(static_cast<std::size_t>(rows), 0);  // bool, one byte each
  for (const std::int64_t t : top)
    if (t >= first && t < first + rows) mine[t - first] = 1;
  const Array keep = Array::from_host(mine.data(), mine.size(), {rows}, DType::Bool);
  const dist::DistArray picked = dist::compress(kept_events, kept_events.with_local(keep));
  // Compress keeps the kept order, so picked holds top's events by ascending position in top.
  const std::vector<std::int64_t> ascending = dist::gather(picked).to_vector<std::int64_t>();
  std::vector<std::int64_t> order(top.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&top](auto i, auto j) { return top[i] < top[j]; });
  std::vector<std::int64_t> events(top.size());
  for (std::size_t i = 0; i < order.size(); ++i) events[order[i]] = ascending[i];
  return events;
}

}  // namespace

DistEvents distribute(const Events& events, const dist::Communicator& comm,
                      std::int64_t block_rows) {
  if (!events.values || !events.weights)
    throw ValueError("query distribute: events values and weights must not be null");
  const dist::Layout rows =
      dist::Layout::row_blocks(events.values.shape()[0], comm.size(), block_rows);
  return {dist::DistArray::distribute(events.values, rows, comm),
          dist::DistArray::distribute(events.weights, rows, comm)};
}

DistResult run(const DistEvents& events, const Query& query) {
  check(events, query);
  const double threshold = query.threshold, scale = query.scale;
  const dist::DistArray keep =
      dist::map([threshold](const Array& v) { return v > threshold; }, events.values);
  const dist::DistArray revenue =
      dist::map([scale](const Array& v, const Array& w) { return v * w * scale; }, events.values,
                events.weights);
  const dist::DistArray kept = dist::compress(revenue, keep);
  const std::int64_t count = kept.layout().rows();
  const dist::Layout& layout = events.values.layout();
  const dist::DistArray blocks = dist::redistribute(
      kept, dist::Layout::row_blocks(count, layout.ranks(), layout.block_rows()));

  DistResult r{.count = count,
               .total = dist::sum(blocks),
               .running_total = dist::cumsum(blocks),
               .top_revenue = {},
               .top_events = {}};
  const TopK top = dist::top_k(kept, std::min(query.top_k, count));
  r.top_revenue = top.values.to_vector<double>();
  r.top_events = events_at(dist::compress(event_positions(events.values), keep),
                           top.indices.to_vector<std::int64_t>());
  return r;
}

}  // namespace switchyard::apps::query

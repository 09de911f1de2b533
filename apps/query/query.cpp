// The events query as pipeline stages: total (one fused pass), running total (compaction and
// scan), top-k (one selection over the revenues, the dropped events masked to -inf).
#include "switchyard/apps/query.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace switchyard::apps::query {
namespace {

namespace q = switchyard::pipeline;

void check(const Events& e, const Query& query) {
  if (!e.values || !e.weights)
    throw ValueError("query run: events values and weights must not be null");
  if (e.values.ndim() != 1)
    throw ShapeError("query run: values must be 1-D, given shape " + to_string(e.values.shape()));
  if (e.weights.shape() != e.values.shape())
    throw ShapeError("query run: weights must have the shape of values " +
                     to_string(e.values.shape()) + ", given " + to_string(e.weights.shape()));
  for (const Array* a : {&e.values, &e.weights})
    if (a->dtype() != DType::Float32 && a->dtype() != DType::Float64)
      throw DTypeError(std::string("query run: ") + (a == &e.values ? "values" : "weights") +
                       " must be float32 or float64, given " + std::string(name(a->dtype())));
  if (!std::isfinite(query.threshold))
    throw ValueError("query run: threshold must be finite, given " +
                     std::to_string(query.threshold));
  if (!std::isfinite(query.scale))
    throw ValueError("query run: scale must be finite, given " + std::to_string(query.scale));
  if (query.top_k < 0)
    throw ValueError("query run: top_k must be >= 0, given " + std::to_string(query.top_k));
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
  const Array weights = events.weights;
  const double threshold = query.threshold, scale = query.scale;
  const q::Lambda kept = [threshold](const Array& v) { return v > threshold; };
  const q::Lambda revenue = [weights, scale](const Array& v) { return v * weights * scale; };
  const q::Query kept_revenue = q::from(events.values).where(kept).map(revenue);

  Result r;
  r.total = kept_revenue.sum().item<double>();
  r.stages.push_back({"total", kept_revenue.report()});
  r.running_total = kept_revenue.scan(Accumulate::Sum);
  r.stages.push_back({"running_total", kept_revenue.report()});
  r.count = r.running_total.size();

  const std::int64_t k = std::min(query.top_k, r.count);
  TopK top;
  const double lowest = -std::numeric_limits<double>::infinity();
  r.stages.push_back({"top_k", q::measure("top_k", events.values.size(), [&] {
                        const Array v = events.values;
                        top = top_k(where(kept(v), revenue(v), Array::full({}, lowest, v.dtype())),
                                    k);
                        eval(top.values, top.indices);
                      })});
  r.top_revenue = top.values.to_vector<double>();
  r.top_events = top.indices.to_vector<std::int64_t>();
  return r;
}

}  // namespace switchyard::apps::query

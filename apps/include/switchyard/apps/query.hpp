// A data query over events, the LINQ-style workload of compiled data queries: for every event
// (value v_i, weight w_i),
//
//   keep the events with v_i > threshold, map each to its revenue v_i · w_i · scale, then
//   report the kept count and total, the running total in event order (an inclusive scan), and
//   the k largest revenues with the events they came from.
//
// Built on switchyard::pipeline: the total is one fused pass (where acts as a mask), the scan
// compacts the kept revenues once, and the top-k sorts a sample and the few events above the
// cut it gives, not all n.
// Every stage leaves a pipeline::Report of what ran where and how long it took.
//
//   namespace query = switchyard::apps::query;
//   const query::Events events = query::synthetic_events(10'000'000, /*seed=*/1);
//   const query::Result r = query::run(events, {.threshold = 0.5, .top_k = 10});
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard::apps::query {

struct Events {
  Array values;   // (n), float32 or float64
  Array weights;  // (n), the same dtype
};

// values standard normal, weights uniform in [0.5, 1.5); seeded.
Events synthetic_events(std::int64_t n, std::uint64_t seed, DType dtype = DType::Float32);

struct Query {
  double threshold = 0;  // keep events with value > threshold
  double scale = 1;      // revenue = value · weight · scale
  std::int64_t top_k = 10;
};

struct Stage {
  // "total", "running_total", then, when top-k events are asked for and kept, "top_k_cut" (a
  // sorted sample, when there are events enough to sample) and "top_k"
  std::string name;
  pipeline::Report report;
};

struct Result {
  std::int64_t count = 0;           // kept events
  double total = 0;                 // Σ kept revenue
  Array running_total;              // (count): inclusive scan of kept revenue, on its device
  std::vector<double> top_revenue;  // the min(top_k, count) largest kept revenues, largest first
  std::vector<std::int64_t> top_events;  // their positions among the events
  std::vector<Stage> stages;             // in the order they ran
};

Result run(const Events& events, const Query& query = {});

}  // namespace switchyard::apps::query

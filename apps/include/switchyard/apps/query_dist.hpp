// The events query (query.hpp) across the ranks of an MPI job: each rank holds a run of row
// blocks of the events and keeps, maps and scans its own; the ranks exchange only what the
// query's answers need.
//
//   where      dist::compress of the revenues by v > threshold: a ragged layout, one int64
//              allgathered per rank
//   total      dist::sum, reproducible, of the kept revenues redistributed to row blocks (the
//              reproducible mode works by blocks and refuses a ragged layout)
//   running    dist::cumsum, reproducible, of the same row blocks
//   top-k      dist::top_k of the kept revenues (k candidates per rank), then the events they
//              came from: the k kept positions, compressed and gathered
//
// The count, the top-k revenues and their events are those of the one-process query on every
// rank, bit for bit. The total and the running total are bit-identical for any number of ranks
// (the reproducible mode's promise: they depend on block_rows, not the ranks) and differ from
// the one-process query's, which adds in another order, within about n·ε·Σ|revenue|.
//
//   namespace query = switchyard::apps::query;
//   const query::DistEvents events = query::distribute(query::synthetic_events(n, 1), comm);
//   const query::DistResult r = query::run(events, {.threshold = 0.5, .top_k = 10});
#pragma once

#include <cstdint>
#include <vector>

#include "switchyard/apps/query.hpp"
#include "switchyard/dist.hpp"

namespace switchyard::apps::query {

struct DistEvents {
  dist::DistArray values;   // this rank's rows of the events' values, (rows)
  dist::DistArray weights;  // in values' layout and dtype
};

// This rank's rows of events every rank holds whole (made from one seed, read from one file), in
// row blocks of block_rows.
DistEvents distribute(const Events& events, const dist::Communicator& comm = {},
                      std::int64_t block_rows = dist::kDefaultBlockRows);

// The same on every rank, but running_total, of which each rank holds its own rows.
struct DistResult {
  std::int64_t count = 0;                // kept events
  double total = 0;                      // Σ kept revenue, float64
  dist::DistArray running_total;         // (count), in row blocks of the events' block_rows
  std::vector<double> top_revenue;       // the min(top_k, count) largest, largest first
  std::vector<std::int64_t> top_events;  // their positions among the events
};

// Collective: every rank calls it with its rows of the same events and the same query. The
// argument errors of the one-process run, and LayoutError when values and weights differ in
// layout, are raised on every rank before any communication.
DistResult run(const DistEvents& events, const Query& query = {});

}  // namespace switchyard::apps::query

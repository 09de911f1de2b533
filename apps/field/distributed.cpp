// The decomposed field: each rank evaluates the fused expression on its rows of the grid; the
// statistics cross between ranks only as the reductions' partials (one float64 per block of rows
// in the reproducible mode, one per rank in the fast one).
#include <string>

#include "switchyard/apps/field_dist.hpp"
#include "wave.hpp"

namespace switchyard::apps::field {
namespace {

dist::DistArray rows_at(const DistGrid& g, const Params& params, double t) {
  const int rank = g.comm.rank();
  return dist::DistArray(frame(g.grid, params, t, g.rows.first_row(rank), g.rows.rows_of(rank)),
                         g.rows, g.comm);
}

Stats reduce(const DistGrid& g, const Params& params, double t, dist::Summation mode) {
  const dist::DistArray f = rows_at(g, params, t);
  const dist::DistArray magnitude = dist::map([](const Array& x) { return abs(x); }, f);
  const dist::DistArray power = dist::map(
      [](const Array& x) {
        const Array wide = x.astype(DType::Float64);
        return wide * wide;
      },
      f);
  return stats_from_sums(dist::sum(f, mode), dist::sum(magnitude, mode), dist::sum(power, mode),
                         g.grid.width * g.grid.height);
}

}  // namespace

DistGrid distribute(const Grid& grid, const dist::Communicator& comm, std::int64_t block_rows) {
  check("field distribute", grid, {});
  if (block_rows < 1)
    throw ValueError("field distribute: block_rows must be >= 1, given " +
                     std::to_string(block_rows));
  return {grid, dist::Layout::row_blocks(grid.height, comm.size(), block_rows), comm};
}

dist::DistArray frame(const DistGrid& grid, const Params& params, double t) {
  return rows_at(grid, params, t);
}

Stats statistics(const DistGrid& grid, const Params& params, double t, dist::Summation mode) {
  check("statistics", grid.grid, params);
  check_time("statistics", "t", t);
  return reduce(grid, params, t, mode);
}

std::vector<Stats> animate(const DistGrid& grid, const Params& params, std::int64_t frames,
                           double dt, double t0, dist::Summation mode) {
  check_animate("animate", grid.grid, params, frames, dt, t0);
  std::vector<Stats> out;
  for (std::int64_t i = 0; i < frames; ++i)
    out.push_back(reduce(grid, params, static_cast<double>(i) * dt + t0, mode));
  return out;
}

}  // namespace switchyard::apps::field

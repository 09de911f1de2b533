// The field (field.hpp) across the ranks of an MPI job: the grid's H rows in row blocks, each
// rank evaluating the fused expression on its own rows with no communication, and the
// statistics through the distributed reductions (reductions.hpp), three per frame:
//
//   Σ f, Σ |f|  dist::sum of the rank's rows of f and of |f|
//   Σ f²        dist::sum of the rows' squares taken in float64 (exact for a float32 field)
//
// A rank's rows are those of the one-process frame bit for bit (each row's y is computed as in
// the whole grid). In Summation::Reproducible the statistics are bit-identical for any number of
// ranks: they depend on block_rows, never on the ranks. The one-process statistics() and
// animate() do not add in fixed-order block partials (one fused Switchyard reduction over the
// grid), so the two agree within the sums' error bound, about 2(n + 1)·ε·Σ|term| for n = W·H
// terms and ε of the grid's dtype, not bit for bit. Summation::Fast adds one local sum per rank
// with MPI_Allreduce: the last bits then change with the number of ranks.
//
// Bit-identical results also need every rank to run the CPU's kernels the same way: give every
// process SWITCHYARD_NATIVE=off (native code and the interpreter round sin and exp differently).
//
//   namespace field = switchyard::apps::field;
//   const field::DistGrid grid = field::distribute({.width = 1024, .height = 768}, comm);
//   const field::Stats s = field::statistics(grid, {}, /*t=*/0.5);
#pragma once

#include <cstdint>
#include <vector>

#include "switchyard/apps/field.hpp"
#include "switchyard/dist.hpp"

namespace switchyard::apps::field {

struct DistGrid {
  Grid grid;          // the whole grid, the same on every rank
  dist::Layout rows;  // its H rows in row blocks over comm's ranks
  dist::Communicator comm;
};

// The grid's rows in row blocks of block_rows over comm's ranks: no communication. The grid's
// errors of the one-process functions, and ValueError for block_rows < 1.
DistGrid distribute(const Grid& grid, const dist::Communicator& comm = {},
                    std::int64_t block_rows = dist::kDefaultBlockRows);

// This rank's rows of frame(grid.grid, params, t), evaluated: no communication.
dist::DistArray frame(const DistGrid& grid, const Params& params, double t);

// Collective: the statistics of the frame at t, the same on every rank.
Stats statistics(const DistGrid& grid, const Params& params, double t,
                 dist::Summation mode = dist::Summation::Reproducible);

// Collective: the statistics of `frames` frames at t = t0 + i·dt (i·dt + t0 in float64, then
// rounded to the grid's dtype, as the one-process animate), one frame after another.
std::vector<Stats> animate(const DistGrid& grid, const Params& params, std::int64_t frames,
                           double dt, double t0 = 0,
                           dist::Summation mode = dist::Summation::Reproducible);

}  // namespace switchyard::apps::field

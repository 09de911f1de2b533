// What each rank contributes to a sum or scan over a distributed array: one float64 per block of
// rows (the reproducible summation), one for all its rows (the fast one), or one row per block
// (the reproducible scans).
#pragma once

#include <cstdint>
#include <vector>

#include "switchyard/algorithms.hpp"
#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

enum class BlockFold { Sum, SumOfSquares };

// The fold of each block this rank holds, in block order (layout().blocks_of(rank) values). The
// local rows are read to the host once (the work that makes them runs where the scheduler puts
// it) and each block's elements, widened to float64 and squared there when asked, are added by
// fixed_order_sum: a block's partial depends on its elements alone, not on the device, the rank
// that holds it or what else that rank holds.
std::vector<double> local_block_partials(const DistArray& a, BlockFold fold);

// The fold of all this rank's elements, by Switchyard in one kernel wherever it runs.
double local_fold(const DistArray& a, BlockFold fold);

// a + b, or a · b for Accumulate::Prod: the one step of the reproducible scans.
inline double combined(Accumulate op, double a, double b) {
  return op == Accumulate::Prod ? a * b : a + b;
}

struct BlockScans {
  std::vector<double> rows;    // the local rows' shape, in C order
  std::vector<double> totals;  // each block's last row, in block order
};

// Each block this rank holds scanned on its own along its rows, column by column, on the host
// in float64, one row after another: like a block's partial, it depends on its elements alone.
// op is Accumulate::Sum or Accumulate::Prod; the array float32 or float64.
BlockScans local_block_scans(const DistArray& a, Accumulate op);

// Every block's partials in block order, from this rank's (per_block values for each block it
// holds): an allgather, unless the array is replicated and this rank holds every block already.
std::vector<double> every_block_partial(const DistArray& a, std::vector<double> mine,
                                        std::int64_t per_block);

}  // namespace switchyard::dist

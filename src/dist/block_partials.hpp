// What each rank contributes to a sum over a distributed array: one float64 per block of rows
// (the reproducible summation), or one for all its rows (the fast one).
#pragma once

#include <vector>

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

}  // namespace switchyard::dist

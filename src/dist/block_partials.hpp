// What each rank contributes to a sum over a distributed array: one float64 per block of rows
// (the reproducible summation), or one for all its rows (the fast one).
#pragma once

#include <vector>

#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

enum class BlockFold { Sum, SumOfSquares };

// The fold of each block this rank holds, in block order (layout().blocks_of(rank) values), each
// computed by Switchyard in float64 from that block's elements alone: it does not depend on which
// rank holds the block or on what else that rank holds.
std::vector<double> local_block_partials(const DistArray& a, BlockFold fold);

// The fold of all this rank's elements, in one kernel.
double local_fold(const DistArray& a, BlockFold fold);

}  // namespace switchyard::dist

// Changing how rows are spread over the ranks. Always explicit: no other function moves rows.
#pragma once

#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

// The same global array in layout `to`, which must have a's rows and ranks (LayoutError
// otherwise). Row blocks to replicated is one allgather; row blocks to other row blocks (a
// rebalance, or another block size) one all-to-all that moves only the rows that change rank;
// replicated to row blocks takes each rank's rows locally, without communication. A ragged
// layout (compress.hpp) is one more run of rows per rank: to or from it, rows move as between
// row blocks.
DistArray redistribute(const DistArray& a, const Layout& to);

// The whole array on every rank (an allgather unless a is replicated already).
Array gather(const DistArray& a);

}  // namespace switchyard::dist

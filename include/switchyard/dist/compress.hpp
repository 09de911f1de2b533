// Keeping the rows of a distributed array that a mask selects.
#pragma once

#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

// The rows of `a` whose entry in `keep` is true, in order (NumPy's a[keep] for a bool vector):
// keep holds one bool per row, in a's layout. Each rank keeps its own rows, a local compaction on
// its devices, and the ranks' kept row counts are allgathered (one int64 each) for the result's
// ragged layout, with a's block_rows; a replicated array stays replicated, without
// communication. Redistribute the result to row blocks to balance it, or for the reproducible
// reductions and scans. DTypeError when keep is not bool, ShapeError when it is not one entry per
// row, LayoutError when the layouts or communicators differ.
DistArray compress(const DistArray& a, const DistArray& keep);

}  // namespace switchyard::dist

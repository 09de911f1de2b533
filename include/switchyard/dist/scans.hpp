// Inclusive scans along the rows (axis 0) of a distributed array: NumPy's cumsum and cumprod
// with axis=0, each column of a matrix on its own. The result has the array's layout and dtype.
// float32, float64 and int64 arrays (DTypeError otherwise); along another axis a scan is local
// work, for map.
#pragma once

#include "switchyard/dist/dist_array.hpp"
#include "switchyard/dist/reductions.hpp"

namespace switchyard::dist {

// Summation::Reproducible: the rank that holds a block of rows scans it on the host, on its own,
// row after row in float64; every block's last row (its column totals) is exchanged, and the
// offset of a block is the fold of the totals of the blocks before it, added (or multiplied) in
// block order. A row is its block's offset combined with its row of the block's scan, rounded
// once to the dtype. The result is bit-identical for any number of ranks, on every rank,
// whichever devices computed the array, and the same as Python's switchyard.dist. It differs
// from NumPy's strictly sequential scan in the last bits (float64 rows join at block ends, and
// float32 data is scanned in float64); both err by at most about i·ε·Σ|x| at row i. The cost
// beside Fast: one read of the local rows to the host and one write back, and an allgather of
// one row per block (1/block_rows of the data). A ragged layout is a LayoutError, as for the
// reproducible sums.
//
// Summation::Fast: Switchyard's own scan of the local rows wherever it runs, and MPI_Exscan of
// each rank's last row for the rows before its first, in the dtype; the last bits change with
// the number of ranks and the devices. Any layout.
//
// int64 is exact in any order (wrapping on overflow), so both modes take the fast path for it.
// A replicated array is scanned without communication, in the mode's way.
DistArray cumsum(const DistArray& a, Summation mode = Summation::Reproducible);
DistArray cumprod(const DistArray& a, Summation mode = Summation::Reproducible);

}  // namespace switchyard::dist

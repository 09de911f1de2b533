// Sorting a distributed vector, and its k largest elements, across the ranks.
#pragma once

#include <cstdint>

#include "switchyard/algorithms.hpp"
#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

// The elements of a 1-D float32, float64 or int64 array in ascending order, NaN last and -0.0
// equal to 0.0, as NumPy's np.sort of the gathered array. Stable: equal elements keep their global
// order (so -0.0 and 0.0, and NaNs of different payloads, land as in np.sort(kind="stable")).
//
// A sample sort: each rank sorts its own elements with Switchyard's argsort on its devices and
// picks `ranks` regular samples, tagged with their global positions; the samples are allgathered
// and every rank chooses the same ranks - 1 splitters from them. Splitting by (value, position),
// not value alone, spreads a run of equal values over several ranks and keeps it in order. The
// elements move in one MPI_Alltoall of counts and one MPI_Alltoallv, and each rank merges the
// sorted runs it receives, on the host, in rank order. The result is ragged (Layout::ragged with
// a's block_rows): rank r holds the r-th run of the sorted order, about rows / ranks elements for
// data of many distinct values (fewer or none where values repeat); redistribute it to row
// blocks for the reproducible reductions. A replicated array is sorted on every rank, without
// communication, and stays replicated.
//
// ShapeError unless a is 1-D, DTypeError for other dtypes: raised on every rank, before any
// communication.
DistArray sort(const DistArray& a);

// The k largest elements of a 1-D float32, float64 or int64 array, largest first, with their
// global (flat) positions, the same on every rank: switchyard::top_k of the gathered array, with
// its ties (equal values at decreasing positions) and NaN counted as the largest value. Each rank
// takes its own top min(k, rows) with switchyard::top_k, the candidates (at most k per rank) are
// allgathered and every rank keeps the best k of them: a sort of k·ranks candidates, not of the
// array. ValueError for k outside [0, rows], ShapeError and DTypeError as for sort, on every rank.
TopK top_k(const DistArray& a, std::int64_t k);

}  // namespace switchyard::dist

// Reductions over every element of a distributed array, with the result on every rank.
// float32 and float64 arrays; the results are float64 (float32 data is summed in float64).
#pragma once

#include <cstdint>

#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

enum class Summation {
  // The rank that holds a block of rows (layout.hpp) adds its elements on the host in one fixed
  // pairwise order, in float64; all block partials are exchanged and added in that order too,
  // the same on every rank. The result is bit-identical for any number of ranks, on every rank,
  // whichever devices computed the array. The cost beside Fast: one read of the local rows to
  // the host (the work that makes them still runs on the devices), a host pass over them, and
  // an allgather of one float64 per block. A ragged layout, whose ranks hold parts of blocks,
  // is a LayoutError: redistribute it to row blocks first.
  Reproducible,
  // One local sum per rank, added by MPI_Allreduce: one collective of 8 bytes, but the last
  // bits change with the number of ranks. Any layout.
  Fast,
};

double sum(const DistArray& a, Summation mode = Summation::Reproducible);
double mean(const DistArray& a, Summation mode = Summation::Reproducible);  // NaN when empty
// The 2-norm of all elements (Frobenius for a matrix): sqrt of the summed squares, which
// overflow float64 only for elements beyond about 1e154.
double norm(const DistArray& a, Summation mode = Summation::Reproducible);

// Exact whatever the order of combining, so bit-identical at any number of ranks without a
// mode. NaN propagates; argmin/argmax give the first occurrence's flat (row-major) global index,
// a NaN's first when there is one, as NumPy. ValueError when the array is empty.
double min(const DistArray& a);
double max(const DistArray& a);
std::int64_t argmin(const DistArray& a);
std::int64_t argmax(const DistArray& a);

}  // namespace switchyard::dist

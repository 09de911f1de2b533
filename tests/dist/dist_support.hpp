// What the distributed tests share: the sizes they check, the same global data on every rank, and
// checks that a value is the same on every rank.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <vector>

#include "switchyard/dist.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::dist::testing {

// The sizes the reductions and scans are checked at, each a (rows, columns) array (rows, when
// columns is 0) in row blocks of block_rows.
struct Case {
  std::int64_t rows, columns, block_rows;
  DType dtype;
};

inline void PrintTo(const Case& c, std::ostream* out) {
  *out << c.rows << "x" << c.columns << " " << name(c.dtype) << " in blocks of " << c.block_rows;
}

inline const Case kCases[] = {
    {1000, 3, 7, DType::Float32},       // the last block short (6 rows)
    {1000, 3, 7, DType::Float64},       // the same in float64
    {4099, 0, 64, DType::Float32},      // a vector, the last block of 3
    {10, 0, 4, DType::Float64},         // 3 blocks: at 4 ranks, one has no rows
    {99005, 0, 33000, DType::Float32},  // long blocks: 16 levels of pairs, odd counts in several
};

// A (rows, columns) array (rows, when columns is 0), the same on every rank: made from a seed.
inline Array global_array(std::int64_t rows, std::int64_t columns, DType dtype,
                          std::uint64_t seed = 7) {
  const Shape shape = columns == 0 ? Shape{rows} : Shape{rows, columns};
  Array a = Array::normal(shape, seed, 0, 1, dtype);
  eval(a);
  return a;
}

// Every rank's `value`, in rank order.
inline std::vector<double> from_every_rank(double value, const Communicator& comm = {}) {
  std::vector<double> all(comm.size());
  MPI_Allgather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm.native());
  return all;
}

inline bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace switchyard::dist::testing

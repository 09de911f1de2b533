// What the distributed tests share: the same global data on every rank, and checks that a value
// is the same on every rank.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "switchyard/dist.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::dist::testing {

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

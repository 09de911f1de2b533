// The MPI collectives the distributed arrays use, on bytes, with MPI's int counts checked once
// here. Each is called in the same order on every rank of the communicator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "switchyard/array.hpp"
#include "switchyard/dist/communicator.hpp"

namespace switchyard::dist {

// Throws CommunicationError naming `call`, with MPI's own text, unless code is MPI_SUCCESS.
void check_mpi(int code, const char* call);

// Every rank's bytes, concatenated in rank order; counts[r] is rank r's byte count.
std::vector<std::byte> allgatherv(const Communicator& comm, std::span<const std::byte> mine,
                                  std::span<const std::int64_t> counts);
// Sends send_counts[r] bytes to each rank r, taken from `send` in rank order, and returns what
// arrives, recv_counts[r] bytes from each rank r, in rank order.
std::vector<std::byte> alltoallv(const Communicator& comm, std::span<const std::byte> send,
                                 std::span<const std::int64_t> send_counts,
                                 std::span<const std::int64_t> recv_counts);
// Sends mine[r] to each rank r and returns, in rank order, the one each rank sent this one.
std::vector<std::int64_t> alltoall(const Communicator& comm, std::span<const std::int64_t> mine);
double allreduce_sum(const Communicator& comm, double value);
// Elementwise, the fold by `op` (MPI_SUM or MPI_PROD) of `mine` over the ranks before this one;
// `identity` on rank 0, where MPI leaves the result undefined. T is float, double or int64.
template <class T>
std::vector<T> exscan(const Communicator& comm, std::span<const T> mine, MPI_Op op, T identity);

// allgatherv of values: counts[r] values from rank r.
template <class T>
std::vector<T> allgatherv(const Communicator& comm, std::span<const T> mine,
                          std::span<const std::int64_t> counts) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<std::int64_t> bytes(counts.begin(), counts.end());
  for (std::int64_t& b : bytes) b *= static_cast<std::int64_t>(sizeof(T));
  const std::vector<std::byte> all = allgatherv(comm, std::as_bytes(mine), bytes);
  std::vector<T> values(all.size() / sizeof(T));
  if (!all.empty()) std::memcpy(values.data(), all.data(), all.size());  // no null pointers
  return values;
}

// An array's elements in C order, as bytes to send.
std::vector<std::byte> host_bytes(const Array& a);

}  // namespace switchyard::dist

#include "dist/collectives.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>

namespace switchyard::dist {
namespace {

// MPI 3's counts and displacements are int: a collective moves less than 2 GiB per rank.
std::vector<int> as_mpi_counts(std::span<const std::int64_t> counts, const char* call) {
  std::vector<int> out;
  out.reserve(counts.size());
  std::int64_t total = 0;
  for (const std::int64_t c : counts) {
    total += c;
    if (total > std::numeric_limits<int>::max())
      throw ValueError(std::string(call) + ": " + std::to_string(total) +
                       " bytes exceed MPI's int counts (2 GiB per rank in one collective); " +
                       "spread the array over more ranks");
    out.push_back(static_cast<int>(c));
  }
  return out;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> out(counts.size(), 0);
  std::exclusive_scan(counts.begin(), counts.end(), out.begin(), 0);
  return out;
}

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
}

}  // namespace

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw CommunicationError(std::string(call) + " failed: " + std::string(text, length));
}

std::vector<std::byte> allgatherv(const Communicator& comm, std::span<const std::byte> mine,
                                  std::span<const std::int64_t> counts) {
  const std::vector<int> n = as_mpi_counts(counts, "MPI_Allgatherv");
  const std::vector<int> at = displacements(n);
  std::vector<std::byte> all(static_cast<std::size_t>(at.back() + n.back()));
  check_mpi(MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, all.data(),
                           n.data(), at.data(), MPI_BYTE, comm.native()),
            "MPI_Allgatherv");
  return all;
}

std::vector<std::byte> alltoallv(const Communicator& comm, std::span<const std::byte> send,
                                 std::span<const std::int64_t> send_counts,
                                 std::span<const std::int64_t> recv_counts) {
  const std::vector<int> out = as_mpi_counts(send_counts, "MPI_Alltoallv");
  const std::vector<int> in = as_mpi_counts(recv_counts, "MPI_Alltoallv");
  const std::vector<int> out_at = displacements(out), in_at = displacements(in);
  std::vector<std::byte> received(static_cast<std::size_t>(in_at.back() + in.back()));
  check_mpi(MPI_Alltoallv(send.data(), out.data(), out_at.data(), MPI_BYTE, received.data(),
                          in.data(), in_at.data(), MPI_BYTE, comm.native()),
            "MPI_Alltoallv");
  return received;
}

std::vector<std::int64_t> alltoall(const Communicator& comm, std::span<const std::int64_t> mine) {
  std::vector<std::int64_t> theirs(mine.size());
  check_mpi(MPI_Alltoall(mine.data(), 1, MPI_INT64_T, theirs.data(), 1, MPI_INT64_T, comm.native()),
            "MPI_Alltoall");
  return theirs;
}

double allreduce_sum(const Communicator& comm, double value) {
  double total = 0;
  check_mpi(MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, comm.native()), "MPI_Allreduce");
  return total;
}

template <class T>
std::vector<T> exscan(const Communicator& comm, std::span<const T> mine, MPI_Op op, T identity) {
  const std::int64_t bytes = static_cast<std::int64_t>(mine.size_bytes());
  const int count =
      as_mpi_counts(std::span(&bytes, 1), "MPI_Exscan")[0] / static_cast<int>(sizeof(T));
  std::vector<T> before(mine.size(), identity);
  check_mpi(MPI_Exscan(mine.data(), before.data(), count, mpi_type<T>(), op, comm.native()),
            "MPI_Exscan");
  if (comm.rank() == 0) std::fill(before.begin(), before.end(), identity);
  return before;
}

template std::vector<float> exscan(const Communicator&, std::span<const float>, MPI_Op, float);
template std::vector<double> exscan(const Communicator&, std::span<const double>, MPI_Op, double);
template std::vector<std::int64_t> exscan(const Communicator&, std::span<const std::int64_t>,
                                          MPI_Op, std::int64_t);

std::vector<std::byte> host_bytes(const Array& a) {
  std::vector<std::byte> bytes(a.nbytes());
  a.to_host(bytes.data(), bytes.size());
  return bytes;
}

}  // namespace switchyard::dist

// Moving rows between layouts: only the rows that change rank travel, as host bytes in C order
// (MPI here is not device-aware: Switchyard copies device data to the host first).
#include "switchyard/dist/redistribute.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "dist/collectives.hpp"
#include "dist/rows.hpp"

namespace switchyard::dist {
namespace {

void require_same_rows(const DistArray& a, const Layout& to) {
  if (to.rows() != a.layout().rows() || to.ranks() != a.layout().ranks())
    throw LayoutError("redistribute: the new layout must have the array's " +
                      std::to_string(a.layout().rows()) + " rows over " +
                      std::to_string(a.layout().ranks()) + " ranks, given " +
                      std::to_string(to.rows()) + " rows over " + std::to_string(to.ranks()));
}

// Rows that [first_a, first_a + rows_a) and [first_b, first_b + rows_b) share.
std::int64_t shared_rows(std::int64_t first_a, std::int64_t rows_a, std::int64_t first_b,
                         std::int64_t rows_b) {
  return std::max<std::int64_t>(
      0, std::min(first_a + rows_a, first_b + rows_b) - std::max(first_a, first_b));
}

Array allgather_rows(const DistArray& a) {
  const Layout& from = a.layout();
  const auto row_bytes = static_cast<std::int64_t>(row_elements(a.shape()) * a.local().itemsize());
  std::vector<std::int64_t> counts(from.ranks());
  for (int r = 0; r < from.ranks(); ++r) counts[r] = from.rows_of(r) * row_bytes;
  const std::vector<std::byte> all =
      allgatherv(a.communicator(), host_bytes(a.local()), std::span<const std::int64_t>(counts));
  return Array::from_host(all.data(), all.size(), a.shape(), a.dtype());
}

// Both layouts are runs of rows in rank order, so the rows this rank sends to ranks 0, 1, ...
// follow one another in its local array, and so do the rows it receives.
Array exchange_rows(const DistArray& a, const Layout& to) {
  const Layout& from = a.layout();
  const int me = a.communicator().rank();
  const auto row_bytes = static_cast<std::int64_t>(row_elements(a.shape()) * a.local().itemsize());
  std::vector<std::int64_t> send(from.ranks()), receive(from.ranks());
  for (int r = 0; r < from.ranks(); ++r) {
    send[r] = row_bytes *
              shared_rows(from.first_row(me), from.rows_of(me), to.first_row(r), to.rows_of(r));
    receive[r] = row_bytes *
                 shared_rows(from.first_row(r), from.rows_of(r), to.first_row(me), to.rows_of(me));
  }
  const std::vector<std::byte> mine =
      alltoallv(a.communicator(), host_bytes(a.local()), send, receive);
  return Array::from_host(mine.data(), mine.size(), with_rows(a.shape(), to.rows_of(me)),
                          a.dtype());
}

}  // namespace

DistArray redistribute(const DistArray& a, const Layout& to) {
  require_same_rows(a, to);
  const Communicator& comm = a.communicator();
  if (to.is_replicated())
    return DistArray(a.layout().is_replicated() ? a.local() : allgather_rows(a), to, comm);
  if (a.layout().is_replicated()) return DistArray::distribute(a.local(), to, comm);
  return DistArray(exchange_rows(a, to), to, comm);
}

Array gather(const DistArray& a) {
  const Layout& from = a.layout();
  return redistribute(a, Layout::replicated(from.rows(), from.ranks(), from.block_rows())).local();
}

}  // namespace switchyard::dist

// Sample sort and the global top-k. Elements travel as host values (MPI here is not
// device-aware); the local sorts and top-ks run on each rank's devices.
#include "switchyard/dist/sort.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "dist/collectives.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::dist {
namespace {

void require_vector(std::string_view function, const DistArray& a) {
  if (a.ndim() != 1)
    throw ShapeError(std::string(function) + ": takes 1-D arrays, given shape " +
                     to_string(a.shape()) + "; reshape the local rows to 1-D with map first");
  const DType t = a.dtype();
  if (t != DType::Float32 && t != DType::Float64 && t != DType::Int64)
    throw DTypeError(std::string(function) + ": takes float32, float64 or int64 arrays, given " +
                     std::string(name(t)) + "; convert the local rows with astype");
}

// The sort's order: NaN after every number and equal to every NaN, -0.0 equal to 0.0.
template <class T>
bool before(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return false;
    if (std::isnan(y)) return true;
  }
  return x < y;
}

// An element and its global position: ordered by value, then position, a total order in which
// equal values keep their global order (the stable sort's order).
template <class T>
struct Tagged {
  T value;
  std::int64_t position;
};

template <class T>
bool before(const Tagged<T>& a, const Tagged<T>& b) {
  if (before(a.value, b.value)) return true;
  if (before(b.value, a.value)) return false;
  return a.position < b.position;
}

template <class T>
std::vector<Tagged<T>> tagged(const std::vector<T>& values,
                              const std::vector<std::int64_t>& positions) {
  std::vector<Tagged<T>> out(values.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {values[i], positions[i]};
  return out;
}

// This rank's elements in the sort's order, with their global positions: Switchyard's stable
// argsort, on the rank's devices.
template <class T>
std::vector<Tagged<T>> sorted_local(const DistArray& a) {
  const Array order = argsort(a.local());
  const Array values = take(a.local(), order);
  eval(order, values);
  std::vector<std::int64_t> positions = order.to_vector<std::int64_t>();
  const std::int64_t first = a.layout().first_row(a.communicator().rank());
  for (std::int64_t& p : positions) p += first;
  return tagged(values.to_vector<T>(), positions);
}

// Every rank's tagged values, in rank order: two allgathers (values and positions travel apart,
// so no struct padding goes over the wire).
template <class T>
std::vector<Tagged<T>> allgathered(const Communicator& comm, const std::vector<Tagged<T>>& mine,
                                   std::span<const std::int64_t> counts) {
  std::vector<T> values(mine.size());
  std::vector<std::int64_t> positions(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i)
    values[i] = mine[i].value, positions[i] = mine[i].position;
  return tagged(allgatherv(comm, std::span<const T>(values), counts),
                allgatherv(comm, std::span<const std::int64_t>(positions), counts));
}

// The ranks - 1 splitters, the same on every rank: `ranks` regular samples of each rank's sorted
// elements (all of them when it holds fewer), allgathered, sorted, and read at regular steps.
template <class T>
std::vector<Tagged<T>> splitters(const Communicator& comm, const std::vector<Tagged<T>>& run) {
  const auto ranks = static_cast<std::int64_t>(comm.size());
  const auto n = static_cast<std::int64_t>(run.size());
  const std::int64_t count = std::min(ranks, n);
  std::vector<Tagged<T>> mine;
  for (std::int64_t i = 0; i < count; ++i) mine.push_back(run[i * n / count]);
  const std::vector<std::int64_t> ones(comm.size(), 1);
  const std::vector<std::int64_t> counts =
      allgatherv(comm, std::span<const std::int64_t>(&count, 1), std::span(ones));
  std::vector<Tagged<T>> samples = allgathered(comm, mine, counts);
  std::sort(samples.begin(), samples.end(),
            [](const auto& a, const auto& b) { return before(a, b); });
  std::vector<Tagged<T>> out;
  const auto total = static_cast<std::int64_t>(samples.size());
  if (total == 0) return out;  // no elements on any rank: nothing moves
  for (std::int64_t r = 1; r < ranks; ++r) out.push_back(samples[r * total / ranks]);
  return out;
}

// How many of this rank's sorted elements go to each rank: rank r takes those from splitter r - 1
// (inclusive) to splitter r (exclusive).
template <class T>
std::vector<std::int64_t> send_counts(const std::vector<Tagged<T>>& run,
                                      const std::vector<Tagged<T>>& split, int ranks) {
  std::vector<std::int64_t> counts(ranks, 0);
  if (split.empty()) {
    counts[0] = static_cast<std::int64_t>(run.size());
    return counts;
  }
  auto from = run.begin();
  for (int r = 0; r < ranks; ++r) {
    const auto to =
        r + 1 < ranks ? std::lower_bound(from, run.end(), split[r],
                                         [](const auto& a, const auto& b) { return before(a, b); })
                      : run.end();
    counts[r] = to - from;
    from = to;
  }
  return counts;
}

// The sorted runs from every rank, concatenated in rank order, merged into one. Each run holds
// a range of (value, position) that follows the previous run's among equal values, so a stable
// merge by value alone gives the (value, position) order.
template <class T>
std::vector<T> merged(std::vector<T> values, const std::vector<std::int64_t>& counts) {
  auto end = values.begin();
  for (const std::int64_t c : counts) {
    const auto middle = end;
    end += c;
    std::inplace_merge(values.begin(), middle, end, [](T x, T y) { return before(x, y); });
  }
  return values;
}

// Sends send[r] of this rank's sorted values to each rank r, in rank order, and returns the runs
// that arrive, receive[r] values from each rank r, in rank order.
template <class T>
std::vector<T> exchanged(const Communicator& comm, const std::vector<Tagged<T>>& run,
                         std::vector<std::int64_t> send, std::vector<std::int64_t> receive) {
  std::vector<T> values(run.size());
  std::transform(run.begin(), run.end(), values.begin(), [](const auto& t) { return t.value; });
  for (std::int64_t& n : send) n *= static_cast<std::int64_t>(sizeof(T));
  for (std::int64_t& n : receive) n *= static_cast<std::int64_t>(sizeof(T));
  const std::vector<std::byte> bytes =
      alltoallv(comm, std::as_bytes(std::span(values)), send, receive);
  std::vector<T> arrived(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(arrived.data(), bytes.data(), bytes.size());  // no null pointers
  return arrived;
}

template <class T>
DistArray sample_sort(const DistArray& a) {
  const Communicator& comm = a.communicator();
  const std::vector<Tagged<T>> run = sorted_local<T>(a);
  const std::vector<std::int64_t> send = send_counts(run, splitters(comm, run), comm.size());
  const std::vector<std::int64_t> receive = alltoall(comm, send);
  const std::vector<T> mine = merged(exchanged(comm, run, send, receive), receive);
  const auto count = static_cast<std::int64_t>(mine.size());
  const std::vector<std::int64_t> ones(comm.size(), 1);
  const std::vector<std::int64_t> counts =
      allgatherv(comm, std::span<const std::int64_t>(&count, 1), std::span(ones));
  return DistArray(Array::from_vector(mine), Layout::ragged(counts, a.layout().block_rows()), comm);
}

// The best k of every rank's candidates, ordered as switchyard::top_k orders them: by value,
// largest first, then by position, last first (the stable ascending order read backwards).
template <class T>
TopK best_of(std::vector<Tagged<T>> candidates, std::int64_t k) {
  const auto first = [](const auto& a, const auto& b) { return before(b, a); };
  std::partial_sort(candidates.begin(), candidates.begin() + k, candidates.end(), first);
  std::vector<T> values(k);
  std::vector<std::int64_t> positions(k);
  for (std::int64_t i = 0; i < k; ++i)
    values[i] = candidates[i].value, positions[i] = candidates[i].position;
  return {Array::from_vector(values), Array::from_vector(positions)};
}

template <class T>
TopK global_top_k(const DistArray& a, std::int64_t k) {
  const Layout& layout = a.layout();
  const Communicator& comm = a.communicator();
  const std::int64_t mine = std::min(k, layout.rows_of(comm.rank()));
  const TopK local = switchyard::top_k(a.local(), mine);
  eval(local.values, local.indices);
  std::vector<std::int64_t> positions = local.indices.to_vector<std::int64_t>();
  const std::int64_t first = layout.first_row(comm.rank());
  for (std::int64_t& p : positions) p += first;
  std::vector<std::int64_t> counts(comm.size());
  for (int r = 0; r < comm.size(); ++r) counts[r] = std::min(k, layout.rows_of(r));
  return best_of(allgathered(comm, tagged(local.values.to_vector<T>(), positions), counts), k);
}

}  // namespace

DistArray sort(const DistArray& a) {
  require_vector("dist::sort", a);
  if (a.layout().is_replicated()) return a.with_local(take(a.local(), argsort(a.local())));
  switch (a.dtype()) {
    case DType::Float32:
      return sample_sort<float>(a);
    case DType::Float64:
      return sample_sort<double>(a);
    default:
      return sample_sort<std::int64_t>(a);
  }
}

TopK top_k(const DistArray& a, std::int64_t k) {
  require_vector("dist::top_k", a);
  const std::int64_t rows = a.layout().rows();
  if (k < 0 || k > rows)
    throw ValueError("dist::top_k: k must be in [0, " + std::to_string(rows) +
                     "] (the array's length), given " + std::to_string(k));
  if (a.layout().is_replicated()) return switchyard::top_k(a.local(), k);
  switch (a.dtype()) {
    case DType::Float32:
      return global_top_k<float>(a, k);
    case DType::Float64:
      return global_top_k<double>(a, k);
    default:
      return global_top_k<std::int64_t>(a, k);
  }
}

}  // namespace switchyard::dist

#include "switchyard/dist/scans.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "dist/block_partials.hpp"
#include "dist/collectives.hpp"
#include "dist/rows.hpp"
#include "switchyard/algorithms.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::dist {
namespace {

void require_scannable(std::string_view function, const DistArray& a) {
  if (!is_floating(a.dtype()) && a.dtype() != DType::Int64)
    throw DTypeError(std::string(function) + ": takes float32, float64 or int64 arrays, given " +
                     std::string(name(a.dtype())) + "; convert the local rows with astype");
}

// -0.0 rather than 0.0 for sums: -0.0 + x is x for every x, so a first row of -0.0 stays -0.0,
// as in NumPy.
double identity(Accumulate op) {
  return op == Accumulate::Prod ? 1.0 : -0.0;
}

template <class T>
DistArray fast_scan(const DistArray& a, Accumulate op) {
  const Array local = scan(a.local(), op, 0);
  if (a.layout().is_replicated()) return a.with_local(local);
  eval(local);  // read twice: its last row here, all of it in the result
  const std::int64_t rows = local.shape()[0];
  const auto identity_t = static_cast<T>(identity(op));
  std::vector<T> last(static_cast<std::size_t>(row_elements(local.shape())), identity_t);
  if (rows > 0) local.slice(0, rows - 1, rows).to_host(last.data(), last.size() * sizeof(T));
  const std::vector<T> before = exscan(a.communicator(), std::span<const T>(last),
                                       op == Accumulate::Prod ? MPI_PROD : MPI_SUM, identity_t);
  const Array offset = Array::from_vector(before, with_rows(local.shape(), 1));
  return a.with_local(op == Accumulate::Prod ? local * offset : local + offset);
}

// Combines the scans of this rank's blocks with the fold of the totals of every block before
// each, in block order; `totals` holds every block's.
void add_offsets(const DistArray& a, Accumulate op, std::vector<double>& rows,
                 const std::vector<double>& totals) {
  const Layout& layout = a.layout();
  const int me = a.communicator().rank();
  const std::int64_t per_row = row_elements(a.local().shape());
  const std::int64_t first = layout.first_block(me), end = first + layout.blocks_of(me);
  const auto step = [op](double x, double y) { return combined(op, x, y); };
  std::vector<double> offset(static_cast<std::size_t>(per_row), identity(op));
  const auto fold_in = [&](std::int64_t block) {
    const auto total = totals.begin() + block * per_row;
    std::transform(offset.begin(), offset.end(), total, offset.begin(), step);
  };
  for (std::int64_t block = 0; block < first; ++block) fold_in(block);
  for (std::int64_t block = first; block < end; ++block) {
    const std::int64_t row = (block - first) * layout.block_rows();
    const std::int64_t row_end = std::min(row + layout.block_rows(), a.local().shape()[0]);
    for (std::int64_t r = row; r < row_end; ++r) {
      const auto at = rows.begin() + r * per_row;
      std::transform(offset.begin(), offset.end(), at, at, step);
    }
    fold_in(block);
  }
}

template <class T>
Array rounded(const std::vector<double>& values, const Shape& shape) {
  std::vector<T> out(values.size());
  std::transform(values.begin(), values.end(), out.begin(),
                 [](double v) { return static_cast<T>(v); });
  return Array::from_vector(out, shape);
}

DistArray reproducible_scan(std::string_view function, const DistArray& a, Accumulate op) {
  a.layout().require_blocks(function);
  BlockScans mine = local_block_scans(a, op);
  const std::vector<double> totals =
      every_block_partial(a, std::move(mine.totals), row_elements(a.local().shape()));
  add_offsets(a, op, mine.rows, totals);
  const Shape& shape = a.local().shape();
  return a.with_local(a.dtype() == DType::Float32 ? rounded<float>(mine.rows, shape)
                                                  : rounded<double>(mine.rows, shape));
}

DistArray scanned(std::string_view function, const DistArray& a, Accumulate op, Summation mode) {
  require_scannable(function, a);
  switch (a.dtype()) {
    case DType::Int64:
      return fast_scan<std::int64_t>(a, op);
    case DType::Float32:
      return mode == Summation::Fast ? fast_scan<float>(a, op) : reproducible_scan(function, a, op);
    default:
      return mode == Summation::Fast ? fast_scan<double>(a, op)
                                     : reproducible_scan(function, a, op);
  }
}

}  // namespace

DistArray cumsum(const DistArray& a, Summation mode) {
  return scanned("dist::cumsum", a, Accumulate::Sum, mode);
}

DistArray cumprod(const DistArray& a, Summation mode) {
  return scanned("dist::cumprod", a, Accumulate::Prod, mode);
}

}  // namespace switchyard::dist

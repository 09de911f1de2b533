#include "dist/block_partials.hpp"

#include <algorithm>
#include <span>

#include "dist/collectives.hpp"
#include "dist/fixed_order_sum.hpp"
#include "dist/rows.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::dist {
namespace {

// The elements in C order, in their own dtype: float32 data crosses to the host at its own size.
template <class T>
std::vector<T> host_elements(const Array& a) {
  std::vector<T> out(static_cast<std::size_t>(a.size()));
  a.to_host(out.data(), out.size() * sizeof(T));
  return out;
}

template <class T>
std::vector<double> block_folds(std::span<const T> elements, std::int64_t rows,
                                std::int64_t per_row, std::int64_t block_rows, BlockFold fold) {
  std::vector<double> partials, terms;
  for (std::int64_t first = 0; first < rows; first += block_rows) {
    const std::int64_t block_end = std::min(first + block_rows, rows);
    const std::span<const T> block =
        elements.subspan(static_cast<std::size_t>(first * per_row),
                         static_cast<std::size_t>((block_end - first) * per_row));
    terms.assign(block.begin(), block.end());
    if (fold == BlockFold::SumOfSquares)
      for (double& t : terms) t *= t;
    partials.push_back(fixed_order_sum(terms));
  }
  return partials;
}

template <class T>
std::vector<double> block_folds_of(const Array& x, std::int64_t block_rows, BlockFold fold) {
  const std::vector<T> elements = host_elements<T>(x);
  return block_folds(std::span<const T>(elements), x.shape()[0], row_elements(x.shape()),
                     block_rows, fold);
}

template <class T>
BlockScans block_scans_of(const Array& x, std::int64_t block_rows, Accumulate op) {
  const std::vector<T> elements = host_elements<T>(x);
  BlockScans out{std::vector<double>(elements.begin(), elements.end()), {}};
  const std::int64_t rows = x.shape()[0], per_row = row_elements(x.shape());
  const auto at = [&](std::int64_t row) { return out.rows.begin() + row * per_row; };
  for (std::int64_t first = 0; first < rows; first += block_rows) {
    const std::int64_t block_end = std::min(first + block_rows, rows);
    for (std::int64_t row = first + 1; row < block_end; ++row)
      std::transform(at(row - 1), at(row), at(row), at(row),
                     [op](double before, double x) { return combined(op, before, x); });
    out.totals.insert(out.totals.end(), at(block_end - 1), at(block_end));
  }
  return out;
}

}  // namespace

std::vector<double> local_block_partials(const DistArray& a, BlockFold fold) {
  const std::int64_t block_rows = a.layout().block_rows();
  return a.dtype() == DType::Float32 ? block_folds_of<float>(a.local(), block_rows, fold)
                                     : block_folds_of<double>(a.local(), block_rows, fold);
}

double local_fold(const DistArray& a, BlockFold fold) {
  const Array x = a.local().astype(DType::Float64);
  return sum(fold == BlockFold::Sum ? x : x * x).item<double>();
}

BlockScans local_block_scans(const DistArray& a, Accumulate op) {
  const std::int64_t block_rows = a.layout().block_rows();
  return a.dtype() == DType::Float32 ? block_scans_of<float>(a.local(), block_rows, op)
                                     : block_scans_of<double>(a.local(), block_rows, op);
}

std::vector<double> every_block_partial(const DistArray& a, std::vector<double> mine,
                                        std::int64_t per_block) {
  const Layout& layout = a.layout();
  if (layout.is_replicated()) return mine;
  std::vector<std::int64_t> counts(layout.ranks());
  for (int r = 0; r < layout.ranks(); ++r) counts[r] = layout.blocks_of(r) * per_block;
  return allgatherv(a.communicator(), std::span<const double>(mine), std::span(counts));
}

}  // namespace switchyard::dist

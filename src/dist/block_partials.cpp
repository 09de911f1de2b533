#include "dist/block_partials.hpp"

#include <algorithm>
#include <span>

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

}  // namespace switchyard::dist

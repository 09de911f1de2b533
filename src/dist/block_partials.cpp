#include "dist/block_partials.hpp"

#include "dist/rows.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::dist {
namespace {

// (k, m) blocks, one per row, folded into k float64 values in one kernel.
Array folded(const Array& blocks, BlockFold fold) {
  const Array x = blocks.astype(DType::Float64);
  return sum(fold == BlockFold::Sum ? x : x * x, 1);
}

}  // namespace

std::vector<double> local_block_partials(const DistArray& a, BlockFold fold) {
  const std::int64_t rows = a.local().shape()[0], per_row = row_elements(a.local().shape());
  const std::int64_t block = a.layout().block_rows();
  const std::int64_t full = rows / block, short_rows = rows % block;
  const Array x = a.local().reshape({rows, per_row});
  // The full blocks are the rows of one reduction: Switchyard folds each row in an order fixed
  // by the row alone, whatever the rows around it, so a block's partial does not depend on how
  // many blocks a rank holds (tests/dist/reductions_test.cpp checks it against a kernel per
  // block). Only the array's last block can be short, and it is a kernel of its own.
  std::vector<Array> partials;
  if (full > 0)
    partials.push_back(folded(x.slice(0, 0, full * block).reshape({full, block * per_row}), fold));
  if (short_rows > 0)
    partials.push_back(
        folded(x.slice(0, full * block, rows).reshape({1, short_rows * per_row}), fold));
  if (partials.empty()) return {};
  eval(partials);
  return concatenate(partials, 0).to_vector<double>();
}

double local_fold(const DistArray& a, BlockFold fold) {
  return folded(a.local().reshape({1, a.local().size()}), fold).item<double>();
}

}  // namespace switchyard::dist

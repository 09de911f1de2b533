#include "switchyard/dist/compress.hpp"

#include <string>
#include <vector>

#include "dist/collectives.hpp"
#include "switchyard/algorithms.hpp"

namespace switchyard::dist {
namespace {

void require_row_mask(const DistArray& a, const DistArray& keep) {
  require_same_layout("dist::compress", a, keep);
  if (keep.dtype() != DType::Bool)
    throw DTypeError("dist::compress: keep must be bool, given " + std::string(name(keep.dtype())) +
                     "; a comparison makes one (x > 0)");
  if (keep.ndim() != 1)
    throw ShapeError("dist::compress: keep must hold one bool per row, shape (" +
                     std::to_string(a.layout().rows()) + ",), given " + to_string(keep.shape()));
}

}  // namespace

DistArray compress(const DistArray& a, const DistArray& keep) {
  require_row_mask(a, keep);
  const Array kept = take(a.local(), flatnonzero(keep.local()), 0);
  const Layout& from = a.layout();
  const std::int64_t mine = kept.shape()[0];
  if (from.is_replicated())
    return DistArray(kept, Layout::replicated(mine, from.ranks(), from.block_rows()),
                     a.communicator());
  const std::vector<std::int64_t> ones(from.ranks(), 1);
  const std::vector<std::int64_t> counts =
      allgatherv(a.communicator(), std::span<const std::int64_t>(&mine, 1), std::span(ones));
  return DistArray(kept, Layout::ragged(counts, from.block_rows()), a.communicator());
}

}  // namespace switchyard::dist

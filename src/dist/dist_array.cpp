#include "switchyard/dist/dist_array.hpp"

#include <string>

namespace switchyard::dist {
namespace {

void require_ranks(std::string_view function, const Layout& layout, const Communicator& comm) {
  if (layout.ranks() != comm.size())
    throw LayoutError(std::string(function) + ": the layout is for " +
                      std::to_string(layout.ranks()) + " ranks, the communicator has " +
                      std::to_string(comm.size()) +
                      "; make the layout with communicator.size() ranks");
}

}  // namespace

DistArray::DistArray(Array local, Layout layout, Communicator comm)
    : local_(std::move(local)), layout_(std::move(layout)), comm_(comm) {
  require_ranks("DistArray", layout_, comm_);
  if (!local_) throw ValueError("DistArray: the local array must not be null");
  const std::int64_t rows = layout_.rows_of(comm_.rank());
  if (local_.ndim() == 0 || local_.shape()[0] != rows)
    throw ShapeError("DistArray: rank " + std::to_string(comm_.rank()) + " holds " +
                     std::to_string(rows) + " rows of the layout along axis 0, given a local " +
                     "array of shape " + to_string(local_.shape()));
}

DistArray DistArray::distribute(const Array& global, Layout layout, Communicator comm) {
  require_ranks("DistArray::distribute", layout, comm);
  if (!global) throw ValueError("DistArray::distribute: the global array must not be null");
  if (global.ndim() == 0 || global.shape()[0] != layout.rows())
    throw ShapeError("DistArray::distribute: the layout has " + std::to_string(layout.rows()) +
                     " rows, given a global array of shape " + to_string(global.shape()));
  const std::int64_t first = layout.first_row(comm.rank());
  Array mine = global.slice(0, first, first + layout.rows_of(comm.rank()));
  return DistArray(std::move(mine), std::move(layout), comm);
}

Shape DistArray::shape() const {
  Shape s = local_.shape();
  s[0] = layout_.rows();
  return s;
}

DistArray DistArray::with_local(Array local) const {
  return DistArray(std::move(local), layout_, comm_);
}

void require_same_layout(std::string_view function, const DistArray& a, const DistArray& b) {
  if (!(a.communicator() == b.communicator()))
    throw LayoutError(std::string(function) + ": the arrays are on different communicators");
  if (!(a.layout() == b.layout()))
    throw LayoutError(std::string(function) +
                      ": the arrays have different layouts (rows, block_rows, or the rows each "
                      "rank holds); redistribute one to the other's layout first");
}

}  // namespace switchyard::dist

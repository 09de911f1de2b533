// A distributed array: this rank's rows of a global array (a local Switchyard array) and the
// layout that says which rows every rank holds. Work on the local rows is ordinary Switchyard
// work, lazy and fused, on this rank's devices; only the functions of redistribute.hpp and
// reductions.hpp communicate, and each says so.
#pragma once

#include <concepts>
#include <string_view>
#include <utility>

#include "switchyard/array.hpp"
#include "switchyard/dist/communicator.hpp"
#include "switchyard/dist/layout.hpp"

namespace switchyard::dist {

class DistArray {
 public:
  // `local` holds this rank's rows: layout.rows_of(comm.rank()) along axis 0, the other axes
  // whole. Throws LayoutError when the layout is for another number of ranks, ShapeError when
  // local's rows do not match it. (The other axes are not compared across ranks: that would
  // cost a collective.)
  DistArray(Array local, Layout layout, Communicator comm = {});
  // This rank's rows of `global`, an array every rank holds whole (read from one file, made from
  // one seed): a view, no communication.
  static DistArray distribute(const Array& global, Layout layout, Communicator comm = {});

  const Array& local() const { return local_; }
  const Layout& layout() const { return layout_; }
  const Communicator& communicator() const { return comm_; }
  DType dtype() const { return local_.dtype(); }
  Shape shape() const;  // global: layout().rows() along axis 0
  int ndim() const { return local_.ndim(); }

  // The same layout over new local rows (the result of local work on these).
  DistArray with_local(Array local) const;

 private:
  Array local_;
  Layout layout_;
  Communicator comm_;
};

// Throws LayoutError naming `function` unless a and b have one layout and one communicator.
void require_same_layout(std::string_view function, const DistArray& a, const DistArray& b);

// Local work on arrays of one layout, as f(first.local(), rest.local()...): elementwise and
// fused expressions need no communication and stay one kernel per rank. f must keep the rows
// (axis 0) as they are. Throws LayoutError when the layouts or communicators differ.
template <class F, std::same_as<DistArray>... Rest>
DistArray map(F&& f, const DistArray& first, const Rest&... rest) {
  (require_same_layout("map", first, rest), ...);
  return first.with_local(std::forward<F>(f)(first.local(), rest.local()...));
}

}  // namespace switchyard::dist

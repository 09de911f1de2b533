#include "switchyard/dist/linalg.hpp"

#include <string>

#include "switchyard/ops.hpp"

namespace switchyard::dist {

DistArray matmul(const DistArray& a, const DistArray& b) {
  if (!(a.communicator() == b.communicator()))
    throw LayoutError("dist::matmul: the arrays are on different communicators");
  if (!b.layout().is_replicated())
    throw LayoutError(
        "dist::matmul: b must be replicated on every rank, given one in row blocks; "
        "redistribute it to Layout::replicated first");
  const Shape sa = a.shape(), sb = b.shape();
  if (sa.size() != 2 || (sb.size() != 1 && sb.size() != 2) || sa[1] != sb[0])
    throw ShapeError("dist::matmul: expected a (M, K) and b (K, N) or (K,), given a " +
                     to_string(sa) + " and b " + to_string(sb));
  return a.with_local(switchyard::matmul(a.local(), b.local()));
}

}  // namespace switchyard::dist

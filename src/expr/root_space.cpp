#include "expr/root_space.hpp"

#include <algorithm>
#include <bit>

namespace switchyard::expr {

int RootSpace::reduced_axes() const {
  return std::max(std::popcount(axes), 1);
}

RootSpace space_of(const Node& root, const NodePtr& operand) {
  if (root.kind != NodeKind::Reduce) return {root.shape, root.shape, {}};
  RootSpace s{operand->shape, operand->shape, {}};
  s.reduction = true;
  const int rank = operand->shape.size();
  s.axes = root.reduce.axes;
  const std::uint32_t all = rank == 0 ? 0 : (rank >= 32 ? ~0u : (1u << rank) - 1);
  if (rank == 0 || (s.axes & all) == all) return s;
  s.over = ir::ReduceOver::TrailingAxes;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < rank; ++i)
      if (((s.axes >> i) & 1u) == static_cast<std::uint32_t>(pass)) s.order.push_back(i);
  Shape permuted;
  for (int i : s.order) permuted.push_back(operand->shape[i]);
  s.shape = permuted;
  return s;
}

Geometry over_space(Geometry g, const RootSpace& space) {
  if (!(g.shape == space.broadcast_to)) g = broadcast(g, space.broadcast_to);
  return space.order.empty() ? g : permuted(g, space.order);
}

}  // namespace switchyard::expr

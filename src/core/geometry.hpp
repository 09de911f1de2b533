// Where an array's elements lie in its storage, apart from the storage itself: what a view
// changes. The lazy graph records a view of a pending array as a transform of geometries, applied
// once the storage it views exists (expr/node.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "switchyard/shape.hpp"

namespace switchyard {

struct Geometry {
  Shape shape;
  Strides strides;          // in elements
  std::int64_t offset = 0;  // in elements
};

using GeometryTransform = std::function<Geometry(const Geometry&)>;

// `g` read as `shape` (NumPy broadcasting). Throws ShapeError when it does not broadcast.
inline Geometry broadcast(const Geometry& g, const Shape& shape) {
  return {shape, broadcast_strides(g.shape, g.strides, shape), g.offset};
}

// `g` with its axes in `order`, a permutation of them.
inline Geometry permuted(const Geometry& g, std::span<const int> order) {
  Geometry p{{}, {}, g.offset};
  for (int axis : order) p.shape.push_back(g.shape[axis]), p.strides.push_back(g.strides[axis]);
  return p;
}

}  // namespace switchyard

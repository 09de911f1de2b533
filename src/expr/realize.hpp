// Realisation: the boundary between the lazy graph and the runtime. Plans the kernels of the
// nodes asked for (expr/fusion.hpp), runs each through runtime::realize and publishes the
// results into the nodes. A failed kernel publishes nothing: the nodes stay pending and can be
// realised again, on another device.
#pragma once

#include <string>
#include <vector>

#include "expr/fusion.hpp"
#include "expr/node.hpp"

namespace switchyard::expr {

// Realises every pending node of `nodes` together: results sharing an iteration space share one
// kernel and read their common inputs once.
void realize(const std::vector<NodePtr>& nodes);

// "mul (1000) float32": a node as explain and errors name it.
std::string describe(const Node& node);

// Realises `node` because the graph it heads reached a bound; recorded as a fusion stop.
void realize_for(const NodePtr& node, FusionStop reason);

// ---- writing into existing storage

// The storage a write into `node`'s array goes to: its realised value, or for a pending view
// that view of the storage of the array it views (realised first, as in NumPy a view shares its
// array's storage). Throws ValueError for a view that was realised on its own: it holds a copy.
runtime::View storage_of(const NodePtr& node);

// Realises `node`, elementwise and held by no one else, into `destination`: C-contiguous storage
// of the node's shape and dtype, written by one kernel. Returns false, having written nothing,
// when that kernel would read elements of the destination other than the one it writes at each
// position (a shifted overlap, such as a[1:] += a[:-1]).
bool realize_into(const NodePtr& node, const runtime::View& destination);

}  // namespace switchyard::expr

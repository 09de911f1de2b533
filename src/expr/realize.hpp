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

}  // namespace switchyard::expr

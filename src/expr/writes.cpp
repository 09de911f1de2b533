#include "expr/writes.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "expr/realize.hpp"
#include "runtime/buffer.hpp"

namespace switchyard::expr {
namespace {

// The nodes of `root`'s pending graph that a kernel computing `root` may also compute without
// anyone noticing: held only by nodes of that graph that are themselves private, so no array
// outside can read them after the write. `root` is private by definition (its writer holds it).
std::vector<const Node*> private_nodes(const NodePtr& root) {
  // Parents before children (reverse post-order), with the edges from inside the graph to each.
  std::vector<NodePtr> order;
  std::unordered_map<const Node*, int> edges_in;
  std::vector<std::pair<NodePtr, bool>> stack{{root, false}};
  std::unordered_map<const Node*, bool> seen;
  while (!stack.empty()) {
    auto [n, children_done] = stack.back();
    stack.pop_back();
    if (children_done) {
      order.push_back(std::move(n));
      continue;
    }
    if (seen[n.get()]) continue;
    seen[n.get()] = true;
    stack.emplace_back(n, true);
    for (const NodePtr& o : n->pending_operands()) {
      if (!o || o->ready()) continue;
      ++edges_in[o.get()];
      stack.emplace_back(o, false);
    }
  }
  std::reverse(order.begin(), order.end());
  // Holders of a node: the edges counted, `order`'s own reference, and anything outside.
  std::unordered_map<const Node*, bool> exposed;
  for (const NodePtr& n : order) {
    bool& out = exposed[n.get()];
    out = out || (n != root && n.use_count() - 1 > edges_in[n.get()]);
    if (out)
      for (const NodePtr& o : n->pending_operands())
        if (o) exposed[o.get()] = true;
  }
  std::vector<const Node*> inside;
  for (const NodePtr& n : order)
    if (!exposed[n.get()]) inside.push_back(n.get());
  return inside;
}

}  // namespace

void realize_readers(Buffer& storage, const NodePtr& value) {
  std::vector<std::weak_ptr<Node>> pending;
  for (std::shared_ptr<void>& r : storage.take_pending_readers())
    if (auto n = std::static_pointer_cast<Node>(std::move(r)); !n->ready()) pending.push_back(n);
  if (pending.empty()) return;
  // Counted once the readers are no longer held here, which would count as holders outside.
  const std::vector<const Node*> inside = value ? private_nodes(value) : std::vector<const Node*>{};
  std::vector<NodePtr> readers;
  for (const auto& w : pending)
    if (NodePtr n = w.lock(); n && std::find(inside.begin(), inside.end(), n.get()) == inside.end())
      readers.push_back(std::move(n));
  realize(readers);
}

}  // namespace switchyard::expr

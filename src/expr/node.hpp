// Nodes of the lazy graph. An Array is a handle to either materialised storage or a pending
// node; operations on arrays record nodes (ops/nodes.hpp), and the fusion pass turns the graph
// under the nodes someone needs into as few kernels as it can (expr/fusion.hpp).
//
// A node is immutable once built, except for its realised value: realise() publishes it once
// (under a lock striped by node address) and drops the node's operands, so a long computation
// kept as a chain of realised results holds no history.
//
// A node has the value NumPy would give at the moment it was built, whatever is written later:
// each node registers as a reader of what it reads (the storage of a realised operand, or a
// pending operand, whose readers pass to its storage when it is published), and a write into
// storage first realises the pending nodes that read it (expr/writes.hpp). Work over shared
// storage, which its owner may write at any time unseen (runtime/buffer.hpp), is realised as it
// is built.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "backends/backend.hpp"
#include "core/geometry.hpp"
#include "ir/kernel_ir.hpp"
#include "runtime/executor.hpp"
#include "runtime/placement.hpp"

namespace switchyard::expr {

enum class NodeKind : std::uint8_t {
  Leaf,    // a materialised array (value)
  Scalar,  // a runtime scalar, broadcast everywhere
  Op,      // an elementwise operation of its operands (broadcast to `shape`)
  Reduce,  // a reduction of operands[0] over the axes in `reduce_axes`
  View,    // `view` applied to operands[0]: a slice, permutation, broadcast, new or dropped axis
};

struct ReduceSpec {
  ir::ReduceOp op = ir::ReduceOp::Sum;
  std::uint32_t axes = 0;  // bit i: axis i of the operand is reduced
  bool keepdims = false;
};

struct Node {
  NodeKind kind = NodeKind::Leaf;
  DType dtype = DType::Float32;
  Shape shape;
  ir::OpCode op = ir::OpCode::Load;               // Op
  ScalarValue scalar{};                           // Scalar
  ReduceSpec reduce;                              // Reduce
  GeometryTransform view;                         // View: what it does to its operand's layout
  std::array<std::shared_ptr<Node>, 3> operands;  // Op (arity), Reduce and View (one)
  // The device a DeviceScope pinned the thread to when the node was made (device null: none).
  // The node runs there, whenever it is realised; one pending graph never mixes two pins.
  runtime::Candidate pin;
  std::int32_t graph_size = 1;   // operations under this one, repeats counted: bounds graphs
  std::int32_t input_count = 0;  // inputs under this one, repeats counted

  bool ready() const { return ready_.load(std::memory_order_acquire); }
  // The materialised value; valid once ready() (a Leaf always is).
  const runtime::View& value() const { return value_; }
  // Operands while pending (empty once realised); safe beside a concurrent publish.
  std::array<std::shared_ptr<Node>, 3> pending_operands() const;
  // Publishes the realised value once; later calls (another thread realising the same node)
  // keep the first. The node's readers become readers of the value's storage.
  void publish(runtime::View value);
  // Registers `reader`, a node built over this pending one.
  void add_reader(const std::shared_ptr<Node>& reader);

  static std::shared_ptr<Node> leaf(runtime::View value);

 private:
  runtime::View value_;
  std::atomic<bool> ready_{false};
  std::vector<std::weak_ptr<Node>> readers_;  // while pending; guarded by the stripe lock
};

using NodePtr = std::shared_ptr<Node>;

NodePtr make_scalar(ScalarValue value);
// An elementwise op over operands already cast to the dtypes the IR expects (see kernel_ir.hpp).
NodePtr make_op(ir::OpCode op, DType dtype, const Shape& shape, NodePtr a, NodePtr b = {},
                NodePtr c = {});
NodePtr make_cast(NodePtr a, DType dtype);  // a itself when it has the dtype already
NodePtr make_reduce(ReduceSpec spec, DType dtype, const Shape& shape, NodePtr a);
NodePtr make_view(NodePtr a, const Shape& shape, GeometryTransform view);

// Pending graphs of more operations than this are realised before they grow further: the fused
// kernel and its compile stay small, and a loop that never reads its result cannot grow without
// end.
inline constexpr std::int32_t kMaxGraphSize = 64;

}  // namespace switchyard::expr

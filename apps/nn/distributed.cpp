// The data-parallel step: each rank's blocks of the batch give their loss and gradients on its
// devices; only their float64 sums cross between ranks (the reproducible order's whole subtrees,
// allgathered, or one MPI_Allreduce), and every rank applies the same update to its own copy.
#include <algorithm>
#include <functional>
#include <string>

#include "checks.hpp"
#include "switchyard/apps/nn_dist.hpp"

namespace switchyard::apps::nn {
namespace {

// A loss followed by every gradient, flattened, in float64: what crosses between ranks.
using Partial = std::vector<double>;

Array flattened(const LossAndGradients& part) {
  std::vector<Array> pieces{part.loss};
  pieces.insert(pieces.end(), part.gradients.begin(), part.gradients.end());
  return concatenate(std::span<const Array>(pieces), std::nullopt).astype(DType::Float64);
}

// The summed partial as the model's dtype, each value rounded once.
LossAndGradients unflattened(const Partial& sum, const MLP& model) {
  const Array all = Array::from_vector(sum).astype(model.dtype());
  LossAndGradients out{all.slice(0, 0, 1).reshape(Shape{}), {}};
  std::int64_t at = 1;
  for (const Array& p : model.parameters()) {
    out.gradients.push_back(all.slice(0, at, at + p.size()).reshape(p.shape()));
    at += p.size();
  }
  return out;
}

std::int64_t partial_size(const MLP& model) {
  std::int64_t size = 1;
  for (const Array& p : model.parameters()) size += p.size();
  return size;
}

Partial added(Partial left, const Partial& right) {
  for (std::size_t i = 0; i < left.size(); ++i) left[i] += right[i];
  return left;
}

// The pairwise order over the blocks [0, n) of a row-block layout: node (first, width), width a
// power of two, covers blocks [first, min(first + width, n)) and is its left half plus its right
// half, or its left half alone when the right one starts at or past n. For scalars this is
// dist::sum's order of block partials (neighbours level by level, an odd last carried up).
class BlockTree {
 public:
  using PartialOf = std::function<Partial(std::int64_t block)>;

  BlockTree(const dist::Layout& layout, const dist::Communicator& comm, std::int64_t size)
      : layout_(layout), comm_(comm), size_(size) {}

  // Every block's partial summed in the tree's order, the same on every rank. partial_of(block)
  // is called for this rank's blocks only.
  Partial sum(const PartialOf& partial_of) const {
    std::vector<std::int64_t> nodes(static_cast<std::size_t>(layout_.ranks()), 0);
    Partial mine;
    visit_whole(0, root_width(), [&](std::int64_t first, std::int64_t width, int holder) {
      ++nodes[static_cast<std::size_t>(holder)];
      if (holder != comm_.rank()) return;
      const Partial s = subtree(first, width, partial_of);
      mine.insert(mine.end(), s.begin(), s.end());
    });
    const std::int64_t rows = nodes[static_cast<std::size_t>(comm_.rank())];
    const dist::DistArray exchanged(Array::from_vector(mine, Shape{rows, size_}),
                                    dist::Layout::ragged(nodes), comm_);
    const std::vector<double> every = dist::gather(exchanged).to_vector<double>();
    std::size_t next = 0;
    return completed(0, root_width(), every, next);
  }

 private:
  std::int64_t root_width() const {
    std::int64_t width = 1;
    while (width < layout_.blocks()) width *= 2;
    return width;
  }

  bool has_right(std::int64_t first, std::int64_t width) const {
    return first + width / 2 < layout_.blocks();
  }

  // The rank that holds every block of the node, or -1 when they lie on several ranks.
  int holder(std::int64_t first, std::int64_t width) const {
    const std::int64_t last = std::min(first + width, layout_.blocks()) - 1;
    const int a = rank_of(first), b = rank_of(last);
    return a == b ? a : -1;
  }

  int rank_of(std::int64_t block) const {
    int r = 0;
    while (block >= layout_.first_block(r) + layout_.blocks_of(r)) ++r;
    return r;
  }

  // The nodes whose blocks one rank holds whole, left to right, reached from (first, width)
  // without passing through another such node.
  template <class Visit>
  void visit_whole(std::int64_t first, std::int64_t width, const Visit& visit) const {
    if (const int r = holder(first, width); r >= 0) return visit(first, width, r);
    visit_whole(first, width / 2, visit);
    if (has_right(first, width)) visit_whole(first + width / 2, width / 2, visit);
  }

  Partial subtree(std::int64_t first, std::int64_t width, const PartialOf& partial_of) const {
    if (width == 1) return partial_of(first);
    Partial left = subtree(first, width / 2, partial_of);
    if (!has_right(first, width)) return left;
    return added(std::move(left), subtree(first + width / 2, width / 2, partial_of));
  }

  // The node from the exchanged whole nodes (every rank's, in visit_whole's order).
  Partial completed(std::int64_t first, std::int64_t width, const std::vector<double>& every,
                    std::size_t& next) const {
    if (holder(first, width) >= 0) {
      const auto begin = every.begin() + static_cast<std::ptrdiff_t>(next * size_);
      ++next;
      return {begin, begin + size_};
    }
    Partial left = completed(first, width / 2, every, next);
    if (!has_right(first, width)) return left;
    return added(std::move(left), completed(first + width / 2, width / 2, every, next));
  }

  const dist::Layout& layout_;
  const dist::Communicator& comm_;
  std::int64_t size_;
};

void check(const MLP& model, const DistBatch& batch) {
  dist::require_same_layout("train_step", batch.x, batch.labels);
  const dist::Layout& layout = batch.x.layout();
  layout.require_blocks("train_step");
  if (layout.is_replicated())
    throw dist::LayoutError(
        "train_step: expected the batch in row blocks, given a replicated one; distribute it");
  check_batch_shapes(model, batch.x.shape(), batch.labels.shape());
  if (!is_integer(batch.labels.dtype()))
    throw DTypeError("labels: expected integer class indices, given " +
                     std::string(name(batch.labels.dtype())));
  if (layout.rows() == 0) throw ValueError("train_step: expected a batch of >= 1 rows, given 0");
}

void throw_on_error(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw dist::CommunicationError(std::string(call) + " failed: " + std::string(text, length));
}

}  // namespace

DistBatch distribute(const Dataset& batch, const dist::Communicator& comm,
                     std::int64_t block_rows) {
  if (!batch.x || !batch.labels)
    throw ValueError("nn distribute: expected the batch's x and labels, given a null one");
  const dist::Layout rows = dist::Layout::row_blocks(batch.x.shape()[0], comm.size(), block_rows);
  return {dist::DistArray::distribute(batch.x, rows, comm),
          dist::DistArray::distribute(batch.labels, rows, comm)};
}

DistTrainer::DistTrainer(MLP model, std::shared_ptr<const Optimizer> optimizer,
                         dist::Summation mode)
    : model_(std::move(model)), optimizer_(std::move(optimizer)), mode_(mode) {
  if (!optimizer_) throw ValueError("optimizer: expected an optimizer, given null");
  state_ = optimizer_->initial_state(model_.parameters());
}

double DistTrainer::train_step(const DistBatch& batch) {
  check(model_, batch);
  const dist::Layout& layout = batch.x.layout();
  const dist::Communicator& comm = batch.x.communicator();
  const int rank = comm.rank();
  const auto batch_rows = static_cast<double>(layout.rows());
  const Array x = in_dtype(batch.x.local(), model_.dtype());
  const Array& labels = batch.labels.local();
  // The loss and gradients of this rank's rows [begin, end), as their share of the batch's.
  const auto partial_of_rows = [&](std::int64_t begin, std::int64_t end) {
    const auto weight = static_cast<double>(end - begin) / batch_rows;
    return flattened(loss_and_gradients(model_, model_.parameters(), x.slice(0, begin, end),
                                        labels.slice(0, begin, end), weight));
  };
  Partial sum;
  if (mode_ == dist::Summation::Reproducible) {
    const std::int64_t block_rows = layout.block_rows(), rows = layout.rows_of(rank);
    std::vector<Array> blocks;
    for (std::int64_t begin = 0; begin < rows; begin += block_rows)
      blocks.push_back(partial_of_rows(begin, std::min(begin + block_rows, rows)));
    // Together, so that the blocks' kernels queue up without waiting for each other's read.
    eval(std::span<const Array>(blocks));
    const std::int64_t first = layout.first_block(rank);
    sum = BlockTree(layout, comm, partial_size(model_)).sum([&](std::int64_t block) {
      return blocks[static_cast<std::size_t>(block - first)].to_vector<double>();
    });
  } else {
    sum = layout.rows_of(rank) == 0 ? Partial(static_cast<std::size_t>(partial_size(model_)), 0.0)
                                    : partial_of_rows(0, layout.rows_of(rank)).to_vector<double>();
    throw_on_error(MPI_Allreduce(MPI_IN_PLACE, sum.data(), static_cast<int>(sum.size()), MPI_DOUBLE,
                                 MPI_SUM, comm.native()),
                   "MPI_Allreduce");
  }
  const LossAndGradients total = unflattened(sum, model_);
  const std::size_t count = model_.parameters().size();
  const std::vector<Array> out = optimizer_->update(model_.parameters(), total.gradients, state_);
  eval(std::span<const Array>(out));
  model_.set_parameters({out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count)});
  state_.assign(out.begin() + static_cast<std::ptrdiff_t>(count), out.end());
  return total.loss.item<double>();
}

}  // namespace switchyard::apps::nn

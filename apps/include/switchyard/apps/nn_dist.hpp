// Data-parallel training of the MLP (nn.hpp) across the ranks of an MPI job: each rank holds a
// run of row blocks of the batch and the whole model, replicated; a step computes the gradients
// of its own rows, sums them across the ranks, and every rank applies the same update to its
// copy, so the weights stay the same on every rank without ever being sent.
//
//   Summation::Reproducible  The block of rows is the unit of the sum. Each block's loss and
//       gradients (its share rows/batch of the mean loss, from loss_and_gradients) are read to the
//       host in float64 and added over the blocks in one fixed pairwise order: neighbours level
//       by level, an odd last carried up (the order of dist::sum's block partials), then rounded
//       once to the model's dtype. Each rank adds the subtrees of that order whose blocks it holds
//       whole and allgathers those sums, at most about 2·log2(blocks) per rank of
//       (1 + parameters) float64 each; every rank then completes the tree. The trained weights
//       are bit-identical for any number of ranks (they depend on block_rows, never on the
//       ranks), and with one block for the whole batch they are the one-process Trainer's.
//   Summation::Fast  Each rank's rows in one forward and backward pass, and one MPI_Allreduce of
//       the float64 sums: fewer, larger kernels, but the last bits change with the ranks.
//
// A block's gradients are the same bits on whichever rank computes them only when every rank
// runs the same kernels the same way: pin the device (DeviceScope) and give every process
// SWITCHYARD_NATIVE=off (native code and the interpreter round exp and log differently).
//
//   namespace nn = switchyard::apps::nn;
//   const nn::Dataset data = nn::make_classification(4096, 784, 10, 1);
//   nn::DistTrainer trainer(nn::MLP({784, 256, 10}, 8), std::make_shared<nn::Adam>());
//   const double loss = trainer.train_step(nn::distribute(data, comm, /*block_rows=*/64));
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "switchyard/apps/nn.hpp"
#include "switchyard/dist.hpp"

namespace switchyard::apps::nn {

struct DistBatch {
  dist::DistArray x;       // this rank's rows of the batch, (rows, features)
  dist::DistArray labels;  // in x's layout, (rows) integers
};

// This rank's rows of a batch every rank holds whole (made from one seed, read from one file), in
// row blocks of block_rows. ValueError for null arrays.
DistBatch distribute(const Dataset& batch, const dist::Communicator& comm = {},
                     std::int64_t block_rows = dist::kDefaultBlockRows);

class DistTrainer {
 public:
  DistTrainer(MLP model, std::shared_ptr<const Optimizer> optimizer,
              dist::Summation mode = dist::Summation::Reproducible);
  // Collective: one step on the batch whose rows the ranks hold; returns the whole batch's mean
  // loss before the update, the same on every rank. The batch's errors (ShapeError for x or
  // labels of the wrong shape, DTypeError for labels that are not integers, ValueError for an
  // empty batch, LayoutError for x and labels in different layouts) are raised on every rank
  // before any communication.
  double train_step(const DistBatch& batch);
  const MLP& model() const { return model_; }

 private:
  MLP model_;
  std::shared_ptr<const Optimizer> optimizer_;
  dist::Summation mode_;
  std::vector<Array> state_;
};

}  // namespace switchyard::apps::nn

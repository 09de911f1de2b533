// A small neural network library on Switchyard arrays: reverse-mode autograd over lazy arrays, a
// multilayer perceptron, SGD and Adam, and a synthetic classification set. Every value stays on
// the device the runtime picks; a training step reads back only its loss.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard::apps::nn {

namespace detail {
struct Node;
}

// ---- autograd
// A value and, after backward(), the gradient of a scalar with respect to it. Operations on Vars
// record the backward rule of each step (the tape); backward() replays it in reverse topological
// order. Gradients are lazy arrays too, so a chain of elementwise rules fuses into one kernel.
class Var {
 public:
  Var() = default;
  // A leaf: an input (requires_grad false) or a parameter (true).
  explicit Var(Array value, bool requires_grad = false);

  const Array& value() const;
  // d(root)/d(this) from the last root.backward() that reached this Var; null before.
  const Array& grad() const;
  bool requires_grad() const;
  // From a one-element Var: sets grad() of every Var it depends on that requires a gradient
  // (replacing grads from earlier sweeps, so no zeroing between steps). Throws ShapeError for a
  // Var of more than one element.
  void backward() const;

  // Internal: a result of an operation with its parents and backward rule.
  explicit Var(std::shared_ptr<detail::Node> node) : node_(std::move(node)) {}
  const std::shared_ptr<detail::Node>& node() const { return node_; }

 private:
  std::shared_ptr<detail::Node> node_;
};

// NumPy semantics for the values; add/subtract/multiply broadcast, and the gradient of a
// broadcast operand is summed over the axes it was broadcast along.
Var add(const Var& a, const Var& b);
Var subtract(const Var& a, const Var& b);
Var multiply(const Var& a, const Var& b);
Var matmul(const Var& a, const Var& b);  // 2-D operands (ShapeError otherwise)
Var relu(const Var& a);
Var sigmoid(const Var& a);
Var tanh(const Var& a);
Var mean(const Var& a);  // over all elements
// mean_i (logsumexp(logits_i) − logits_i[labels_i]): logits (batch × classes) float, labels
// (batch) integers in [0, classes). Fused and stable (the row maximum is subtracted before exp);
// its gradient is (softmax − one_hot) / batch.
Var softmax_cross_entropy(const Var& logits, const Array& labels);
inline Var operator+(const Var& a, const Var& b) {
  return add(a, b);
}
inline Var operator-(const Var& a, const Var& b) {
  return subtract(a, b);
}
inline Var operator*(const Var& a, const Var& b) {
  return multiply(a, b);
}

// ---- model
// Fully connected layers sizes[0] → sizes[1] → … → sizes.back(), ReLU between them, logits out.
// Weights (in × out) are He-normal for layers followed by ReLU and Glorot-normal for the last;
// biases start at zero. Throws ValueError for fewer than 2 sizes or a size < 1, DTypeError for a
// non-float dtype.
class MLP {
 public:
  MLP(std::vector<std::int64_t> sizes, std::uint64_t seed, DType dtype = DType::Float32);

  const std::vector<std::int64_t>& sizes() const { return sizes_; }
  DType dtype() const { return dtype_; }
  // W_0, b_0, W_1, b_1, …
  const std::vector<Array>& parameters() const { return parameters_; }
  void set_parameters(std::vector<Array> parameters);  // same shapes and dtype (ShapeError)

  // The logits for x (batch × sizes[0]) computed with the given parameters (as Vars, so the
  // gradient can reach them).
  Var forward(std::span<const Var> parameters, const Var& x) const;
  Array logits(const Array& x) const;  // with the current parameters, no tape

 private:
  std::vector<std::int64_t> sizes_;
  DType dtype_;
  std::vector<Array> parameters_;
};

// ---- optimizers
// The update is a pure function of (parameters, gradients, state) giving the new parameters and
// state as pending arrays: evaluated together, each parameter's update is one fused kernel that
// writes the parameter and its state.
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // Zeroed state for these parameters.
  virtual std::vector<Array> initial_state(std::span<const Array> parameters) const = 0;
  // The new parameters followed by the new state.
  virtual std::vector<Array> update(std::span<const Array> parameters,
                                    std::span<const Array> gradients,
                                    std::span<const Array> state) const = 0;
};

// v ← μ v + g; p ← p − lr v (with μ = 0: p ← p − lr g and no state).
class SGD : public Optimizer {
 public:
  explicit SGD(double lr, double momentum = 0);
  std::vector<Array> initial_state(std::span<const Array> parameters) const override;
  std::vector<Array> update(std::span<const Array> parameters, std::span<const Array> gradients,
                            std::span<const Array> state) const override;

 private:
  double lr_, momentum_;
};

// Kingma & Ba, in their efficient form: m ← β1 m + (1−β1) g; v ← β2 v + (1−β2) g²;
// p ← p − lr_t m / (√v + ε) with lr_t = lr √(1−β2^t) / (1−β1^t), the
// bias corrections from a step count kept in the state (a 0-d array), so the same kernels serve
// every step.
class Adam : public Optimizer {
 public:
  explicit Adam(double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8);
  std::vector<Array> initial_state(std::span<const Array> parameters) const override;
  std::vector<Array> update(std::span<const Array> parameters, std::span<const Array> gradients,
                            std::span<const Array> state) const override;

 private:
  double lr_, beta1_, beta2_, eps_;
};

// ---- training
// What a training step computes before the update, lazy: the loss of a batch (x: batch ×
// features, labels: batch integers) with the given parameters, scaled by `weight`, and its
// gradient with respect to each parameter. A weight of rows / total makes the batch's share of
// a larger batch's mean loss: the shares of its parts add up to the whole batch's gradient.
struct LossAndGradients {
  Array loss;                    // 0-d, in the model's dtype
  std::vector<Array> gradients;  // one per parameter, in parameters()'s order
};
LossAndGradients loss_and_gradients(const MLP& model, std::span<const Array> parameters,
                                    const Array& x, const Array& labels, double weight = 1);

// One training step as a function of {x, labels, parameters…, optimizer state…} giving {loss,
// new parameters…, new state…}: the shape capture() records and replays. `optimizer` must
// outlive the function.
using StepFunction = std::function<std::vector<Array>(std::span<const Array>)>;
StepFunction training_step(const MLP& model, const Optimizer& optimizer);

// A model with its optimizer and that optimizer's state.
class Trainer {
 public:
  Trainer(MLP model, std::shared_ptr<const Optimizer> optimizer);
  // One step on a batch (x: batch × features, labels: batch integers); returns the loss before
  // the update. The only value read back is the loss.
  double train_step(const Array& x, const Array& labels);
  // `epochs` passes over the data in batches of batch_size (the last one may be smaller);
  // returns each epoch's mean loss.
  std::vector<double> fit(const Array& x, const Array& labels, int epochs, std::int64_t batch_size);
  const MLP& model() const { return model_; }

 private:
  Array step(const Array& x, const Array& labels);  // the loss, computed, not read

  MLP model_;
  std::shared_ptr<const Optimizer> optimizer_;
  StepFunction step_;
  std::vector<Array> state_;
};

// The fraction of rows whose largest logit is at their label.
double accuracy(const MLP& model, const Array& x, const Array& labels);

// ---- data
// `n` points in `features` dimensions from `classes` Gaussian clusters (unit variance, centres
// drawn with standard deviation 4/√features, about 5.7 apart: a few percent of points overlap),
// labels uniform (int64). Reproducible from `seed`; split one set for training and held-out data.
struct Dataset {
  Array x, labels;
};
Dataset make_classification(std::int64_t n, std::int64_t features, std::int64_t classes,
                            std::uint64_t seed, DType dtype = DType::Float32);

// ---- the workload end to end: a synthetic set (80% for training, 20% held out), an MLP with
// one hidden layer, training, and the accuracies read back
enum class OptimizerKind : std::uint8_t { Sgd, Adam };
struct ClassifierSetup {
  std::int64_t samples = 4096, features = 784, hidden = 256, classes = 10;
  int epochs = 3;
  std::int64_t batch_size = 256;
  OptimizerKind optimizer = OptimizerKind::Adam;
  double lr = 1e-3;  // SGD runs with momentum 0.9
  std::uint64_t seed = 0;
  DType dtype = DType::Float32;
};
struct ClassifierRun {
  std::vector<double> epoch_losses;
  double train_accuracy = 0, test_accuracy = 0;
};
ClassifierRun train_classifier(const ClassifierSetup& setup);

}  // namespace switchyard::apps::nn

#include <algorithm>
#include <string>

#include "checks.hpp"

namespace switchyard::apps::nn {
namespace {

void check_batch(const MLP& model, const Array& x, const Array& labels) {
  if (!x)
    throw ShapeError("x: expected shape (batch, " + std::to_string(model.sizes().front()) +
                     "), given (null)");
  if (!labels)
    throw ShapeError("labels: expected shape (" + std::to_string(x.shape()[0]) +
                     ",), given (null)");
  check_batch_shapes(model, x.shape(), labels.shape());
}

}  // namespace

void check_batch_shapes(const MLP& model, const Shape& x, const Shape& labels) {
  if (x.size() != 2 || x[1] != model.sizes().front())
    throw ShapeError("x: expected shape (batch, " + std::to_string(model.sizes().front()) +
                     "), given " + to_string(x));
  if (labels.size() != 1 || labels[0] != x[0])
    throw ShapeError("labels: expected shape (" + std::to_string(x[0]) + ",), given " +
                     to_string(labels));
}

Array in_dtype(const Array& a, DType dtype) {
  return a.dtype() == dtype ? a : a.astype(dtype);
}

LossAndGradients loss_and_gradients(const MLP& model, std::span<const Array> parameters,
                                    const Array& x, const Array& labels, double weight) {
  std::vector<Var> leaves;
  for (const Array& p : parameters) leaves.emplace_back(p, true);
  Var loss = softmax_cross_entropy(model.forward(leaves, Var(x)), labels);
  if (weight != 1) loss = multiply(loss, Var(Array::full({}, weight, loss.value().dtype())));
  loss.backward();
  LossAndGradients out{loss.value(), {}};
  for (const Var& p : leaves) out.gradients.push_back(p.grad());
  return out;
}

StepFunction training_step(const MLP& model, const Optimizer& optimizer) {
  // Copies: the step must not depend on the Trainer's model object, whose parameters it replaces.
  return [model, &optimizer](std::span<const Array> inputs) {
    const std::size_t count = model.parameters().size();
    const std::span<const Array> parameters = inputs.subspan(2, count);
    const LossAndGradients step = loss_and_gradients(model, parameters, inputs[0], inputs[1]);
    std::vector<Array> out{step.loss};
    const std::vector<Array> updated =
        optimizer.update(parameters, step.gradients, inputs.subspan(2 + count));
    out.insert(out.end(), updated.begin(), updated.end());
    return out;
  };
}

Trainer::Trainer(MLP model, std::shared_ptr<const Optimizer> optimizer)
    : model_(std::move(model)), optimizer_(std::move(optimizer)) {
  if (!optimizer_) throw ValueError("optimizer: expected an optimizer, given null");
  step_ = training_step(model_, *optimizer_);
  state_ = optimizer_->initial_state(model_.parameters());
}

double Trainer::train_step(const Array& x, const Array& labels) {
  check_batch(model_, x, labels);
  return step(x, labels).item<double>();
}

Array Trainer::step(const Array& x, const Array& labels) {
  std::vector<Array> inputs{in_dtype(x, model_.dtype()), labels};
  const auto& parameters = model_.parameters();
  inputs.insert(inputs.end(), parameters.begin(), parameters.end());
  inputs.insert(inputs.end(), state_.begin(), state_.end());
  const std::vector<Array> out = step_(inputs);
  // One evaluation: each parameter's update and its state share one kernel.
  eval(std::span<const Array>(out));
  const std::size_t count = parameters.size();
  model_.set_parameters({out.begin() + 1, out.begin() + 1 + count});
  state_.assign(out.begin() + 1 + count, out.end());
  return out[0];
}

std::vector<double> Trainer::fit(const Array& x, const Array& labels, int epochs,
                                 std::int64_t batch_size) {
  check_batch(model_, x, labels);
  if (epochs < 0) throw ValueError("epochs: expected >= 0, given " + std::to_string(epochs));
  if (batch_size < 1)
    throw ValueError("batch_size: expected >= 1, given " + std::to_string(batch_size));
  const std::int64_t n = x.shape()[0];
  std::vector<double> losses;
  for (int e = 0; e < epochs; ++e) {
    // The batch losses stay on the device and are read once per epoch, so steps queue up
    // without waiting for each other's loss.
    std::vector<Array> batch_losses;
    std::vector<double> batch_weights;
    for (std::int64_t begin = 0; begin < n; begin += batch_size) {
      const std::int64_t end = std::min(n, begin + batch_size);
      batch_losses.push_back(step(x.slice(0, begin, end), labels.slice(0, begin, end)));
      batch_weights.push_back(static_cast<double>(end - begin) / static_cast<double>(n));
    }
    losses.push_back(
        sum(stack(batch_losses).astype(DType::Float64) * Array::from_vector(batch_weights))
            .item<double>());
  }
  return losses;
}

double accuracy(const MLP& model, const Array& x, const Array& labels) {
  check_batch(model, x, labels);
  const Array predicted = argmax(model.logits(in_dtype(x, model.dtype())), 1);
  return mean(predicted == labels.astype(DType::Int64)).item<double>();
}

}  // namespace switchyard::apps::nn

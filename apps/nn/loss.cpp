// Softmax cross-entropy as one node: the forward pass is two fused row reductions (max, then the
// sum of exponentials with the label's logit), the backward pass one elementwise kernel.
#include <string>

#include "node.hpp"

namespace switchyard::apps::nn {

Var softmax_cross_entropy(const Var& logits, const Array& labels) {
  if (!logits.node()) throw ValueError("logits: expected a Var, given a null one");
  const Array z = logits.value();
  if (z.ndim() != 2)
    throw ShapeError("logits: expected a 2-D array (batch × classes), given shape " +
                     to_string(z.shape()));
  if (!labels || labels.ndim() != 1 || labels.shape()[0] != z.shape()[0])
    throw ShapeError("labels: expected a 1-D array of " + std::to_string(z.shape()[0]) +
                     " class indices, given shape " +
                     (labels ? to_string(labels.shape()) : std::string("(null)")));
  if (!is_integer(labels.dtype()))
    throw DTypeError("labels: expected integer class indices, given " +
                     std::string(name(labels.dtype())));
  const std::int64_t batch = z.shape()[0], classes = z.shape()[1];
  const Array one_hot = labels.expand_dims(1) == Array::arange(std::int64_t{0}, classes);
  const Array row_max = max(z, 1, /*keepdims=*/true);
  const Array log_sum_exp = row_max + log(sum(exp(z - row_max), 1, /*keepdims=*/true));
  const Array picked = sum(where(one_hot, z, Array::zeros(Shape{}, z.dtype())), 1, true);
  const Array loss = switchyard::mean(log_sum_exp - picked);

  auto node = std::make_shared<detail::Node>();
  node->value = loss;
  node->requires_grad = logits.requires_grad();
  if (node->requires_grad) {
    node->parents = {logits.node()};
    const double inverse_batch = 1.0 / static_cast<double>(batch);
    node->backward = [z, log_sum_exp, one_hot, inverse_batch](const Array& g) {
      const Array softmax = exp(z - log_sum_exp);
      return std::vector<Array>{(softmax - one_hot.astype(z.dtype())) * (g * inverse_batch)};
    };
  }
  return Var(std::move(node));
}

}  // namespace switchyard::apps::nn

// One recorded step of the tape: its value, its parents and how to send a gradient to them.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "switchyard/apps/nn.hpp"

namespace switchyard::apps::nn::detail {

struct Node {
  Array value;
  Array grad;
  bool requires_grad = false;
  std::vector<std::shared_ptr<Node>> parents;
  // The gradient of each parent (in order; null where that parent needs none) given this node's
  // gradient; set only when some parent requires a gradient.
  std::function<std::vector<Array>(const Array& grad)> backward;
};

}  // namespace switchyard::apps::nn::detail

#include <cmath>
#include <string>

#include "switchyard/apps/nn.hpp"

namespace switchyard::apps::nn {

MLP::MLP(std::vector<std::int64_t> sizes, std::uint64_t seed, DType dtype)
    : sizes_(std::move(sizes)), dtype_(dtype) {
  if (sizes_.size() < 2)
    throw ValueError("sizes: expected at least 2 layer sizes (inputs, outputs), given " +
                     std::to_string(sizes_.size()));
  for (const std::int64_t s : sizes_)
    if (s < 1) throw ValueError("sizes: expected sizes >= 1, given " + std::to_string(s));
  if (!is_floating(dtype))
    throw DTypeError("dtype: expected float32 or float64, given " + std::string(name(dtype)));
  const std::size_t layers = sizes_.size() - 1;
  for (std::size_t l = 0; l < layers; ++l) {
    const std::int64_t in = sizes_[l], out = sizes_[l + 1];
    // He for ReLU layers keeps activations' variance through depth; Glorot for the logits.
    const bool last = l + 1 == layers;
    const double stddev =
        last ? std::sqrt(2.0 / static_cast<double>(in + out)) : std::sqrt(2.0 / in);
    parameters_.push_back(Array::normal(Shape{in, out}, seed + 2 * l, 0, stddev, dtype));
    parameters_.push_back(Array::zeros(Shape{out}, dtype));
  }
  eval(std::span<const Array>(parameters_));
}

void MLP::set_parameters(std::vector<Array> parameters) {
  if (parameters.size() != parameters_.size())
    throw ShapeError("parameters: expected " + std::to_string(parameters_.size()) +
                     " arrays, given " + std::to_string(parameters.size()));
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (!(parameters[i].shape() == parameters_[i].shape()) ||
        parameters[i].dtype() != parameters_[i].dtype())
      throw ShapeError("parameters[" + std::to_string(i) + "]: expected shape " +
                       to_string(parameters_[i].shape()) + " " +
                       std::string(name(parameters_[i].dtype())) + ", given " +
                       to_string(parameters[i].shape()) + " " +
                       std::string(name(parameters[i].dtype())));
  }
  parameters_ = std::move(parameters);
}

Var MLP::forward(std::span<const Var> parameters, const Var& x) const {
  if (parameters.size() != parameters_.size())
    throw ShapeError("parameters: expected " + std::to_string(parameters_.size()) +
                     " Vars, given " + std::to_string(parameters.size()));
  const Shape& shape = x.value().shape();
  if (shape.size() != 2 || shape[1] != sizes_.front())
    throw ShapeError("x: expected shape (batch, " + std::to_string(sizes_.front()) + "), given " +
                     to_string(shape));
  Var h = x;
  for (std::size_t i = 0; i < parameters.size(); i += 2) {
    h = add(matmul(h, parameters[i]), parameters[i + 1]);
    if (i + 2 < parameters.size()) h = relu(h);
  }
  return h;
}

Array MLP::logits(const Array& x) const {
  std::vector<Var> constants;
  for (const Array& p : parameters_) constants.emplace_back(p);
  return forward(constants, Var(x)).value();
}

}  // namespace switchyard::apps::nn

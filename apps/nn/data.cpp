#include <cmath>
#include <string>

#include "switchyard/apps/nn.hpp"

namespace switchyard::apps::nn {

Dataset make_classification(std::int64_t n, std::int64_t features, std::int64_t classes,
                            std::uint64_t seed, DType dtype) {
  if (n < 1) throw ValueError("n: expected at least 1 point, given " + std::to_string(n));
  if (features < 1)
    throw ValueError("features: expected at least 1, given " + std::to_string(features));
  if (classes < 2)
    throw ValueError("classes: expected at least 2, given " + std::to_string(classes));
  if (!is_floating(dtype))
    throw DTypeError("dtype: expected float32 or float64, given " + std::string(name(dtype)));
  const double spread = 4.0 / std::sqrt(static_cast<double>(features));
  const Array centres = Array::normal(Shape{classes, features}, seed, 0, spread, dtype);
  const Array drawn =
      floor(Array::uniform(Shape{n}, seed + 1, 0, static_cast<double>(classes), DType::Float64));
  // uniform's upper end is excluded, but clip anyway so rounding can never give `classes`.
  const Array labels = clip(drawn, 0, static_cast<double>(classes - 1)).astype(DType::Int64);
  const Array x =
      take(centres, labels, 0) + Array::normal(Shape{n, features}, seed + 2, 0, 1, dtype);
  eval(x, labels);
  return {x, labels};
}

}  // namespace switchyard::apps::nn

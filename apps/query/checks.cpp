#include "checks.hpp"

#include <cmath>
#include <string>

namespace switchyard::apps::query {

void check_run(const Shape& values, DType values_dtype, const Shape& weights, DType weights_dtype,
               const Query& query) {
  if (values.size() != 1)
    throw ShapeError("query run: values must be 1-D, given shape " + to_string(values));
  if (weights != values)
    throw ShapeError("query run: weights must have the shape of values " + to_string(values) +
                     ", given " + to_string(weights));
  for (const auto& [what, dtype] : {std::pair{"values", values_dtype}, {"weights", weights_dtype}})
    if (dtype != DType::Float32 && dtype != DType::Float64)
      throw DTypeError(std::string("query run: ") + what + " must be float32 or float64, given " +
                       std::string(name(dtype)));
  if (!std::isfinite(query.threshold))
    throw ValueError("query run: threshold must be finite, given " +
                     std::to_string(query.threshold));
  if (!std::isfinite(query.scale))
    throw ValueError("query run: scale must be finite, given " + std::to_string(query.scale));
  if (query.top_k < 0)
    throw ValueError("query run: top_k must be >= 0, given " + std::to_string(query.top_k));
}

}  // namespace switchyard::apps::query

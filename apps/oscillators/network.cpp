// Networks and phases: making them, checking them, and the order parameter.
#include <cmath>
#include <numbers>
#include <string>

#include "checks.hpp"
#include "switchyard/apps/oscillators.hpp"

namespace switchyard::apps::oscillators {

Network random_network(std::int64_t n, std::uint64_t seed, double coupling_strength, DType dtype) {
  if (n <= 0) throw ValueError("random_network: n must be positive, given " + std::to_string(n));
  if (!std::isfinite(coupling_strength))
    throw ValueError("random_network: coupling_strength must be finite, given " +
                     std::to_string(coupling_strength));
  require_float("random_network", "dtype", dtype);
  Network net{Array::uniform({n, n}, seed, 0, 2 * coupling_strength, dtype),
              Array::normal({n}, seed + 1, 0, 1, dtype)};
  eval(net.coupling, net.frequencies);
  return net;
}

Array random_phases(std::int64_t n, std::uint64_t seed, DType dtype) {
  if (n <= 0) throw ValueError("random_phases: n must be positive, given " + std::to_string(n));
  require_float("random_phases", "dtype", dtype);
  return Array::uniform({n}, seed, 0, 2 * std::numbers::pi, dtype);
}

double order_parameter(const Array& theta) {
  if (!theta || theta.ndim() != 1 || theta.size() == 0)
    throw ShapeError("order_parameter: theta must be a non-empty 1-D array, given shape " +
                     (theta ? to_string(theta.shape()) : std::string("(null)")));
  require_float("order_parameter", "theta", theta.dtype());
  const Array cos_sum = sum(cos(theta)), sin_sum = sum(sin(theta));
  eval(cos_sum, sin_sum);  // one kernel
  return std::hypot(cos_sum.item<double>(), sin_sum.item<double>()) /
         static_cast<double>(theta.size());
}

}  // namespace switchyard::apps::oscillators

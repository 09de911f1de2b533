#include "checks.hpp"

#include <string>

namespace switchyard::apps::oscillators {
namespace {

std::string prefix(std::string_view function, std::string_view parameter) {
  return std::string(function) + ": " + std::string(parameter);
}

}  // namespace

void require_float(std::string_view function, std::string_view parameter, DType dtype) {
  if (dtype != DType::Float32 && dtype != DType::Float64)
    throw DTypeError(prefix(function, parameter) + " must be float32 or float64, given " +
                     std::string(name(dtype)));
}

void require_finite(std::string_view function, std::string_view parameter, const Array& a) {
  if (!all(isfinite(a)).item<bool>())
    throw ValueError(prefix(function, parameter) +
                     " must be finite, given an array holding NaN or infinite values");
}

std::int64_t checked_size(std::string_view function, const Array& coupling,
                          const Array& frequencies) {
  if (!coupling || !frequencies)
    throw ValueError(std::string(function) + ": the network's arrays must not be null");
  require_float(function, "coupling", coupling.dtype());
  const Shape& k = coupling.shape();
  if (k.size() != 2 || k[0] != k[1] || k[0] == 0)
    throw ShapeError(prefix(function, "coupling") + " must be a non-empty square (N, N) matrix, " +
                     "given shape " + to_string(k));
  const std::int64_t n = k[0];
  if (frequencies.ndim() != 1 || frequencies.size() != n)
    throw ShapeError(prefix(function, "frequencies") + " must have shape (" + std::to_string(n) +
                     ") to match coupling " + to_string(k) + ", given shape " +
                     to_string(frequencies.shape()));
  require_float(function, "frequencies", frequencies.dtype());
  require_finite(function, "coupling", coupling);
  require_finite(function, "frequencies", frequencies);
  return n;
}

void require_phases(std::string_view function, const Array& theta, std::int64_t n) {
  if (!theta) throw ValueError(prefix(function, "theta") + " must not be null");
  if (theta.ndim() != 1 || theta.size() != n)
    throw ShapeError(prefix(function, "theta") + " must have shape (" + std::to_string(n) +
                     ") to match the network, given shape " + to_string(theta.shape()));
  require_float(function, "theta", theta.dtype());
  require_finite(function, "theta", theta);
}

}  // namespace switchyard::apps::oscillators

#include "weights.hpp"

#include <cmath>
#include <string>

#include "switchyard/apps/fractional.hpp"

namespace switchyard::apps::fractional {
namespace detail {

void check_order(double alpha) {
  if (!(alpha > 0 && alpha < 2))
    throw ValueError("alpha: the order must lie in (0, 2), given " + std::to_string(alpha));
}

void check_positive(double value, std::string_view parameter) {
  if (!(std::isfinite(value) && value > 0))
    throw ValueError(std::string(parameter) + ": expected a finite value > 0, given " +
                     std::to_string(value));
}

static void check_count(std::int64_t n) {
  if (n < 0) throw ValueError("n: expected a count >= 0, given " + std::to_string(n));
}

std::vector<double> grunwald_letnikov_weights(std::int64_t n, double alpha) {
  check_order(alpha);
  check_count(n);
  // (−1)^k binom(α, k) by its recurrence: a cumulative product, exact to rounding.
  std::vector<double> w(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < w.size(); ++k)
    w[k] = k == 0 ? 1.0 : w[k - 1] * (1.0 - (alpha + 1.0) / static_cast<double>(k));
  return w;
}

std::vector<double> caputo_weights(std::int64_t n, double alpha) {
  check_order(alpha);
  check_count(n);
  const double power = alpha <= 1 ? 1.0 - alpha : 2.0 - alpha;
  std::vector<double> b(static_cast<std::size_t>(n));
  // b_0 = 1 also at α = 1, where pow(0, 0) would give 1 − 1 = 0 instead of the limit 1.
  for (std::size_t k = 0; k < b.size(); ++k) {
    const double kd = static_cast<double>(k);
    b[k] = k == 0 ? 1.0 : std::pow(kd + 1.0, power) - std::pow(kd, power);
  }
  return b;
}

double caputo_gamma(double alpha) {
  return alpha <= 1 ? std::tgamma(2.0 - alpha) : std::tgamma(3.0 - alpha);
}

}  // namespace detail

static Array as_array(const std::vector<double>& values, DType dtype) {
  const Array a = Array::from_vector(values);
  return dtype == DType::Float64 ? a : a.astype(dtype);
}

Array grunwald_letnikov_weights(std::int64_t n, double alpha, DType dtype) {
  return as_array(detail::grunwald_letnikov_weights(n, alpha), dtype);
}

Array caputo_weights(std::int64_t n, double alpha, DType dtype) {
  return as_array(detail::caputo_weights(n, alpha), dtype);
}

}  // namespace switchyard::apps::fractional

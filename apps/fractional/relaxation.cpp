// Caputo D^α y = −λ y with the schemes of derivative(): each is c Σ_{k=0..n−1} b_k x_{n−k} with
// x_n = a·y_n − p_n linear in the new value y_n (α ≤ 1: a = 1, p_n = y_{n−1}; α > 1: a = 1,
// p_n = 2y_{n−1} − y_{n−2}, and at n = 1, y'(0) = 0 gives y_−1 = y_1 so a = 2, p_1 = 2y_0). So
//   y_n = c (p_n − H_n) / (c·a + λ),   H_n = Σ_{j=1..n−1} b_{n−j} x_j   (the history).
// Steps run in blocks: the history from before a block comes from one FFT convolution for the
// whole block, the history inside it from a short host loop, so the cost is
// O((steps/B) · steps log steps + steps · B) instead of O(steps²).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "switchyard/apps/fractional.hpp"
#include "weights.hpp"

namespace switchyard::apps::fractional {
namespace {

constexpr std::int64_t kBlockSteps = 512;

// History H_n for n in [begin, end) from the increments x_1 … x_{begin−1} (x_0 = 0).
std::vector<double> earlier_history(const std::vector<double>& b, const std::vector<double>& x,
                                    std::int64_t begin, std::int64_t end) {
  std::vector<double> history(static_cast<std::size_t>(end - begin), 0.0);
  if (begin <= 1) return history;
  const Array weights =
      Array::from_host(b.data(), end * sizeof(double), Shape{end}, DType::Float64);
  const Array earlier =
      Array::from_host(x.data(), begin * sizeof(double), Shape{begin}, DType::Float64);
  // (b * x)[n] over j < begin, for n < end; the k = 0 weight never meets these j since n ≥ begin.
  const Array full = fft::convolve(weights, earlier).slice(0, begin, end);
  full.to_host(history.data(), history.size() * sizeof(double));
  return history;
}

}  // namespace

Array relaxation(double alpha, double lambda, double y0, double h, std::int64_t steps) {
  detail::check_order(alpha);
  detail::check_positive(h, "h");
  if (!(std::isfinite(lambda) && lambda >= 0))
    throw ValueError("lambda: expected a finite rate >= 0, given " + std::to_string(lambda));
  if (!std::isfinite(y0))
    throw ValueError("y0: expected a finite value, given " + std::to_string(y0));
  if (steps < 1) throw ValueError("steps: expected at least 1, given " + std::to_string(steps));

  const std::int64_t n_total = steps + 1;
  const std::vector<double> b = detail::caputo_weights(n_total, alpha);
  const double c = std::pow(h, -alpha) / detail::caputo_gamma(alpha);
  std::vector<double> y(static_cast<std::size_t>(n_total)), x(y.size(), 0.0);
  y[0] = y0;
  for (std::int64_t begin = 1; begin < n_total; begin += kBlockSteps) {
    const std::int64_t end = std::min(n_total, begin + kBlockSteps);
    const std::vector<double> history = earlier_history(b, x, begin, end);
    for (std::int64_t n = begin; n < end; ++n) {
      double h_n = history[n - begin];
      for (std::int64_t j = begin; j < n; ++j) h_n += b[n - j] * x[j];
      const bool second_order = alpha > 1;
      const double a = second_order && n == 1 ? 2.0 : 1.0;
      const double p = !second_order ? y[n - 1] : n == 1 ? 2.0 * y[0] : 2.0 * y[n - 1] - y[n - 2];
      y[n] = c * (p - h_n) / (c * a + lambda);
      x[n] = a * y[n] - p;
    }
  }
  return Array::from_vector(y);
}

}  // namespace switchyard::apps::fractional

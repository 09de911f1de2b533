#include <cmath>
#include <string>

#include "causal_convolution.hpp"
#include "weights.hpp"

namespace switchyard::apps::fractional {
namespace {

void check_signal(const Array& f) {
  if (!f) throw ValueError("f: expected a 1-D array of samples, given a null array");
  if (f.ndim() != 1 || f.size() == 0)
    throw ShapeError("f: expected a non-empty 1-D array of samples, given shape " +
                     to_string(f.shape()));
  if (is_complex(f.dtype()))
    throw DTypeError("f: expected real samples, given " + std::string(name(f.dtype())));
}

void check_finite(const Array& samples) {
  if (!all(isfinite(samples)).item<bool>())
    throw ValueError("f: expected finite samples, given NaN or infinite values");
}

// x_0 = 0, x_j = f_j − f_{j−1}.
Array first_differences(const Array& f) {
  const Array parts[] = {Array::zeros(Shape{1}, f.dtype()),
                         f.slice(0, 1, std::nullopt) - f.slice(0, 0, -1)};
  return concatenate(parts);
}

// x_0 = 0, x_1 = x_2, x_j = f_j − 2 f_{j−1} + f_{j−2}: f'' constant on each step, the first step
// taking the second difference at t_1 (f extrapolated to t_−1 by the parabola through f_0..f_2).
Array second_differences(const Array& f) {
  const Array d2 = f.slice(0, 2, std::nullopt) - 2 * f.slice(0, 1, -1) + f.slice(0, 0, -2);
  const Array parts[] = {Array::zeros(Shape{1}, f.dtype()), d2.slice(0, 0, 1), d2};
  return concatenate(parts);
}

}  // namespace

Array derivative(const Array& f, double alpha, double h, Scheme scheme, Method method) {
  detail::check_order(alpha);
  detail::check_positive(h, "h");
  check_signal(f);
  const DType dtype = f.dtype() == DType::Float32 ? DType::Float32 : DType::Float64;
  const Array samples = f.dtype() == dtype ? f : f.astype(dtype);
  eval(samples);  // a pending f is computed once, for the check and the convolution
  check_finite(samples);
  const std::int64_t n = f.size();
  if (scheme == Scheme::GrunwaldLetnikov) {
    const Array w = grunwald_letnikov_weights(n, alpha, dtype);
    return detail::causal_convolution(w, samples, method) * std::pow(h, -alpha);
  }
  if (alpha > 1 && n < 3)
    throw ValueError("f: a Caputo derivative of order alpha > 1 needs at least 3 samples, given " +
                     std::to_string(n));
  const Array x = alpha <= 1 ? first_differences(samples) : second_differences(samples);
  const double scale = std::pow(h, -alpha) / detail::caputo_gamma(alpha);
  return detail::causal_convolution(caputo_weights(n, alpha, dtype), x, method) * scale;
}

}  // namespace switchyard::apps::fractional

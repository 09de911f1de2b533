// Fractional calculus on sampled signals: derivatives of order α ∈ (0, 2) of f_k = f(k h),
// k = 0 … n−1, and the fractional relaxation equation solved with them.
//
// Every scheme here is a causal convolution of a weight sequence with a sequence made from the
// samples, D_n = c · Σ_{k=0..n} w_k x_{n−k}, computed either directly (a blocked Toeplitz product
// on BLAS, O(n²) flops) or through the FFT (O(n log n)):
//   GrunwaldLetnikov  x = f, w = GL weights (w_0 = 1, w_k = w_{k−1} (1 − (α+1)/k)), c = h^−α.
//                     First order; equals the Riemann–Liouville derivative, which is Caputo's
//                     when f(0) = 0 (and f'(0) = 0 for α > 1).
//   Caputo, α ≤ 1     the L1 scheme: x_j = f_j − f_{j−1} (x_0 = 0), w = L1 weights
//                     b_k = (k+1)^{1−α} − k^{1−α}, c = h^−α / Γ(2−α). Order 2 − α.
//   Caputo, α > 1     the L1-type scheme on second differences: f'' taken constant on each step,
//                     x_j = f_j − 2 f_{j−1} + f_{j−2} (x_1 = x_2, i.e. f extrapolated to t_−1 by
//                     the parabola through f_0, f_1, f_2; x_0 = 0), w = b_k = (k+1)^{2−α} −
//                     k^{2−α}, c = h^−α / Γ(3−α). First order on smooth f (order ≈ α − 1 on
//                     solutions like E_α(−t^α), whose f'' ~ t^{α−2}).
// α = 1 is allowed: both schemes give the backward difference (f_n − f_{n−1}) / h.
#pragma once

#include <cstdint>

#include "switchyard/switchyard.hpp"

namespace switchyard::apps::fractional {

enum class Scheme : std::uint8_t { GrunwaldLetnikov, Caputo };
enum class Method : std::uint8_t { Direct, Fft };

// ---- weights (n of them, computed in float64 and returned in `dtype`)
Array grunwald_letnikov_weights(std::int64_t n, double alpha, DType dtype = DType::Float64);
// b_k = (k+1)^{1−α} − k^{1−α} for α ≤ 1 and (k+1)^{2−α} − k^{2−α} for α > 1 (b_0 = 1).
Array caputo_weights(std::int64_t n, double alpha, DType dtype = DType::Float64);

// ---- derivatives
// D^α f at every sample (the result has f's length; float32 stays float32, other dtypes give
// float64). Throws ValueError for α ∉ (0, 2), h ≤ 0 or non-finite, non-finite samples, a Caputo
// derivative of order α > 1 from fewer than 3 samples; ShapeError when f is not 1-D or is empty.
Array derivative(const Array& f, double alpha, double h, Scheme scheme = Scheme::Caputo,
                 Method method = Method::Fft);

// ---- Mittag-Leffler function E_α(z) = Σ_k z^k / Γ(αk + 1), α ∈ (0, 2], real z.
// The series where it converges without cancellation (|z| ≤ 1, and z > 0); for z < −1 the
// Gorenflo–Mainardi integral representation (trapezoidal rule after r = e^v, exponentially
// accurate) plus, for α > 1, its oscillating residue term; within 1e-4 of α = 1, linear
// interpolation in α to exp(z). Throws ValueError for α ∉ (0, 2].
double mittag_leffler(double alpha, double z);

// ---- fractional relaxation: Caputo D^α y = −λ y, y(0) = y0 (and y'(0) = 0 for α > 1), on
// t_k = k h, k = 0 … steps. Implicit in y_n with the scheme's history sum accumulated blockwise:
// each block of steps gets the contribution of all earlier steps from one FFT convolution, then
// steps through its own short history on the host. The exact solution is y0 E_α(−λ t^α).
// Returns the steps + 1 values in float64. Throws ValueError for α ∉ (0, 2), λ < 0 or non-finite,
// h ≤ 0 or non-finite, steps < 1.
Array relaxation(double alpha, double lambda, double y0, double h, std::int64_t steps);

}  // namespace switchyard::apps::fractional

#include "scheduler/model_correction.hpp"

#include <algorithm>

namespace switchyard::scheduler {
namespace {

// A size measured more than 10x off its model is not a model wrong by a factor but another regime
// (paging, contention, a history made up to steer a test): it keeps its own measurement, and
// other sizes are corrected by at most this much.
constexpr double kMinFactor = 0.1, kMaxFactor = 10;
// Below this, 1 - (non-centred correlation of the launch and compute shares)^2, the sizes do not
// tell launch and compute apart and two factors would only fit noise.
constexpr double kDistinctShares = 1e-2;
// A part that makes up this share of the model's time takes the whole of a one-factor correction.
constexpr double kDominant = 2.0 / 3;

double clamped(double factor) {
  return std::clamp(factor, kMinFactor, kMaxFactor);
}

}  // namespace

ModelCorrection fit_correction(std::span<const MeasuredSize> sizes) {
  // Least squares of a·x + b·y = 1 over the sizes, x and y the model's launch and compute times
  // over the measured time.
  double sxx = 0, sxy = 0, syy = 0, sx = 0, sy = 0;
  int n = 0;
  for (const MeasuredSize& m : sizes) {
    if (!(m.measured_s > 0) || !(m.launch_s + m.compute_s > 0)) continue;
    const double x = m.launch_s / m.measured_s, y = m.compute_s / m.measured_s;
    sxx += x * x, sxy += x * y, syy += y * y, sx += x, sy += y;
    ++n;
  }
  if (n == 0) return {};
  const double det = sxx * syy - sxy * sxy;
  if (n >= 2 && det > kDistinctShares * sxx * syy) {
    const double a = (sx * syy - sy * sxy) / det, b = (sy * sxx - sx * sxy) / det;
    if (a > 0 && b > 0) return {clamped(a), clamped(b)};
  }
  // The dominant part alone: least squares of a·x + y = 1 (or x + b·y = 1).
  const double launch_share = sx / (sx + sy);
  if (launch_share >= kDominant) {
    const double a = (sx - sxy) / sxx;
    if (a > 0) return {clamped(a), 1};
  } else if (launch_share <= 1 - kDominant) {
    const double b = (sy - sxy) / syy;
    if (b > 0) return {1, clamped(b)};
  }
  // One factor r for both: least squares of r·(x + y) = 1.
  const double r = (sx + sy) / (sxx + 2 * sxy + syy);
  return {clamped(r), clamped(r)};
}

}  // namespace switchyard::scheduler

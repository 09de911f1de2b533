// Statistics of the field: Σ f, Σ |f| and Σ f² of every frame in one fused reduction kernel.

#include "wave.hpp"

namespace switchyard::apps::field {
namespace {

// times: (F) in the grid's dtype (a wider one would widen the whole pass).
std::vector<Stats> reduce_frames(const Grid& grid, const Params& params, const Array& times) {
  const std::int64_t frames = times.size();
  const Array f = wave(grid, params, times.reshape({frames, 1, 1}), {0, grid.height});
  const Array total = sum(f, {1, 2}), magnitude = sum(abs(f), {1, 2}), power = sum(f * f, {1, 2});
  eval(total, magnitude, power);  // one pass over the (F, H, W) iteration space
  const auto t = total.to_vector<double>(), m = magnitude.to_vector<double>(),
             p = power.to_vector<double>();
  std::vector<Stats> out(static_cast<std::size_t>(frames));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = stats_from_sums(t[i], m[i], p[i], grid.width * grid.height);
  return out;
}

}  // namespace

Stats statistics(const Grid& grid, const Params& params, double t) {
  check("statistics", grid, params);
  check_time("statistics", "t", t);
  return reduce_frames(grid, params, Array::full({1}, t, grid.dtype))[0];
}

std::vector<Stats> animate(const Grid& grid, const Params& params, std::int64_t frames, double dt,
                           double t0) {
  check_animate("animate", grid, params, frames, dt, t0);
  if (frames == 0) return {};
  const Array steps = Array::arange(0.0, static_cast<double>(frames), 1.0, DType::Float64);
  return reduce_frames(grid, params, (steps * dt + t0).astype(grid.dtype));
}

}  // namespace switchyard::apps::field

// The field's expression over broadcast coordinates, its argument checks, a frame's statistics
// from its sums, and frame().
#include "wave.hpp"

#include <cmath>
#include <string>

namespace switchyard::apps::field {
namespace {

void require_finite(const char* function, const char* parameter, double value) {
  if (!std::isfinite(value))
    throw ValueError(std::string(function) + ": " + parameter + " must be finite, given " +
                     std::to_string(value));
}

// Pixel centres band.first, ..., band.first + band.count − 1 of the `total` along one axis in
// (low, high), each computed as in the whole axis.
Array centres(std::int64_t total, Rows band, double low, double high, DType dtype) {
  const double step = (high - low) / static_cast<double>(total);
  const auto first = static_cast<double>(band.first);
  return Array::arange(first, first + static_cast<double>(band.count), 1.0, dtype) * step +
         (low + step / 2);
}

}  // namespace

void check(const char* function, const Grid& grid, const Params& params) {
  if (grid.width <= 0 || grid.height <= 0)
    throw ValueError(std::string(function) + ": grid width and height must be positive, given " +
                     std::to_string(grid.width) + " x " + std::to_string(grid.height));
  if (grid.dtype != DType::Float32 && grid.dtype != DType::Float64)
    throw DTypeError(std::string(function) + ": grid dtype must be float32 or float64, given " +
                     std::string(name(grid.dtype)));
  require_finite(function, "grid x_min", grid.x_min);
  require_finite(function, "grid x_max", grid.x_max);
  require_finite(function, "grid y_min", grid.y_min);
  require_finite(function, "grid y_max", grid.y_max);
  if (!(grid.x_max > grid.x_min) || !(grid.y_max > grid.y_min))
    throw ValueError(std::string(function) + ": grid bounds must have x_max > x_min and " +
                     "y_max > y_min, given x [" + std::to_string(grid.x_min) + ", " +
                     std::to_string(grid.x_max) + "], y [" + std::to_string(grid.y_min) + ", " +
                     std::to_string(grid.y_max) + "]");
  require_finite(function, "wavenumber", params.wavenumber);
  require_finite(function, "angular_frequency", params.angular_frequency);
  require_finite(function, "twist", params.twist);
  require_finite(function, "damping", params.damping);
  require_finite(function, "center_x", params.center_x);
  require_finite(function, "center_y", params.center_y);
}

void check_time(const char* function, const char* parameter, double t) {
  require_finite(function, parameter, t);
}

void check_animate(const char* function, const Grid& grid, const Params& params,
                   std::int64_t frames, double dt, double t0) {
  check(function, grid, params);
  if (frames < 0)
    throw ValueError(std::string(function) + ": frames must be >= 0, given " +
                     std::to_string(frames));
  check_time(function, "dt", dt);
  check_time(function, "t0", t0);
}

Array wave(const Grid& grid, const Params& params, const Array& t, Rows rows) {
  const Array x =
      centres(grid.width, {0, grid.width}, grid.x_min, grid.x_max, grid.dtype) - params.center_x;
  const Array y = (centres(grid.height, rows, grid.y_min, grid.y_max, grid.dtype) - params.center_y)
                      .reshape({rows.count, 1});
  eval(x, y);
  const Array r = hypot(x, y);
  const Array phi = arctan2(y, x);
  return sin(params.wavenumber * r - params.angular_frequency * t + params.twist * phi) *
         exp(-params.damping * r);
}

Stats stats_from_sums(double total, double magnitude, double power, std::int64_t pixels) {
  const auto n = static_cast<double>(pixels);
  return {total / n, power / n, magnitude > 0 ? std::abs(total) / magnitude : 0.0};
}

Array frame(const Grid& grid, const Params& params, double t) {
  return frame(grid, params, t, 0, grid.height);
}

Array frame(const Grid& grid, const Params& params, double t, std::int64_t first_row,
            std::int64_t rows) {
  check("frame", grid, params);
  check_time("frame", "t", t);
  if (first_row < 0 || rows < 0 || first_row > grid.height - rows)
    throw ValueError("frame: rows [first_row, first_row + rows) must lie in the grid's [0, " +
                     std::to_string(grid.height) + "), given first_row " +
                     std::to_string(first_row) + " and rows " + std::to_string(rows));
  Array f = wave(grid, params, Array::full({}, t, grid.dtype), {first_row, rows});
  eval(f);
  return f;
}

}  // namespace switchyard::apps::field

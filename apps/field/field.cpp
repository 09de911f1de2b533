// The field's expression over broadcast coordinates, its argument checks, and frame().
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

// Pixel centres along one axis: `count` values in (low, high).
Array centres(std::int64_t count, double low, double high, DType dtype) {
  const double step = (high - low) / static_cast<double>(count);
  return Array::arange(0.0, static_cast<double>(count), 1.0, dtype) * step + (low + step / 2);
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

Array wave(const Grid& grid, const Params& params, const Array& t) {
  const Array x = centres(grid.width, grid.x_min, grid.x_max, grid.dtype) - params.center_x;
  const Array y = (centres(grid.height, grid.y_min, grid.y_max, grid.dtype) - params.center_y)
                      .reshape({grid.height, 1});
  eval(x, y);
  const Array r = hypot(x, y);
  const Array phi = arctan2(y, x);
  return sin(params.wavenumber * r - params.angular_frequency * t + params.twist * phi) *
         exp(-params.damping * r);
}

Array frame(const Grid& grid, const Params& params, double t) {
  check("frame", grid, params);
  check_time("frame", "t", t);
  Array f = wave(grid, params, Array::full({}, t, grid.dtype));
  eval(f);
  return f;
}

}  // namespace switchyard::apps::field

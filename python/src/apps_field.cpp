// switchyard._switchyard.apps.field: the field-generation app (apps/field). Statistics come back
// as (mean, energy, coherence) tuples; switchyard/apps/field.py names them.
#include "convert.hpp"
#include "switchyard/apps/field.hpp"

namespace switchyard::python {
namespace {

namespace field = switchyard::apps::field;

field::Grid to_grid(std::int64_t width, std::int64_t height, const std::vector<double>& bounds,
                    nb::handle dtype) {
  if (bounds.size() != 4)
    throw ValueError("field: bounds must be (x_min, x_max, y_min, y_max), given " +
                     std::to_string(bounds.size()) + " values");
  return {width, height, bounds[0], bounds[1], bounds[2], bounds[3], to_dtype(dtype)};
}

// (wavenumber, angular_frequency, twist, damping, center_x, center_y)
field::Params to_params(const std::vector<double>& p) {
  if (p.size() != 6)
    throw ValueError("field: expected 6 wave parameters, given " + std::to_string(p.size()));
  return {p[0], p[1], p[2], p[3], p[4], p[5]};
}

nb::tuple to_tuple(const field::Stats& s) {
  return nb::make_tuple(s.mean, s.energy, s.coherence);
}

}  // namespace

void bind_field(nb::module_& apps) {
  nb::module_ m =
      apps.def_submodule("field", "A damped spiral wave on a grid, and its statistics.");
  m.def(
      "frame",
      [](std::int64_t w, std::int64_t h, const std::vector<double>& bounds, nb::handle dtype,
         const std::vector<double>& params, double t) {
        const field::Grid g = to_grid(w, h, bounds, dtype);
        const field::Params p = to_params(params);
        return released([&] { return field::frame(g, p, t); });
      },
      nb::arg("width"), nb::arg("height"), nb::arg("bounds"), nb::arg("dtype"), nb::arg("params"),
      nb::arg("t"));
  m.def(
      "frame_rows",
      [](std::int64_t w, std::int64_t h, const std::vector<double>& bounds, nb::handle dtype,
         const std::vector<double>& params, double t, std::int64_t first_row, std::int64_t rows) {
        const field::Grid g = to_grid(w, h, bounds, dtype);
        const field::Params p = to_params(params);
        return released([&] { return field::frame(g, p, t, first_row, rows); });
      },
      nb::arg("width"), nb::arg("height"), nb::arg("bounds"), nb::arg("dtype"), nb::arg("params"),
      nb::arg("t"), nb::arg("first_row"), nb::arg("rows"));
  m.def(
      "statistics",
      [](std::int64_t w, std::int64_t h, const std::vector<double>& bounds, nb::handle dtype,
         const std::vector<double>& params, double t) {
        const field::Grid g = to_grid(w, h, bounds, dtype);
        const field::Params p = to_params(params);
        return to_tuple(released([&] { return field::statistics(g, p, t); }));
      },
      nb::arg("width"), nb::arg("height"), nb::arg("bounds"), nb::arg("dtype"), nb::arg("params"),
      nb::arg("t"));
  m.def(
      "animate",
      [](std::int64_t w, std::int64_t h, const std::vector<double>& bounds, nb::handle dtype,
         const std::vector<double>& params, std::int64_t frames, double dt, double t0) {
        const field::Grid g = to_grid(w, h, bounds, dtype);
        const field::Params p = to_params(params);
        const auto stats = released([&] { return field::animate(g, p, frames, dt, t0); });
        nb::list out;
        for (const field::Stats& s : stats) out.append(to_tuple(s));
        return out;
      },
      nb::arg("width"), nb::arg("height"), nb::arg("bounds"), nb::arg("dtype"), nb::arg("params"),
      nb::arg("frames"), nb::arg("dt"), nb::arg("t0"));
}

}  // namespace switchyard::python

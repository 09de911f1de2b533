// switchyard.apps.fractional's C++ half (python/switchyard/apps/fractional.py wraps it).
#include "bindings.hpp"
#include "gil.hpp"
#include "switchyard/apps/fractional.hpp"

namespace switchyard::python {

void bind_fractional(nb::module_& apps) {
  namespace fr = switchyard::apps::fractional;
  nb::module_ m = apps.def_submodule("fractional", "Fractional derivatives and relaxation.");
  nb::enum_<fr::Scheme>(m, "Scheme")
      .value("gl", fr::Scheme::GrunwaldLetnikov)
      .value("caputo", fr::Scheme::Caputo);
  nb::enum_<fr::Method>(m, "Method")
      .value("direct", fr::Method::Direct)
      .value("fft", fr::Method::Fft);
  m.def("derivative", &fr::derivative, nb::arg("f"), nb::arg("alpha"), nb::arg("h"),
        nb::arg("scheme"), nb::arg("method"), nb::call_guard<GilRelease>());
  m.def("grunwald_letnikov_weights", &fr::grunwald_letnikov_weights, nb::arg("n"), nb::arg("alpha"),
        nb::arg("dtype"));
  m.def("caputo_weights", &fr::caputo_weights, nb::arg("n"), nb::arg("alpha"), nb::arg("dtype"));
  m.def("mittag_leffler", &fr::mittag_leffler, nb::arg("alpha"), nb::arg("z"));
  m.def("relaxation", &fr::relaxation, nb::arg("alpha"), nb::arg("lam"), nb::arg("y0"),
        nb::arg("h"), nb::arg("steps"), nb::call_guard<GilRelease>());
}

}  // namespace switchyard::python

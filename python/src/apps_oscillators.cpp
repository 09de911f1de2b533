// switchyard._switchyard.apps.oscillators: the Kuramoto app (apps/oscillators). Arrays in are
// anything switchyard.asarray takes; the Python package (switchyard/apps/oscillators.py) gives
// the Pythonic signatures.
#include "convert.hpp"
#include "switchyard/apps/oscillators.hpp"

namespace switchyard::python {
namespace {

namespace osc = switchyard::apps::oscillators;

osc::Method to_method(const std::string& s) {
  if (s == "euler") return osc::Method::Euler;
  if (s == "rk4") return osc::Method::RK4;
  throw ValueError("simulate: method must be \"euler\" or \"rk4\", given \"" + s + "\"");
}

osc::Coupling to_coupling(const std::string& s) {
  if (s == "matvec") return osc::Coupling::MatVec;
  if (s == "direct") return osc::Coupling::Direct;
  throw ValueError("coupling must be \"matvec\" or \"direct\", given \"" + s + "\"");
}

}  // namespace

void bind_oscillators(nb::module_& apps) {
  nb::module_ m = apps.def_submodule("oscillators", "Kuramoto oscillator networks.");
  m.def(
      "random_network",
      [](std::int64_t n, std::uint64_t seed, double strength, nb::handle dtype) {
        const osc::Network net =
            released([&] { return osc::random_network(n, seed, strength, to_dtype(dtype)); });
        return std::make_pair(net.coupling, net.frequencies);
      },
      nb::arg("n"), nb::arg("seed"), nb::arg("coupling_strength"), nb::arg("dtype"));
  m.def(
      "random_phases",
      [](std::int64_t n, std::uint64_t seed, nb::handle dtype) {
        return osc::random_phases(n, seed, to_dtype(dtype));
      },
      nb::arg("n"), nb::arg("seed"), nb::arg("dtype"));
  m.def(
      "derivative",
      [](nb::handle k, nb::handle omega, nb::handle theta, const std::string& coupling) {
        const osc::Network net{to_array(k), to_array(omega)};
        const Array t = to_array(theta);
        const osc::Coupling how = to_coupling(coupling);
        return released([&] { return osc::derivative(net, t, how); });
      },
      nb::arg("coupling_matrix"), nb::arg("frequencies"), nb::arg("theta"), nb::arg("coupling"));
  m.def(
      "order_parameter",
      [](nb::handle theta) {
        const Array t = to_array(theta);
        return released([&] { return osc::order_parameter(t); });
      },
      nb::arg("theta"));
  m.def(
      "simulate",
      [](nb::handle k, nb::handle omega, nb::handle theta0, double dt, std::int64_t steps,
         const std::string& method, const std::string& coupling, std::int64_t record_every) {
        const osc::Network net{to_array(k), to_array(omega)};
        const Array t0 = to_array(theta0);
        const osc::Options options{.dt = dt,
                                   .steps = steps,
                                   .method = to_method(method),
                                   .coupling = to_coupling(coupling),
                                   .record_every = record_every};
        osc::Result r = released([&] { return osc::simulate(net, t0, options); });
        return nb::make_tuple(r.phases, std::move(r.order), std::move(r.order_steps));
      },
      nb::arg("coupling_matrix"), nb::arg("frequencies"), nb::arg("theta0"), nb::arg("dt"),
      nb::arg("steps"), nb::arg("method"), nb::arg("coupling"), nb::arg("record_every"));
}

}  // namespace switchyard::python

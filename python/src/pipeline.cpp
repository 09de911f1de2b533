// Query pipelines from Python: switchyard.query(a).map(lambda x: x * 2 + 1).where(lambda x: x > 0)
// .sum(). A stage's function is any Python callable of an Array; it is called once, when the
// stage is added, on the lazy array the stage sees, so the whole chain fuses as in C++.
#include <string>

#include "convert.hpp"

namespace switchyard::python {
namespace {

namespace q = switchyard::pipeline;

q::Lambda to_lambda(nb::callable f) {
  return q::Lambda([f](const Array& x) {
    nb::gil_scoped_acquire acquire;
    return to_array(f(x));
  });
}

template <Array (q::Query::*Terminal)() const>
Array run(const q::Query& query) {
  return released([&] { return (query.*Terminal)(); });
}

}  // namespace

void bind_pipeline(nb::module_& m) {
  nb::class_<q::StageReport>(m, "StageReport")
      .def_ro("work", &q::StageReport::work)
      .def_ro("operators", &q::StageReport::operators)
      .def_ro("elements", &q::StageReport::elements)
      .def_ro("device", &q::StageReport::device)
      .def_ro("reason", &q::StageReport::reason)
      .def_ro("compile_s", &q::StageReport::compile_s)
      .def_ro("transfer_s", &q::StageReport::transfer_s)
      .def_ro("execute_s", &q::StageReport::execute_s)
      .def_ro("total_s", &q::StageReport::total_s)
      .def_ro("cache_hit", &q::StageReport::cache_hit)
      .def_ro("fallbacks", &q::StageReport::fallbacks);
  nb::class_<q::Report>(m, "PipelineReport")
      .def_ro("terminal", &q::Report::terminal)
      .def_ro("elements", &q::Report::elements)
      .def_ro("stages", &q::Report::stages)
      .def_ro("fusion_stops", &q::Report::fusion_stops)
      .def_ro("compile_s", &q::Report::compile_s)
      .def_ro("transfer_s", &q::Report::transfer_s)
      .def_ro("execute_s", &q::Report::execute_s)
      .def_ro("total_s", &q::Report::total_s)
      .def_ro("cache_hit", &q::Report::cache_hit)
      .def_prop_ro("elements_per_s", &q::Report::elements_per_s)
      .def("__str__", &q::Report::to_string);
  nb::class_<q::Query>(m, "Query")
      .def("map", [](const q::Query& s, nb::callable f) { return s.map(to_lambda(f)); })
      .def("select", [](const q::Query& s, nb::callable f) { return s.select(to_lambda(f)); })
      .def("where", [](const q::Query& s, nb::callable f) { return s.where(to_lambda(f)); })
      .def("sum", &run<&q::Query::sum>)
      .def("min", &run<&q::Query::min>)
      .def("max", &run<&q::Query::max>)
      .def("count", &run<&q::Query::count>)
      .def("sort", &run<&q::Query::sort>)
      .def("argsort", &run<&q::Query::argsort>)
      .def("to_array", &run<&q::Query::to_array>)
      .def(
          "aggregate",
          [](const q::Query& s, const std::string& op) {
            const Accumulate how = to_accumulate(op);
            return released([&] { return s.aggregate(how); });
          },
          nb::arg("op"))
      .def(
          "scan",
          [](const q::Query& s, const std::string& op) {
            const Accumulate how = to_accumulate(op);
            return released([&] { return s.scan(how); });
          },
          nb::arg("op") = "sum")
      .def(
          "report", [](const q::Query& s) { return s.report(); },
          "What the last terminal ran: each stage's device and reason, its times, and the "
          "throughput.");
  m.def(
      "query", [](nb::handle a) { return q::from(to_array(a)); }, nb::arg("x"),
      "A pipeline over the elements of x (LINQ's from): map/select, where, then a terminal.");
}

}  // namespace switchyard::python

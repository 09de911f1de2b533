// switchyard._switchyard.apps.query: the events query (apps/query). Stage reports come back as
// PipelineReport objects; switchyard/apps/query.py turns them into dicts.
#include "convert.hpp"
#include "switchyard/apps/query.hpp"

namespace switchyard::python {

void bind_query(nb::module_& apps) {
  namespace query = switchyard::apps::query;
  nb::module_ m = apps.def_submodule("query", "An events query on switchyard pipelines.");
  m.def(
      "synthetic_events",
      [](std::int64_t n, std::uint64_t seed, nb::handle dtype) {
        const DType t = to_dtype(dtype);
        const query::Events e = released([&] { return query::synthetic_events(n, seed, t); });
        return std::make_pair(e.values, e.weights);
      },
      nb::arg("n"), nb::arg("seed"), nb::arg("dtype"));
  m.def(
      "run",
      [](nb::handle values, nb::handle weights, double threshold, double scale,
         std::int64_t top_k) {
        const query::Events e{to_array(values), to_array(weights)};
        const query::Query q{threshold, scale, top_k};
        query::Result r = released([&] { return query::run(e, q); });
        nb::list stages;
        for (const query::Stage& s : r.stages) stages.append(nb::make_tuple(s.name, s.report));
        return nb::make_tuple(r.count, r.total, r.running_total, std::move(r.top_revenue),
                              std::move(r.top_events), stages);
      },
      nb::arg("values"), nb::arg("weights"), nb::arg("threshold"), nb::arg("scale"),
      nb::arg("top_k"));
}

}  // namespace switchyard::python

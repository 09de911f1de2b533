// switchyard.capture(fn) from Python: `step = sy.capture(lambda theta: theta + dt * f(theta))`
// returns a callable that records fn on its first call for a signature and replays after. fn
// takes the arrays as positional arguments and returns one array or a tuple (or list) of them;
// the callable returns the same: an array, or a tuple. Arguments may be anything asarray takes.
#include "convert.hpp"

namespace switchyard::python {
namespace {

class PyCaptured {
 public:
  explicit PyCaptured(nb::callable fn)
      : fn_(std::make_shared<nb::object>(std::move(fn))),
        returns_one_(std::make_shared<bool>(false)),
        captured_(capture([returns_one = returns_one_, fn = fn_](std::span<const Array> inputs) {
          nb::gil_scoped_acquire acquire;
          if (!fn->is_valid())
            throw ValueError("the captured function was released (at interpreter exit)");
          nb::list args;
          for (const Array& a : inputs) args.append(nb::cast(a));
          const nb::object result = (*fn)(*args);
          std::vector<Array> outputs;
          *returns_one = nb::isinstance<Array>(result);
          if (*returns_one) {
            outputs.push_back(nb::cast<Array>(result));
          } else if (nb::isinstance<nb::tuple>(result) || nb::isinstance<nb::list>(result)) {
            for (nb::handle h : result) outputs.push_back(to_array(h));
          } else {
            throw ValueError("captured function returned " +
                             std::string(nb::str(nb::type_name(result.type())).c_str()) +
                             ": expected an array or a tuple of arrays");
          }
          return outputs;
        })) {}

  nb::object call(nb::args args) {
    std::vector<Array> inputs;
    for (nb::handle h : args) inputs.push_back(to_array(h));
    std::vector<Array> outputs = released([&] { return captured_(inputs); });
    if (*returns_one_ && outputs.size() == 1) return nb::cast(std::move(outputs[0]));
    nb::list out;
    for (Array& a : outputs) out.append(nb::cast(std::move(a)));
    return nb::tuple(out);
  }

  nb::dict stats() const {
    const CaptureStats s = captured_.stats();
    nb::dict d;
    d["calls"] = s.calls;
    d["recordings"] = s.recordings;
    d["replays"] = s.replays;
    d["fallbacks"] = s.fallbacks;
    d["kernels"] = s.kernels;
    d["library_calls"] = s.library_calls;
    d["devices"] = s.devices;
    d["placements_changed"] = s.placements_changed;
    nb::list placements;
    for (const CaptureStats::Placement& p : s.placements) {
      nb::dict option;
      option["name"] = p.name;
      option["devices"] = p.devices;
      option["predicted_s"] = p.predicted_s;
      option["measured_s"] = p.measured_s >= 0 ? nb::cast(p.measured_s) : nb::none();
      option["expected_s"] = p.expected_s;
      option["chosen"] = p.chosen;
      placements.append(option);
    }
    d["placements"] = placements;
    return d;
  }

  // The garbage collector's view of the function this object holds: a function that refers back
  // to its Captured (a module-level `step = sy.capture(lambda x: ... step ...)`, or simply the
  // module's globals) is a cycle only the collector can break.
  PyObject* function() const { return fn_->ptr(); }
  void release_function() { fn_->reset(); }

 private:
  std::shared_ptr<nb::object> fn_;  // shared with the recorded function, which calls it
  // Set when fn runs (shared with the recorded function): whether it returned a bare array.
  std::shared_ptr<bool> returns_one_;
  Captured captured_;
};

int traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  Py_VISIT(nb::inst_ptr<PyCaptured>(self)->function());
  return 0;
}

int clear(PyObject* self) {
  nb::inst_ptr<PyCaptured>(self)->release_function();
  return 0;
}

PyType_Slot gc_slots[] = {{Py_tp_traverse, reinterpret_cast<void*>(traverse)},
                          {Py_tp_clear, reinterpret_cast<void*>(clear)},
                          {0, nullptr}};

}  // namespace

void bind_capture(nb::module_& m) {
  nb::class_<PyCaptured>(m, "Captured", nb::type_slots(gc_slots),
                         "A function of arrays recorded on its first call and replayed after.")
      .def("__call__", &PyCaptured::call)
      .def("stats", &PyCaptured::stats,
           "calls, recordings, replays, fallbacks, and the last recording's kernels, "
           "library_calls and devices; placements_changed, and placements: the last decision on "
           "where the whole function runs (each placement considered, with its predicted, "
           "measured and expected time per call, and which was chosen).");
  m.def(
      "capture", [](nb::callable fn) { return PyCaptured(std::move(fn)); }, nb::arg("fn"),
      "Records fn(*arrays) on its first call for each input signature (shapes, dtypes, "
      "layouts) and replays the recorded kernels after, without re-planning or scheduling. fn "
      "returns an array or a tuple of arrays, and must not read values on the host or write "
      "into its inputs (ValueError when first called).");
}

}  // namespace switchyard::python

// The runtime from Python: devices and backends, pinning work to a device, strict mode,
// explain, metrics, traces, calibration and settings.
#include <memory>
#include <string>

#include "convert.hpp"

namespace switchyard::python {
namespace {

// A DeviceScope or StrictScope opened by a Python `with` block and closed by its __exit__ (on
// the same thread: both are per-thread in C++).
template <class Scope>
class ScopeHandle {
 public:
  template <class... Args>
  void open(Args&&... args) {
    if (scope_) throw ValueError("this scope is already entered: make a new one to nest");
    scope_ = std::make_unique<Scope>(std::forward<Args>(args)...);
  }
  void close() { scope_.reset(); }

 private:
  std::unique_ptr<Scope> scope_;
};

nb::dict device_dict(const DeviceInfo& d) {
  nb::dict out;
  out["id"] = d.id();
  out["backend"] = d.backend;
  out["index"] = d.index;
  out["name"] = d.name;
  out["vendor"] = d.vendor;
  out["driver_version"] = d.driver_version;
  out["kind"] = std::string(name(d.kind));
  out["compute_units"] = d.compute_units;
  out["global_memory_bytes"] = d.global_memory_bytes;
  out["free_memory_bytes"] = d.free_memory_bytes ? nb::cast(*d.free_memory_bytes) : nb::none();
  out["max_allocation_bytes"] = d.max_allocation_bytes;
  out["fp64"] = d.fp64;
  out["fp16"] = d.fp16;
  out["unified_memory"] = d.unified_memory;
  out["host_addressable"] = d.host_addressable;
  out["library_ops"] = d.library_ops;
  out["fft"] = d.fft;
  out["dense_solvers"] = d.dense_solvers;
  return out;
}

void bind_devices(nb::module_& m) {
  m.def("_devices", [] {
    nb::list out;
    for (const DeviceInfo& d : devices()) out.append(device_dict(d));
    return out;
  });
  m.def("_backends", [] {
    nb::list out;
    for (const BackendReport& b : backends()) {
      nb::dict report;
      report["name"] = b.name;
      report["usable"] = b.usable;
      report["reason"] = b.reason;
      nb::list devs;
      for (const DeviceInfo& d : b.devices) devs.append(device_dict(d));
      report["devices"] = devs;
      out.append(report);
    }
    return out;
  });
  m.def("_settings", [] {
    nb::list out;
    for (const Setting& s : settings()) {
      nb::dict d;
      d["name"] = s.name;
      d["value"] = s.value;
      d["default"] = s.default_value;
      d["meaning"] = s.meaning;
      d["problem"] = s.problem;
      out.append(d);
    }
    return out;
  });
  nb::class_<ScopeHandle<DeviceScope>>(m, "_DeviceScope")
      .def(nb::init<>())
      .def("open", &ScopeHandle<DeviceScope>::open<const std::string&>)
      .def("close", &ScopeHandle<DeviceScope>::close);
  nb::class_<ScopeHandle<StrictScope>>(m, "_StrictScope")
      .def(nb::init<>())
      .def("open", &ScopeHandle<StrictScope>::open<>)
      .def("close", &ScopeHandle<StrictScope>::close);
  m.def("fallback_enabled", &fallback_enabled);
  m.def(
      "synchronize", [] { released([] { synchronize(); }); },
      "Waits until all submitted work on every device has finished.");
}

void bind_explain(nb::module_& m) {
  nb::class_<CandidateReport>(m, "CandidateReport")
      .def_ro("name", &CandidateReport::name)
      .def_ro("compile_s", &CandidateReport::compile_s)
      .def_ro("transfer_s", &CandidateReport::transfer_s)
      .def_ro("launch_s", &CandidateReport::launch_s)
      .def_ro("compute_s", &CandidateReport::compute_s)
      .def_ro("predicted_s", &CandidateReport::predicted_s)
      .def_ro("measured_s", &CandidateReport::measured_s)
      .def_ro("expected_s", &CandidateReport::expected_s)
      .def_ro("fits", &CandidateReport::fits)
      .def_ro("compiled", &CandidateReport::compiled);
  nb::class_<KernelReport>(m, "KernelReport")
      .def_ro("kernel", &KernelReport::kernel)
      .def_ro("operators", &KernelReport::operators)
      .def_ro("elements", &KernelReport::elements)
      .def_ro("candidates", &KernelReport::candidates)
      .def_ro("chosen", &KernelReport::chosen)
      .def_ro("reason", &KernelReport::reason)
      .def_ro("ran_on", &KernelReport::ran_on)
      .def_ro("actual_s", &KernelReport::actual_s)
      .def_ro("predicted_s", &KernelReport::predicted_s)
      .def_ro("compile_s", &KernelReport::compile_s)
      .def_ro("transfer_s", &KernelReport::transfer_s)
      .def_ro("execute_s", &KernelReport::execute_s)
      .def_ro("cache_hit", &KernelReport::cache_hit)
      .def_ro("fallbacks", &KernelReport::fallbacks)
      .def_ro("break_even_elements", &KernelReport::break_even_elements)
      .def_ro("break_even_choice", &KernelReport::break_even_choice);
  nb::class_<Explanation>(m, "Explanation")
      .def_ro("notes", &Explanation::notes)
      .def_ro("kernels", &Explanation::kernels)
      .def_ro("fusion_stops", &Explanation::fusion_stops)
      .def_ro("advice", &Explanation::advice)
      .def("__str__", &Explanation::to_string);
  // The work is Python code, so it runs with the GIL held; its kernels are recorded on this
  // thread.
  m.def("_explain", [](nb::callable work) { return explain([&] { work(); }); });
  m.def("_explain_array", [](const Array& a) { return explain(a); });
}

void bind_metrics(nb::module_& m) {
  m.def("_metrics_json", &metrics_json);
  m.def("reset_metrics", &reset_metrics);
  m.def("start_trace", &start_trace, nb::arg("path"),
        "Records every compile, transfer and kernel to a Perfetto / chrome://tracing file.");
  m.def("flush_trace", [] { released([] { flush_trace(); }); });
  m.def("stop_trace", [] { released([] { stop_trace(); }); });
}

void bind_calibration(nb::module_& m) {
  m.def(
      "_calibrate",
      [](bool quick, nb::object progress) {
        CalibrationProgress report;
        // Borrowed (the argument outlives the call): the C++ side copies the callback with the
        // GIL released, which must not touch a reference count.
        PyObject* callback = progress.ptr();
        if (!progress.is_none())
          report = [callback](std::string_view candidate, std::string_view step, double fraction) {
            nb::gil_scoped_acquire acquire;
            const nb::handle function(callback);
            function(std::string(candidate), std::string(step), fraction);
          };
        const Calibration c = released([&] { return calibrate(quick, report); });
        nb::list candidates;
        for (const CandidateModel& model : c.candidates) {
          nb::dict d;
          d["name"] = model.name;
          d["host_addressable"] = model.host_addressable;
          d["launch_s"] = model.launch_s;
          d["h2d_latency_s"] = model.h2d_latency_s;
          d["h2d_bytes_per_s"] = model.h2d_bytes_per_s;
          d["d2h_latency_s"] = model.d2h_latency_s;
          d["d2h_bytes_per_s"] = model.d2h_bytes_per_s;
          d["memory_bytes_per_s"] = model.memory_bytes_per_s;
          d["arithmetic_per_s"] = model.arithmetic_per_s;
          d["transcendental_per_s"] = model.transcendental_per_s;
          d["flops_per_s"] = model.flops_per_s;
          d["compile_base_s"] = model.compile_base_s;
          d["compile_per_op_s"] = model.compile_per_op_s;
          d["free_memory_bytes"] = model.free_memory_bytes;
          candidates.append(d);
        }
        nb::dict out;
        out["candidates"] = candidates;
        out["profile_path"] = c.profile_path;
        out["seconds"] = c.seconds;
        return out;
      },
      nb::arg("quick"), nb::arg("progress").none());
}

}  // namespace

void bind_runtime(nb::module_& m) {
  bind_devices(m);
  bind_explain(m);
  bind_metrics(m);
  bind_calibration(m);
}

}  // namespace switchyard::python

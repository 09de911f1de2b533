// The extension module _switchyard; the package switchyard (python/switchyard) builds the
// Python array API namespace on it.
#include "bindings.hpp"
#include "gil.hpp"

NB_MODULE(_switchyard, m) {
  namespace nb = nanobind;
  using namespace switchyard::python;
  m.doc() = "Switchyard's C++ API: arrays computed on every device a machine has.";
  nb::enum_<switchyard::DType>(m, "DType")
      .value("bool", switchyard::DType::Bool)
      .value("int32", switchyard::DType::Int32)
      .value("int64", switchyard::DType::Int64)
      .value("float32", switchyard::DType::Float32)
      .value("float64", switchyard::DType::Float64)
      .value("complex64", switchyard::DType::Complex64)
      .value("complex128", switchyard::DType::Complex128);
  m.attr("_max_rank") = switchyard::kMaxRank;  // dimensions an array may have
  bind_errors(m);
  nb::class_<switchyard::Array> array(m, "Array", nb::type_slots(buffer_slots()),
                                      "An n-dimensional array on the host or any device; "
                                      "operations on it are lazy and fuse into one kernel.");
  bind_array(array);
  bind_indexing(array);
  bind_dlpack(m, array);
  bind_functions(m);
  bind_runtime(m);
  bind_pipeline(m);
  bind_capture(m);
  auto apps = m.def_submodule("apps", "The workloads users run (apps/), on the public API.");
  bind_oscillators(apps);
  bind_fractional(apps);
  bind_field(apps);
  bind_nn(apps);
  bind_query(apps);
  park_released_threads_at_exit(m);
}

// The Python module's parts. Each bind_* adds one family of names to the extension module;
// module.cpp calls them in order. Everything here wraps the public C++ API only.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "switchyard/switchyard.hpp"

namespace switchyard::python {

namespace nb = nanobind;

void bind_errors(nb::module_& m);
void bind_array(nb::class_<Array>& array);
void bind_indexing(nb::class_<Array>& array);
void bind_functions(nb::module_& m);
void bind_dlpack(nb::module_& m, nb::class_<Array>& array);
// The buffer protocol's type slots, given when the Array class is created.
PyType_Slot* buffer_slots();
void bind_runtime(nb::module_& m);
void bind_pipeline(nb::module_& m);
void bind_capture(nb::module_& m);
// switchyard.apps: each app's submodule under the `apps` submodule.
void bind_oscillators(nb::module_& apps);
void bind_fractional(nb::module_& apps);
void bind_field(nb::module_& apps);
void bind_nn(nb::module_& apps);
void bind_query(nb::module_& apps);

}  // namespace switchyard::python

// Each C++ error type becomes a Python exception class deriving from switchyard.Error and from
// the builtin a Python user catches for that kind of mistake, with the C++ message unchanged.
#include <string>

#include "bindings.hpp"

namespace switchyard::python {
namespace {

// Classes created once at import; owned by the module (never freed while it is loaded).
PyObject* error_class = nullptr;

template <class E>
bool is(const Error& e) {
  return dynamic_cast<const E*>(&e) != nullptr;
}

struct Mapping {
  const char* name;
  bool (*matches)(const Error&);
  PyObject* builtin;
  const char* parent = nullptr;  // the listed type it derives from, if any
  PyObject* type = nullptr;      // created by bind_errors
};

// The one list of error types, each parent before the types derived from it: an error takes the
// last type it matches, its most derived one.
Mapping mappings[] = {
    {"ShapeError", is<ShapeError>, PyExc_ValueError},
    {"DTypeError", is<DTypeError>, PyExc_TypeError},
    {"IndexError", is<IndexError>, PyExc_IndexError},
    // NumPy's AxisError is both an IndexError and a ValueError.
    {"AxisError", is<AxisError>, PyExc_ValueError, "IndexError"},
    {"ValueError", is<ValueError>, PyExc_ValueError},
    {"LinAlgError", is<LinAlgError>, PyExc_ValueError, "ValueError"},
    {"ConfigError", is<ConfigError>, PyExc_ValueError},
    {"OutOfMemory", is<OutOfMemory>, PyExc_MemoryError},
    {"DeviceError", is<DeviceError>, PyExc_RuntimeError},
    {"CompileError", is<CompileError>, PyExc_RuntimeError},
    {"BackendUnavailable", is<BackendUnavailable>, PyExc_RuntimeError},
    {"AllDevicesFailed", is<AllDevicesFailed>, PyExc_RuntimeError},
    {"ParseError", is<ParseError>, PyExc_ValueError},
    {"DLPackError", is<DLPackError>, PyExc_BufferError},
};

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const Error& e) {
    PyObject* type = error_class;
    for (const Mapping& m : mappings)
      if (m.matches(e)) type = m.type;
    PyErr_SetString(type, e.what());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  error_class = PyErr_NewExceptionWithDoc(
      "switchyard.Error", "The base of every error Switchyard raises.", PyExc_Exception, nullptr);
  m.attr("Error") = nb::handle(error_class);
  for (Mapping& mapping : mappings) {
    const std::string qualified = std::string("switchyard.") + mapping.name;
    nb::handle base = error_class;
    for (const Mapping& earlier : mappings)
      if (mapping.parent && std::string_view(earlier.name) == mapping.parent) base = earlier.type;
    nb::object bases = nb::make_tuple(base, nb::handle(mapping.builtin));
    mapping.type = PyErr_NewException(qualified.c_str(), bases.ptr(), nullptr);
    if (!mapping.type) throw nb::python_error();
    m.attr(mapping.name) = nb::handle(mapping.type);
  }
  nb::register_exception_translator(translate);
}

}  // namespace switchyard::python

// Zero-copy interop: DLPack capsules both ways (the Python array API's __dlpack__,
// __dlpack_device__ and from_dlpack) and the buffer protocol, so NumPy, PyTorch and CuPy share
// memory with Switchyard arrays instead of copying.
#include <dlpack/dlpack.h>

#include <memory>
#include <string>

#include "convert.hpp"

namespace switchyard::python {
namespace {

// DLPack's Python protocol: a consumer renames the capsule it took ownership of, so the
// capsule's destructor knows whether it still owns the tensor.
constexpr const char* kTensor = "dltensor";
constexpr const char* kUsedTensor = "used_dltensor";
constexpr int kDLCPUDevice = 1;

void delete_unconsumed(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, kTensor)) return;  // consumed: the consumer owns it
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kTensor));
  if (tensor->deleter) tensor->deleter(tensor);
}

nb::object export_capsule(const Array& a, nb::handle stream, nb::handle max_version,
                          nb::handle dl_device, nb::handle copy) {
  (void)max_version;  // this producer writes DLPack 0.x tensors, which every consumer reads
  if (!stream.is_none())
    throw nb::buffer_error(
        "__dlpack__: stream must be None for arrays in host memory (the array API's rule for "
        "devices without streams)");
  if (!dl_device.is_none()) {
    const auto [type, id] = nb::cast<std::pair<int, int>>(dl_device);
    if (type != kDLCPUDevice || id != 0)
      throw nb::buffer_error(("__dlpack__: can export to the host (1, 0) only, asked for (" +
                              std::to_string(type) + ", " + std::to_string(id) + ")")
                                 .c_str());
  }
  const bool must_copy = !copy.is_none() && nb::cast<bool>(copy);
  DLManagedTensor* tensor = released([&] { return to_dlpack(must_copy ? a.copy() : a); });
  PyObject* capsule = PyCapsule_New(tensor, kTensor, delete_unconsumed);
  if (!capsule) {
    tensor->deleter(tensor);
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

// Takes ownership of the tensor in a capsule; a capsule already consumed is an error, never a
// second owner.
Array import_capsule(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (!PyCapsule_CheckExact(c))
    throw DLPackError("from_dlpack expected a DLPack capsule, given " +
                      nb::cast<std::string>(nb::repr(capsule)));
  if (PyCapsule_IsValid(c, kUsedTensor))
    throw DLPackError(
        "this DLPack capsule was already consumed: expected a capsule fresh from "
        "__dlpack__(); each may be imported once");
  if (!PyCapsule_IsValid(c, kTensor))
    throw DLPackError(std::string("expected a capsule named 'dltensor', given one named '") +
                      (PyCapsule_GetName(c) ? PyCapsule_GetName(c) : "") + "'");
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, kTensor));
  Array a = from_dlpack(tensor);  // throws before taking ownership: the capsule keeps it
  PyCapsule_SetName(c, kUsedTensor);
  return a;
}

// ---- the buffer protocol (PEP 3118), over the same host export as DLPack

struct BufferView {
  DLManagedTensor* tensor;
  Py_ssize_t shape[kMaxRank];
  Py_ssize_t strides[kMaxRank];
};

const char* format_of(DType t) {
  switch (t) {
    case DType::Bool:
      return "?";
    case DType::Int32:
      return "i";
    case DType::Int64:
      return "q";
    case DType::Float32:
      return "f";
    case DType::Float64:
      return "d";
    case DType::Complex64:
      return "Zf";
    case DType::Complex128:
      return "Zd";
  }
  return "B";
}

int get_buffer(PyObject* self, Py_buffer* view, int flags) {
  try {
    const Array& a = *nb::inst_ptr<Array>(self);
    const bool strided = (flags & PyBUF_STRIDES) == PyBUF_STRIDES;
    const bool contiguous_asked = (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS ||
                                  (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS ||
                                  (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS;
    if ((!strided || contiguous_asked) && !a.is_contiguous())
      throw nb::buffer_error("the array is not C-contiguous: ask for a strided buffer or copy()");
    auto holder = std::make_unique<BufferView>();
    holder->tensor = released([&] { return to_dlpack(a); });
    const DLTensor& t = holder->tensor->dl_tensor;
    for (int i = 0; i < a.ndim(); ++i) {
      holder->shape[i] = a.shape()[i];
      holder->strides[i] = a.strides()[i] * static_cast<Py_ssize_t>(a.itemsize());
    }
    view->buf = static_cast<char*>(t.data) + t.byte_offset;
    view->obj = nb::handle(self).inc_ref().ptr();
    view->len = a.size() * static_cast<Py_ssize_t>(a.itemsize());
    view->itemsize = static_cast<Py_ssize_t>(a.itemsize());
    view->readonly = 0;
    view->ndim = a.ndim();
    view->format = (flags & PyBUF_FORMAT) ? const_cast<char*>(format_of(a.dtype())) : nullptr;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? holder->shape : nullptr;
    view->strides = strided ? holder->strides : nullptr;
    view->suboffsets = nullptr;
    view->internal = holder.release();
    return 0;
  } catch (const nb::builtin_exception& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  }
  view->obj = nullptr;
  return -1;
}

void release_buffer(PyObject*, Py_buffer* view) {
  auto* holder = static_cast<BufferView*>(view->internal);
  holder->tensor->deleter(holder->tensor);
  delete holder;
}

PyType_Slot buffer_protocol[] = {
    {Py_bf_getbuffer, reinterpret_cast<void*>(get_buffer)},
    {Py_bf_releasebuffer, reinterpret_cast<void*>(release_buffer)},
    {0, nullptr},
};

}  // namespace

PyType_Slot* buffer_slots() {
  return buffer_protocol;
}

void bind_dlpack(nb::module_& m, nb::class_<Array>& array) {
  array.def("__dlpack__", &export_capsule, nb::kw_only(), nb::arg("stream") = nb::none(),
            nb::arg("max_version") = nb::none(), nb::arg("dl_device") = nb::none(),
            nb::arg("copy") = nb::none(),
            "A DLPack capsule viewing this array's host memory (computed first if pending).");
  array.def("__dlpack_device__", [](const Array&) { return nb::make_tuple(kDLCPUDevice, 0); });
  m.def("_import_capsule", &import_capsule);
}

}  // namespace switchyard::python

// Zero-copy interop: DLPack capsules both ways (the Python array API's __dlpack__,
// __dlpack_device__ and from_dlpack) and the buffer protocol, so NumPy, PyTorch and CuPy share
// memory with Switchyard arrays instead of copying.
#include <memory>
#include <string>

#include "convert.hpp"
#include "switchyard/dlpack_types.hpp"

namespace switchyard::python {
namespace {

// DLPack's Python protocol: a capsule is named for its tensor type, and a consumer renames the
// capsule it took ownership of, so the capsule's destructor knows whether it still owns it.
template <class Tensor>
struct Capsule;
template <>
struct Capsule<DLManagedTensor> {
  static constexpr const char* name = "dltensor";
  static constexpr const char* used = "used_dltensor";
};
template <>
struct Capsule<DLManagedTensorVersioned> {
  static constexpr const char* name = "dltensor_versioned";
  static constexpr const char* used = "used_dltensor_versioned";
};

template <class Tensor>
void delete_unconsumed(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, Capsule<Tensor>::name)) return;  // consumed: not ours
  auto* tensor = static_cast<Tensor*>(PyCapsule_GetPointer(capsule, Capsule<Tensor>::name));
  if (tensor->deleter) tensor->deleter(tensor);
}

template <class Tensor>
nb::object make_capsule(Tensor* tensor) {
  PyObject* capsule = PyCapsule_New(tensor, Capsule<Tensor>::name, delete_unconsumed<Tensor>);
  if (!capsule) {
    tensor->deleter(tensor);
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

nb::object export_capsule(const Array& a, nb::handle stream, nb::handle max_version,
                          nb::handle dl_device, nb::handle copy) {
  const DLPackDevice current = released([&] { return dlpack_device(a); });
  const DLPackDevice device = dl_device.is_none()
                                  ? current
                                  : DLPackDevice{nb::cast<std::int32_t>(dl_device[0]),
                                                 nb::cast<std::int32_t>(dl_device[1])};
  // A CUDA export waits for the device to finish before it returns, so whatever stream the
  // consumer names sees finished data; on the host there are no streams (the standard's rule).
  if (!stream.is_none() && device == kDLPackHost)
    throw nb::buffer_error("__dlpack__: stream must be None for an export to host memory");
  if (!copy.is_none() && !nb::cast<bool>(copy) && device != current)
    throw nb::buffer_error("__dlpack__(copy=False) to another device needs a copy");
  const bool must_copy = !copy.is_none() && nb::cast<bool>(copy);
  const bool versioned = !max_version.is_none() && nb::cast<std::int64_t>(max_version[0]) >= 1;
  if (versioned)
    return make_capsule(released([&] { return to_dlpack_versioned(a, device, must_copy); }));
  return make_capsule(released([&] { return to_dlpack(a, device, must_copy); }));
}

template <class Tensor>
Array consume(PyObject* capsule) {
  auto* tensor = static_cast<Tensor*>(PyCapsule_GetPointer(capsule, Capsule<Tensor>::name));
  Array a = released([&] { return from_dlpack(tensor); });  // throws before taking ownership
  PyCapsule_SetName(capsule, Capsule<Tensor>::used);
  return a;
}

// Takes ownership of the tensor in a capsule; a capsule already consumed is an error, never a
// second owner.
Array import_capsule(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (!PyCapsule_CheckExact(c))
    throw DLPackError("from_dlpack expected a DLPack capsule, given " +
                      nb::cast<std::string>(nb::repr(capsule)));
  if (PyCapsule_IsValid(c, Capsule<DLManagedTensorVersioned>::name))
    return consume<DLManagedTensorVersioned>(c);
  if (PyCapsule_IsValid(c, Capsule<DLManagedTensor>::name)) return consume<DLManagedTensor>(c);
  const char* name = PyCapsule_GetName(c);
  if (name && std::string(name).starts_with("used_"))
    throw DLPackError(
        "this DLPack capsule was already consumed: expected a capsule fresh from "
        "__dlpack__(); each may be imported once");
  throw DLPackError(std::string("expected a capsule named 'dltensor_versioned' or 'dltensor', "
                                "given one named '") +
                    (name ? name : "") + "'");
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

namespace {

// A copy of a C-contiguous buffer-protocol object (a NumPy array) of `dtype`: one memcpy into
// Switchyard's pooled host memory, without the GIL; asarray's default for NumPy data.
Array copy_buffer(nb::handle source, DType dtype) {
  Py_buffer view;
  if (PyObject_GetBuffer(source.ptr(), &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0)
    throw nb::python_error();
  const Shape shape(view.shape, view.shape + view.ndim);
  try {
    Array copy = released([&] { return Array::from_host(view.buf, view.len, shape, dtype); });
    PyBuffer_Release(&view);
    return copy;
  } catch (...) {
    PyBuffer_Release(&view);
    throw;
  }
}

}  // namespace

void bind_dlpack(nb::module_& m, nb::class_<Array>& array) {
  array.def("__dlpack__", &export_capsule, nb::kw_only(), nb::arg("stream").none() = nb::none(),
            nb::arg("max_version").none() = nb::none(), nb::arg("dl_device").none() = nb::none(),
            nb::arg("copy").none() = nb::none(),
            "A DLPack capsule viewing this array's memory (on the host, or on the CUDA device "
            "holding it); computed first if pending.");
  array.def("__dlpack_device__", [](const Array& a) {
    const DLPackDevice d = released([&] { return dlpack_device(a); });
    return nb::make_tuple(d.type, d.id);
  });
  m.def("_import_capsule", &import_capsule);
  m.def("_copy_buffer", &copy_buffer);
}

}  // namespace switchyard::python

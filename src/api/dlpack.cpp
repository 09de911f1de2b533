#include "switchyard/dlpack.hpp"

#include <dlpack/dlpack.h>

#include <memory>
#include <string>

#include "runtime/buffer.hpp"

namespace switchyard {
namespace {

// DLPack 0.8 added kDLBool; the installed 0.6 header predates it, and NumPy exports bool with it.
constexpr std::uint8_t kDLBoolCode = 6;

DLDataType to_dl(DType t) {
  switch (t) {
    case DType::Bool:
      return {kDLBoolCode, 8, 1};
    case DType::Int32:
      return {kDLInt, 32, 1};
    case DType::Int64:
      return {kDLInt, 64, 1};
    case DType::Float32:
      return {kDLFloat, 32, 1};
    case DType::Float64:
      return {kDLFloat, 64, 1};
  }
  return {};
}

DType from_dl(DLDataType t) {
  if (t.lanes != 1)
    throw DLPackError("DLPack tensor has " + std::to_string(t.lanes) + " vector lanes: expected 1");
  if (t.code == kDLFloat && t.bits == 32) return DType::Float32;
  if (t.code == kDLFloat && t.bits == 64) return DType::Float64;
  if (t.code == kDLInt && t.bits == 32) return DType::Int32;
  if (t.code == kDLInt && t.bits == 64) return DType::Int64;
  if (t.code == kDLBoolCode && t.bits == 8) return DType::Bool;
  throw DLPackError("DLPack dtype (code " + std::to_string(t.code) + ", " + std::to_string(t.bits) +
                    " bits) is not supported: expected bool, int32, int64, float32 or float64");
}

// What an exported tensor owns: the array (keeping its buffer alive) and the shape/strides the
// DLTensor points into.
struct ExportContext {
  Array array;
  std::int64_t shape[kMaxRank];
  std::int64_t strides[kMaxRank];
  DLManagedTensor tensor;
};

}  // namespace

DLManagedTensor* to_dlpack(const Array& a) {
  if (!a) throw ValueError("to_dlpack of a null Array: expected an array");
  auto ctx = std::make_unique<ExportContext>();
  ctx->array = a;
  for (int i = 0; i < a.ndim(); ++i) ctx->shape[i] = a.shape()[i], ctx->strides[i] = a.strides()[i];
  DLTensor& t = ctx->tensor.dl_tensor;
  t.data = a.buffer()->host_data();
  t.device = {kDLCPU, 0};
  t.ndim = a.ndim();
  t.dtype = to_dl(a.dtype());
  t.shape = ctx->shape;
  t.strides = ctx->strides;
  t.byte_offset = static_cast<std::uint64_t>(a.offset()) * a.itemsize();
  ctx->tensor.manager_ctx = ctx.get();
  ctx->tensor.deleter = [](DLManagedTensor* self) {
    delete static_cast<ExportContext*>(self->manager_ctx);
  };
  return &ctx.release()->tensor;
}

Array from_dlpack(DLManagedTensor* tensor) {
  if (!tensor) throw DLPackError("from_dlpack of a null tensor: expected a DLManagedTensor");
  const DLTensor& t = tensor->dl_tensor;
  if (t.device.device_type != kDLCPU && t.device.device_type != kDLCUDAHost)
    throw DLPackError("DLPack tensor lives on device type " + std::to_string(t.device.device_type) +
                      ": expected host memory (kDLCPU); copy it to the host first");
  const DType dtype = from_dl(t.dtype);
  if (t.ndim < 0 || t.ndim > kMaxRank)
    throw DLPackError("DLPack tensor has " + std::to_string(t.ndim) + " dimensions: expected 0.." +
                      std::to_string(kMaxRank));
  const Shape shape(t.shape, t.shape + t.ndim);
  const Strides strides =
      t.strides ? Strides(t.strides, t.strides + t.ndim) : contiguous_strides(shape);
  if (t.byte_offset % size_of(dtype))
    throw DLPackError("DLPack byte_offset " + std::to_string(t.byte_offset) +
                      " is not a multiple of the element size " + std::to_string(size_of(dtype)));
  // The borrowed region spans exactly the elements the tensor reaches, from its first one.
  std::int64_t lo = 0, hi = 0;
  for (int i = 0; i < t.ndim; ++i) {
    const std::int64_t reach = (shape[i] - 1) * strides[i];
    (reach < 0 ? lo : hi) += reach;
  }
  const bool empty = element_count(shape) == 0;
  auto* first = static_cast<std::byte*>(t.data) + t.byte_offset +
                lo * static_cast<std::int64_t>(size_of(dtype));
  const std::size_t bytes = empty ? 0 : static_cast<std::size_t>(hi - lo + 1) * size_of(dtype);
  auto release = [tensor] {
    if (tensor->deleter) tensor->deleter(tensor);
  };
  Array base = Array::borrow(first, bytes, Shape{static_cast<std::int64_t>(bytes / size_of(dtype))},
                             dtype, release);
  return Array(base.buffer(), dtype, shape, strides, empty ? 0 : -lo);
}

}  // namespace switchyard

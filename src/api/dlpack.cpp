// DLPack export and import: who owns what, and on which device the memory is. Both tensor types
// (unversioned and DLPack 1.x) go through one template each way; the tensor description itself
// is checked and translated in dlpack_tensor.cpp.
#include "switchyard/dlpack.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "api/dlpack_tensor.hpp"
#include "backends/registry.hpp"
#include "expr/writes.hpp"
#include "runtime/buffer.hpp"
#include "switchyard/dlpack_types.hpp"

namespace switchyard {
namespace {

using dlpack::device_type_name;

constexpr bool is_versioned(const DLManagedTensor*) {
  return false;
}
constexpr bool is_versioned(const DLManagedTensorVersioned*) {
  return true;
}

// ---- devices

// Whether `device` belongs to the backend whose memory DLPack calls kDLCUDA.
bool is_cuda(const Device& device) {
  const Backend* b = Registry::instance().find(device.info().backend);
  return b && b->dlpack_device_type() == kDLCUDA;
}

// Why this process has no CUDA device `id`, for messages.
std::string no_cuda_device(std::int32_t id) {
  for (const BackendStatus& status : Registry::instance().backends())
    if (status.backend->dlpack_device_type() == kDLCUDA)
      return status.reason.empty() ? "the CUDA backend has no device " + std::to_string(id)
                                   : "the CUDA backend is unavailable: " + status.reason;
  return "this build of Switchyard has no CUDA backend";
}

// The CUDA device DLPack calls `id`; throws DLPackError, saying why, when there is none. The
// CUDA backend numbers its devices by the driver's ordinal, as DLPack's device_id does.
Device& cuda_device(std::int32_t id, const char* operation) {
  for (Device* device : Registry::instance().devices())
    if (is_cuda(*device) && device->info().index == id) return *device;
  throw DLPackError(std::string(operation) + " on CUDA device " + std::to_string(id) + ": " +
                    no_cuda_device(id) +
                    "; expected a CUDA device this process has (switchyard info lists them), or "
                    "the host");
}

// The device an imported tensor's memory is on, or null for memory the host addresses: pinned
// (kDLCUDAHost) and managed (kDLCUDAManaged) CUDA memory are host pointers too.
Device* import_device(const DLDevice& device) {
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:
    case kDLCUDAManaged:
      return nullptr;
    case kDLCUDA:
      return &cuda_device(device.device_id, "from_dlpack");
    default:
      throw DLPackError("DLPack tensor lives on device type " +
                        device_type_name(device.device_type) +
                        ": expected host memory (kDLCPU, kDLCUDAHost, kDLCUDAManaged) or a CUDA "
                        "device of this process (kDLCUDA); copy it to one of those first");
  }
}

// ---- export

// What an exported tensor owns: the array (keeping its buffer alive) and the shape/strides the
// DLTensor points into.
template <class Managed>
struct ExportContext {
  Array array;
  std::int64_t shape[kMaxRank];
  std::int64_t strides[kMaxRank];
  Managed tensor{};
};

template <class Managed>
void delete_export(Managed* self) {
  auto* ctx = static_cast<ExportContext<Managed>*>(self->manager_ctx);
  ctx->array.buffer()->unlend();
  delete ctx;
}

// The memory on `device` holding `a`'s valid data, brought there first if needed. A CUDA copy
// is returned once the device is idle: kernels writing it may still be queued on its stream,
// which a consumer's stream is not ordered after.
// The storage is lent out until the consumer gives the tensor back (runtime/buffer.hpp): it may
// write it, so the pending work reading it is computed first.
void* exported_data(const Array& a, DLPackDevice device) {
  Buffer& storage = *a.buffer();
  if (device.type == kDLCPU) {
    expr::realize_readers(storage);
    std::byte* data = storage.host_data();
    storage.lend(nullptr);
    return data;
  }
  if (device.type == kDLCUDA) {
    Device& gpu = cuda_device(device.id, "to_dlpack");
    expr::realize_readers(storage);
    // An empty buffer has nothing to allocate or read.
    void* data = storage.bytes() == 0 ? nullptr : storage.read_on(gpu).handle;
    if (data) gpu.synchronize();
    storage.lend(&gpu);
    return data;
  }
  throw DLPackError("to_dlpack to device type " + device_type_name(device.type) +
                    ": expected the host (kDLCPU) or a CUDA device (kDLCUDA); OpenCL memory is "
                    "exported through the host");
}

template <class Managed>
Managed* export_array(const Array& source, DLPackDevice device, bool copy) {
  if (!source) throw ValueError("to_dlpack of a null Array: expected an array");
  auto ctx = std::make_unique<ExportContext<Managed>>();
  ctx->array = copy ? source.copy() : source;
  const Array& a = ctx->array;
  for (int i = 0; i < a.ndim(); ++i) ctx->shape[i] = a.shape()[i], ctx->strides[i] = a.strides()[i];
  DLTensor& t = ctx->tensor.dl_tensor;
  t.data = exported_data(a, device);
  t.device = {device.type == kDLCPU ? kDLCPU : kDLCUDA, device.type == kDLCPU ? 0 : device.id};
  t.ndim = a.ndim();
  t.dtype = dlpack::to_dl(a.dtype());
  t.shape = ctx->shape;
  t.strides = ctx->strides;
  t.byte_offset = static_cast<std::uint64_t>(a.offset()) * a.itemsize();
  if constexpr (is_versioned(static_cast<Managed*>(nullptr))) {
    ctx->tensor.version = {1, 0};
    ctx->tensor.flags = copy ? DLPACK_FLAG_BITMASK_IS_COPIED : 0;
  }
  ctx->tensor.manager_ctx = ctx.get();
  ctx->tensor.deleter = &delete_export<Managed>;
  return &ctx.release()->tensor;
}

// ---- import

// The tensors imported and not yet released: a managed tensor is consumed by its first import,
// and a second import would run its deleter twice (a double free in the producer). Keyed by
// address, for both tensor types.
class LiveImports {
 public:
  // Records `t` as imported; throws DLPackError when it already is.
  void claim(const void* t) {
    std::lock_guard lock(mutex_);
    if (!live_.insert(t).second)
      throw DLPackError(
          "from_dlpack was given a DLPack tensor that is already imported and not yet released: "
          "expected a tensor not consumed before; import it once and share the Array, or export a "
          "new tensor from the producer");
  }
  void forget(const void* t) {
    std::lock_guard lock(mutex_);
    live_.erase(t);
  }

 private:
  std::mutex mutex_;  // guards live_; imports and releases happen on any thread
  std::unordered_set<const void*> live_;
};

LiveImports& live_imports() {
  static LiveImports* imports = new LiveImports;  // never destroyed: arrays may outlive statics
  return *imports;
}

// Reads a bool tensor on a device through a temporary host copy: the check costs a transfer, but
// a byte other than 0 or 1 loaded as bool is undefined behaviour in device kernels too.
void check_bool_bytes_on(Device& device, const dlpack::Region& region, const Shape& shape,
                         const Strides& strides) {
  std::vector<std::byte> host(region.bytes);
  device.copy_to_host(host.data(), {region.first, region.bytes}, 0, region.bytes);
  dlpack::check_bool_bytes(host.data() + region.offset, shape, strides);
}

// The storage of an imported tensor's memory, zero-copy; `release` hands the tensor back.
std::shared_ptr<Buffer> borrow(Device* device, const dlpack::Region& region, DType dtype,
                               std::function<void()> release) {
  if (!device)
    return Array::borrow(region.first, region.bytes,
                         Shape{static_cast<std::int64_t>(region.bytes / size_of(dtype))}, dtype,
                         std::move(release))
        .buffer();
  // The producer may free or reuse the memory once released: Switchyard's kernels queued on it
  // must be finished first. A failing device reported its error where the work failed.
  auto release_when_idle = [device, release = std::move(release)] {
    try {
      device->synchronize();
    } catch (const Error&) {
    }
    release();
  };
  return Buffer::borrow_on(*device, {region.first, region.bytes}, std::move(release_when_idle));
}

template <class Managed>
Array import_tensor(Managed* tensor) {
  const DLTensor& t = tensor->dl_tensor;
  Device* device = import_device(t.device);
  const DType dtype = dlpack::from_dl(t.dtype);
  if (t.ndim < 0 || t.ndim > kMaxRank)
    throw DLPackError("DLPack tensor has " + std::to_string(t.ndim) + " dimensions: expected 0.." +
                      std::to_string(kMaxRank));
  const Shape shape(t.shape, t.shape + t.ndim);
  const Strides strides =
      t.strides ? Strides(t.strides, t.strides + t.ndim) : contiguous_strides(shape);
  if (t.byte_offset % size_of(dtype))
    throw DLPackError("DLPack byte_offset " + std::to_string(t.byte_offset) +
                      " is not a multiple of the element size " + std::to_string(size_of(dtype)));
  const bool empty = element_count(shape) == 0;
  if (empty) device = nullptr;  // no memory to use on a device: an empty host array
  const dlpack::Region region = dlpack::borrowed_region(t, shape, strides, dtype, empty);
  if (dtype == DType::Bool && !empty) {
    if (device)
      check_bool_bytes_on(*device, region, shape, strides);
    else
      dlpack::check_bool_bytes(region.first + region.offset, shape, strides);
  }
  auto release = [tensor] {
    live_imports().forget(tensor);  // before the deleter: the producer may reuse the address
    if (tensor->deleter) tensor->deleter(tensor);
  };
  live_imports().claim(tensor);
  std::shared_ptr<Buffer> storage;
  try {
    storage = borrow(device, region, dtype, release);
  } catch (...) {
    live_imports().forget(tensor);  // rejected: the tensor stays the caller's, importable again
    throw;
  }
  return Array(std::move(storage), dtype, shape, strides, region.offset);
}

}  // namespace

DLPackDevice dlpack_device(const Array& a) {
  if (!a) throw ValueError("dlpack_device of a null Array: expected an array");
  const Buffer& storage = *a.buffer();
  if (storage.valid_on_host()) return kDLPackHost;
  for (Device* device : Registry::instance().devices())
    if (is_cuda(*device) && storage.valid_on(*device)) return dlpack_cuda(device->info().index);
  return kDLPackHost;
}

DLManagedTensor* to_dlpack(const Array& a, DLPackDevice device, bool copy) {
  return export_array<DLManagedTensor>(a, device, copy);
}

DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, DLPackDevice device, bool copy) {
  return export_array<DLManagedTensorVersioned>(a, device, copy);
}

void mark_modified(const Array& a, DLPackDevice device) {
  if (!a) throw ValueError("mark_modified of a null Array: expected an array");
  Buffer& storage = *a.buffer();
  if (device.type == kDLCPU) return storage.mark_host_written();
  if (device.type != kDLCUDA)
    throw DLPackError("mark_modified on device type " + device_type_name(device.type) +
                      ": expected the host (kDLCPU) or a CUDA device (kDLCUDA)");
  Device& gpu = cuda_device(device.id, "mark_modified");
  // Marking a device without a valid copy would leave no valid copy anywhere.
  if (!storage.valid_on(gpu))
    throw ValueError("mark_modified on " + gpu.info().id() +
                     ", where the array has no valid copy: expected the device it was exported "
                     "to; export it there again (to_dlpack) before writing through the export");
  storage.mark_written(gpu);
}

Array from_dlpack(DLManagedTensor* tensor) {
  if (!tensor) throw DLPackError("from_dlpack of a null tensor: expected a DLManagedTensor");
  return import_tensor(tensor);
}

Array from_dlpack(DLManagedTensorVersioned* tensor) {
  if (!tensor)
    throw DLPackError("from_dlpack of a null tensor: expected a DLManagedTensorVersioned");
  // DLPack keeps only the version stable across major versions: nothing else is read.
  if (tensor->version.major > 1)
    throw DLPackError("DLPack tensor of version " + std::to_string(tensor->version.major) + "." +
                      std::to_string(tensor->version.minor) +
                      ": expected major version 1 (DLPack 1.x); the tensor is left to its "
                      "producer, its deleter not called");
  const bool read_only = tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY;
  Array imported = import_tensor(tensor);
  if (!read_only) return imported;
  // Switchyard writes into arrays in place, so a read-only tensor becomes a copy; the import is
  // released here, once the copy is computed.
  const Array copy = imported.copy();
  return Array(copy.buffer(), copy.dtype(), copy.shape(), copy.strides(), copy.offset());
}

}  // namespace switchyard

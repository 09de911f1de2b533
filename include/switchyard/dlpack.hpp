// DLPack interop, zero-copy both ways: host memory, and CUDA device memory where this process
// has the CUDA device. Both the unversioned DLManagedTensor and DLPack 1.x's
// DLManagedTensorVersioned; switchyard/dlpack_types.hpp has their definitions.
//
// For the Python array API: __dlpack_device__ is dlpack_device(a); __dlpack__(dl_device=d,
// copy=c) is to_dlpack_versioned(a, d or dlpack_device(a), c) (or to_dlpack for a consumer that
// asks for no max_version); from_dlpack(x) imports x.__dlpack__(...).
#pragma once

#include <cstdint>

#include "switchyard/array.hpp"

struct DLManagedTensor;
struct DLManagedTensorVersioned;

namespace switchyard {

// A DLPack device: DLDeviceType's value and the device's index (DLPack's DLDevice).
struct DLPackDevice {
  std::int32_t type = 1;  // kDLCPU
  std::int32_t id = 0;
  friend bool operator==(const DLPackDevice&, const DLPackDevice&) = default;
};
inline constexpr DLPackDevice kDLPackHost{1, 0};
inline constexpr DLPackDevice dlpack_cuda(std::int32_t id) {
  return {2, id};  // kDLCUDA
}

// ---- export
// Where `a`'s data is, for __dlpack_device__: {kDLCUDA, N} when its only valid copy is on CUDA
// device N, the host otherwise (the CPU backend's memory is the host's; OpenCL copies are
// exported through the host). Computes `a` first when it is pending.
DLPackDevice dlpack_device(const Array& a);

// Exports `a` as a DLPack tensor viewing its memory on `device`: the host ({kDLCPU, 0}, the
// default), or CUDA device N ({kDLCUDA, N}), where the valid copy is brought first when it is
// elsewhere. A CUDA export waits until the device has finished all work queued on it before it
// returns, so a consumer on any stream reads finished data. With `copy`, the tensor views a new
// contiguous copy of `a` that no other array shares (DLPack's IS_COPIED); without it, it views
// `a`'s own storage. The tensor keeps the storage alive until its deleter is called; call it
// exactly once. Until then the storage is lent out (shared, array.hpp): pending work reading it
// is computed at the export, work built meanwhile runs at once, and the exported copy is the one
// Switchyard reads, so writes through the tensor are seen without mark_modified. Throws
// DLPackError for another device type, or a CUDA device this process does not have.
DLManagedTensor* to_dlpack(const Array& a, DLPackDevice device = kDLPackHost, bool copy = false);
// The same as a DLPack 1.0 tensor: version {1, 0}, flags IS_COPIED with `copy`.
DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, DLPackDevice device = kDLPackHost,
                                              bool copy = false);

// Tells the runtime that `a`'s memory on `device` was written outside Switchyard: that copy
// becomes the only valid one (shared memory needs no call). a.mark_modified() is this for the
// host.
void mark_modified(const Array& a, DLPackDevice device);

// ---- import
// Takes ownership of a DLPack tensor without copying; its deleter runs when the last Array
// using the memory is gone. Host memory (kDLCPU, and kDLCUDAHost and kDLCUDAManaged, which the
// host addresses) is used in place; so is kDLCUDA memory of CUDA device N when this process has
// it. The memory is shared (array.hpp): work reading it runs when it is written, the producer's
// copy is the one read, and Switchyard's writes into it reach that copy before they return. The
// producer must have finished writing before the import: Switchyard's own work is not ordered
// after the producer's streams.
//
// Throws DLPackError for other devices (naming those supported), vector lanes or dtypes
// Switchyard lacks, and IndexError for shape, strides or byte_offset that reach outside what
// 64-bit arithmetic can address (the tensor is then left to the caller, its deleter not called).
// Importing consumes the tensor: importing it again while an Array still uses it throws
// DLPackError (its deleter would otherwise run twice). After Switchyard has called the deleter
// the pointer is dangling, as DLPack says, and must not be passed again.
Array from_dlpack(DLManagedTensor* tensor);
// The same for a DLPack 1.x tensor. A READ_ONLY one is imported as a copy (its deleter runs
// before this returns), since Switchyard writes into arrays in place. A tensor of major version
// 2 or later throws DLPackError without its deleter being called: its layout past the version
// is unknown, so nothing else of it is read.
Array from_dlpack(DLManagedTensorVersioned* tensor);

}  // namespace switchyard

// DLPack interop for host memory, zero-copy both ways.
#pragma once

#include "switchyard/array.hpp"

struct DLManagedTensor;

namespace switchyard {

// Exports `a` as a DLPack tensor viewing its host memory (after bringing a device-only copy to
// the host). The tensor keeps the storage alive until its deleter is called; call it exactly once.
// After writing through the tensor, call a.mark_modified(): copies on devices are stale then.
DLManagedTensor* to_dlpack(const Array& a);

// Takes ownership of a CPU DLPack tensor without copying; its deleter runs when the last Array
// using the memory is gone. Throws DLPackError for other devices, vector lanes or dtypes
// Switchyard lacks, and IndexError for shape, strides or byte_offset that reach outside what
// 64-bit arithmetic can address (the tensor is then left to the caller, its deleter not called).
// Importing consumes the tensor: importing it again while an Array still uses it throws
// DLPackError (its deleter would otherwise run twice). After Switchyard has called the deleter
// the pointer is dangling, as DLPack says, and must not be passed again. When the producer
// writes the memory after the import, call mark_modified() on the array.
Array from_dlpack(DLManagedTensor* tensor);

}  // namespace switchyard

// The DLPack C types, for code that builds or reads the tensors of switchyard/dlpack.hpp: the
// installed <dlpack/dlpack.h>, plus what DLPack 1.0 added when that header is older. Debian's
// is 0.6, without DLManagedTensorVersioned; the definitions below are ABI-identical to DLPack
// 1.0's, and a header that is 1.0 or newer (it defines DLPACK_MAJOR_VERSION) brings its own.
// Include this rather than <dlpack/dlpack.h>.
#pragma once

#include <dlpack/dlpack.h>

#ifndef DLPACK_MAJOR_VERSION
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

extern "C" {

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

// The data may not be written through this tensor.
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
// The producer copied the data for this tensor: writes through it reach no other array.
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

typedef struct DLManagedTensorVersioned {
  DLPackVersion version;  // a consumer reads nothing else of a tensor whose major it lacks
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

}  // extern "C"
#endif

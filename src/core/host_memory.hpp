// Host memory for array data: 64-byte aligned (full SIMD vectors, no split cache lines), large
// blocks backed by transparent huge pages and recycled through a pool. Touching fresh memory
// costs far more than streaming warm memory (measured ≈3 GB/s with 4 KiB pages vs ≈23 GB/s with
// huge pages vs tens of GB/s warm), so freed large blocks are kept for reuse.
#pragma once

#include <cstddef>

namespace switchyard::host_memory {

// Throws OutOfMemory naming the size when the system refuses (after the pool released what it
// kept).
void* allocate(std::size_t bytes);
void release(void* p, std::size_t bytes);

}  // namespace switchyard::host_memory

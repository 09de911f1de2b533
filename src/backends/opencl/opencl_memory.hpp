// Device buffers recycled by size class: creating a cl_mem costs a driver call and, on GPUs,
// a page-table update, while arrays of the same few sizes come and go every step.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

#include "backends/backend.hpp"
#include "backends/opencl/opencl_api.hpp"

namespace switchyard::opencl {

class BufferPool {
 public:
  BufferPool(cl_context context, const DeviceInfo& device) : context_(context), device_(device) {}
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A buffer of at least `bytes`; on CL_MEM_OBJECT_ALLOCATION_FAILURE / CL_OUT_OF_RESOURCES
  // the pool is trimmed and the allocation retried once, then OutOfMemory names the sizes.
  DeviceMemory allocate(std::size_t bytes);
  void free(DeviceMemory memory);
  void trim();  // releases every pooled buffer

 private:
  std::size_t size_class(std::size_t bytes) const;

  cl_context context_;
  const DeviceInfo& device_;
  std::mutex mutex_;  // guards everything below
  std::map<std::size_t, std::vector<cl_mem>> free_;
  std::size_t pooled_bytes_ = 0, live_bytes_ = 0;
};

}  // namespace switchyard::opencl

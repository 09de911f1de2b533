#include "backends/opencl/opencl_memory.hpp"

#include <bit>

#include "backends/opencl/opencl_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {

BufferPool::~BufferPool() {
  trim();
}

// Quarter steps between powers of two: at most 25% slack, and few distinct classes.
std::size_t BufferPool::size_class(std::size_t bytes) const {
  constexpr std::size_t kSmallest = 256;
  std::size_t c = kSmallest;
  if (bytes > kSmallest) {
    const std::size_t quarter = std::bit_floor(bytes) / 4;
    c = (bytes + quarter - 1) / quarter * quarter;
  }
  const std::size_t limit = device_.max_allocation_bytes;
  return limit && c > limit && bytes <= limit ? bytes : c;
}

DeviceMemory BufferPool::allocate(std::size_t bytes) {
  const std::size_t c = size_class(bytes);
  {
    std::lock_guard lock(mutex_);
    auto it = free_.find(c);
    if (it != free_.end() && !it->second.empty()) {
      cl_mem m = it->second.back();
      it->second.pop_back();
      pooled_bytes_ -= c;
      live_bytes_ += c;
      return {m, bytes};
    }
  }
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, c, nullptr, &err);
  if (is_out_of_memory(err)) {
    trim();
    m = clCreateBuffer(context_, CL_MEM_READ_WRITE, c, nullptr, &err);
  }
  if (is_out_of_memory(err)) {
    std::lock_guard lock(mutex_);
    throw OutOfMemory(error_name(err) + ": cannot allocate " + std::to_string(bytes) +
                      " bytes on " + device_.id() + " (" + device_.name + "), which has " +
                      std::to_string(device_.global_memory_bytes) + " bytes of which " +
                      std::to_string(live_bytes_) +
                      " are in use by Switchyard: free arrays or use a smaller problem");
  }
  check(err, "allocating " + std::to_string(c) + " bytes", device_);
  std::lock_guard lock(mutex_);
  live_bytes_ += c;
  return {m, bytes};
}

void BufferPool::free(DeviceMemory memory) {
  const std::size_t c = size_class(memory.bytes);
  std::lock_guard lock(mutex_);
  live_bytes_ -= c;
  pooled_bytes_ += c;
  free_[c].push_back(static_cast<cl_mem>(memory.handle));
}

void BufferPool::trim() {
  std::lock_guard lock(mutex_);
  // Release is deferred by OpenCL until queued commands using the buffer finish.
  for (auto& [size, buffers] : free_)
    for (cl_mem m : buffers) clReleaseMemObject(m);
  free_.clear();
  pooled_bytes_ = 0;
}

}  // namespace switchyard::opencl

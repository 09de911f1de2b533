#include "backends/cuda/cuda_device.hpp"

#include "backends/cuda/cuda_blas.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_kernel.hpp"
#include "backends/cuda/cuda_library.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

// The executable as the type this device prepared, or a clear error for one prepared elsewhere.
template <class Program>
const Program& program_for(Executable& exe, const Device& device) {
  const auto* program = dynamic_cast<const Program*>(&exe);
  if (!program || &program->device() != &device)
    throw ValueError("launch on " + device.where() +
                     " of an executable prepared for another device: prepare it on this one");
  return *program;
}

std::string megabytes(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

Device::Device(DeviceInfo info, std::shared_ptr<const PrimaryContext> context)
    : switchyard::Device(std::move(info)),
      context_(std::move(context)),
      pool_(
          [where = context_->where()](std::size_t bytes) -> MemoryPool::Block {
            CUdeviceptr block = 0;
            const CUresult result = driver().cuMemAlloc(&block, bytes);
            if (result == CUDA_ERROR_OUT_OF_MEMORY) return 0;
            check(result, "cuMemAlloc", where);
            return block;
          },
          // Errors are ignored: a sticky error from an earlier kernel was reported there, and
          // this also runs while the device is torn down.
          [](MemoryPool::Block block) { driver().cuMemFree(block); }),
      staging_(context_->where()) {
  ContextScope scope(*context_);
  // Non-blocking: never implicitly ordered after work other code queues on the legacy default
  // stream. All of this device's own work is ordered by this one stream.
  check(driver().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate", where());
}

// Errors are ignored throughout: at process exit the driver may already be shutting down.
Device::~Device() {
  if (driver().cuCtxPushCurrent(context_->get()) != CUDA_SUCCESS) return;
  driver().cuStreamSynchronize(stream_);
  blas_.reset();
  pool_.trim();
  staging_.release();
  driver().cuStreamDestroy(stream_);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

cublasHandle_t Device::blas() {
  std::call_once(blas_created_, [this] { blas_ = std::make_unique<BlasHandle>(stream_, where()); });
  return blas_->get();
}

DeviceMemory Device::do_allocate(std::size_t bytes) {
  ContextScope scope(*context_);
  if (const MemoryPool::Block block = pool_.allocate(bytes))
    return {reinterpret_cast<void*>(block), bytes};
  std::size_t free_bytes = 0, total_bytes = 0;
  driver().cuMemGetInfo(&free_bytes, &total_bytes);
  throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes on " + where() +
                    ": CUDA_ERROR_OUT_OF_MEMORY even after releasing pooled memory; the device "
                    "has " +
                    megabytes(free_bytes) + " free of " + megabytes(total_bytes) +
                    ". Free arrays on this device or use a smaller problem");
}

void Device::do_free(DeviceMemory memory) {
  pool_.free(address(memory), memory.bytes);
}

void Device::do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                               std::size_t bytes) {
  ContextScope scope(*context_);
  staging_.to_device(address(dst, dst_offset), src, bytes, stream_);
}

void Device::do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                             std::size_t bytes) {
  ContextScope scope(*context_);
  staging_.to_host(dst, address(src, src_offset), bytes, stream_);
}

void Device::do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                            std::size_t src_offset, std::size_t bytes) {
  ContextScope scope(*context_);
  check(driver().cuMemcpyDtoDAsync(address(dst, dst_offset), address(src, src_offset), bytes,
                                   stream_),
        "cuMemcpyDtoDAsync", where());
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize", where());
}

std::shared_ptr<Executable> Device::do_prepare(const ir::Kernel& kernel) {
  ContextScope scope(*context_);
  return std::make_shared<KernelProgram>(kernel, *this);
}

std::shared_ptr<Executable> Device::do_prepare_library(const LibraryOp& op) {
  return prepare_library(*this, op);
}

void Device::do_launch(Executable& exe, const LaunchArgs& args) {
  ContextScope scope(*context_);
  program_for<KernelProgram>(exe, *this).launch(*this, args);
}

void Device::do_launch_library(Executable& exe, const LibraryArgs& args) {
  ContextScope scope(*context_);
  routine_on<Device>(exe, *this).launch(args);
}

void Device::do_synchronize() {
  ContextScope scope(*context_);
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize", where());
}

}  // namespace switchyard::cuda

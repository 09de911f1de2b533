#include "backends/cuda/cuda_driver.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cuda/cuda_blas.hpp"
#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_program.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

// A launch's arguments as cuLaunchKernel takes them: the address of each one's bytes. Each value
// gets its own 8-byte-aligned slot (the packed values may sit at any offset); memory is passed as
// its device address.
class KernelParams {
 public:
  explicit KernelParams(const LaunchArguments& args) {
    std::size_t words = 0;
    for (const LaunchArgument& a : args.list) words += a.memory ? 1 : words_for(a.size);
    words_.resize(words);  // never grows again: the pointers below stay valid
    pointers_.reserve(args.list.size());
    std::uint64_t* at = words_.data();
    for (const LaunchArgument& a : args.list) {
      pointers_.push_back(at);
      if (a.memory) {
        *at++ = address(a.allocation);
      } else {
        std::memcpy(at, args.values.data() + a.offset, a.size);
        at += words_for(a.size);
      }
    }
  }
  void** get() { return pointers_.data(); }

 private:
  static std::size_t words_for(std::size_t bytes) { return (bytes + 7) / 8; }

  std::vector<std::uint64_t> words_;
  std::vector<void*> pointers_;
};

}  // namespace

const Program& Driver::program_of(const Module& module) const {
  const auto* program = dynamic_cast<const Program*>(&module);
  if (!program || &program->context() != context_.get())
    throw ValueError("launch on " + where() +
                     " of a program built for another device: prepare it on this one");
  return *program;
}

Driver::Driver(DeviceInfo info, std::shared_ptr<const PrimaryContext> context)
    : info_(std::move(info)), context_(std::move(context)), staging_(context_->where()) {
  const ContextScope scope(*context_);
  // Non-blocking: never implicitly ordered after work other code queues on the legacy default
  // stream. All of this device's own work is ordered by this one stream.
  check(driver().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate", where());
}

// Errors are ignored throughout: at process exit the driver may already be shutting down.
// CompiledDevice has released its pooled memory by now.
Driver::~Driver() {
  if (driver().cuCtxPushCurrent(context_->get()) != CUDA_SUCCESS) return;
  driver().cuStreamSynchronize(stream_);
  blas_.reset();
  staging_.release();
  driver().cuStreamDestroy(stream_);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

cublasHandle_t Driver::blas() {
  std::call_once(blas_created_, [this] { blas_ = std::make_unique<BlasHandle>(stream_, where()); });
  return blas_->get();
}

// ---- memory

std::uint64_t Driver::allocate(std::size_t bytes) {
  const ContextScope scope(*context_);
  CUdeviceptr block = 0;
  const CUresult result = driver().cuMemAlloc(&block, bytes);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) return 0;
  check(result, "cuMemAlloc", where());
  return block;
}

// Errors are ignored: a sticky error from an earlier kernel was reported there, and this also
// runs while the device is torn down.
void Driver::release(std::uint64_t block) {
  if (driver().cuCtxPushCurrent(context_->get()) != CUDA_SUCCESS) return;
  driver().cuMemFree(block);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

std::optional<std::size_t> Driver::free_bytes() const {
  if (driver().cuCtxPushCurrent(context_->get()) != CUDA_SUCCESS) return std::nullopt;
  std::size_t free = 0, total = 0;
  const CUresult result = driver().cuMemGetInfo(&free, &total);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
  if (result != CUDA_SUCCESS) return std::nullopt;
  return free;
}

void Driver::copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                            std::size_t bytes) {
  const ContextScope scope(*context_);
  staging_.to_device(address(dst, dst_offset), src, bytes, stream_);
}

void Driver::copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset, std::size_t bytes) {
  const ContextScope scope(*context_);
  staging_.to_host(dst, address(src, src_offset), bytes, stream_);
}

void Driver::copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                         std::size_t src_offset, std::size_t bytes) {
  const ContextScope scope(*context_);
  check(driver().cuMemcpyDtoDAsync(address(dst, dst_offset), address(src, src_offset), bytes,
                                   stream_),
        "cuMemcpyDtoDAsync", where());
  // The interface promises the copy is done on return.
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize", where());
}

// ---- code

codegen::Target Driver::target_for(const ir::Kernel&) const {
  codegen::Target t;
  t.dialect = codegen::Dialect::Cuda;
  t.fp64 = true;
  t.vector_width = 1;
  t.local_size = kBlock;
  t.blocked = false;  // neighbouring threads read neighbouring elements (coalesced)
  return t;
}

// Enough blocks to fill the device at the entry's occupancy; map threads stride over the
// elements, so one wave covers any size.
std::int64_t Driver::max_groups(const Module& module, std::string_view entry) const {
  const Program::Entry* e = program_of(module).find(entry);
  return e ? e->full_grid : std::max(info_.compute_units, 1);
}

std::string Driver::identity() const {
  return build_identity(info_.name, compute_capability());
}

std::string Driver::versions() const {
  return build_versions(info_.driver_version);
}

std::string Driver::build_options() const {
  return compile_target(compute_capability()).option();
}

std::vector<std::byte> Driver::build(const std::string& source, std::span<const std::string_view>) {
  return compile(source, compile_target(compute_capability()));
}

std::unique_ptr<Module> Driver::load(std::span<const std::byte> binary,
                                     std::span<const std::string_view> entries) {
  return Program::load(binary, entries, context_, kBlock);
}

void Driver::launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
                    const LaunchArguments& args) {
  const Program::Entry* e = program_of(module).find(entry);
  if (!e)
    throw ValueError("launch of " + std::string(entry) + " on " + where() +
                     ": the program was not built for it here");
  if (groups <= 0) return;
  KernelParams params(args);
  const ContextScope scope(*context_);
  // Every launch passes here: the message is built only when the call fails.
  const CUresult result = driver().cuLaunchKernel(e->function, static_cast<unsigned>(groups), 1, 1,
                                                  static_cast<unsigned>(local_size), 1, 1, 0,
                                                  stream_, params.get(), nullptr);
  if (result != CUDA_SUCCESS) check(result, "cuLaunchKernel " + std::string(entry), where());
}

void Driver::synchronize() {
  const ContextScope scope(*context_);
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize", where());
}

}  // namespace switchyard::cuda

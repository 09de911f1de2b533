#include "backends/cuda/cuda_driver.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "backends/cuda/cuda_blas.hpp"
#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "core/log.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

// A program loaded on the GPU: its module and, for each entry point, the function and the grid
// that fills the device.
class Program final : public Module {
 public:
  struct Entry {
    CUfunction function = nullptr;
    std::int64_t full_grid = 1;  // blocks of kBlock threads that fill the device at full occupancy
  };

  Program(CUmodule module, std::shared_ptr<const PrimaryContext> context)
      : module(module, {std::move(context)}) {}

  const Entry* find(std::string_view entry) const {
    const auto found = entries.find(entry);
    return found == entries.end() ? nullptr : &found->second;
  }
  const PrimaryContext& context() const { return *module.get_deleter().context; }

  // Unloads the module in the context it was loaded into, keeping that context alive until then
  // (programs may outlive their device in the runtime's caches).
  struct Unloader {
    std::shared_ptr<const PrimaryContext> context;
    // Errors are ignored: at process exit the driver may already be shutting down.
    void operator()(CUmodule m) const {
      if (const QuietContextScope scope(*context); scope) driver().cuModuleUnload(m);
    }
  };
  const std::unique_ptr<CUmod_st, Unloader> module;
  std::map<std::string, Entry, std::less<>> entries;
};

// `module` as a program loaded into `context`, or ValueError.
const Program& program_of(const Module& module, const PrimaryContext& context) {
  const auto* program = dynamic_cast<const Program*>(&module);
  if (!program || &program->context() != &context)
    throw ValueError("launch on " + context.where() +
                     " of a program built for another device: prepare it on this one");
  return *program;
}

// What NVRTC makes: an ELF CUBIN, or PTX text that cuModuleLoadData reads up to its NUL.
bool is_whole_image(std::span<const std::byte> image) {
  constexpr unsigned char kElf[] = {0x7f, 'E', 'L', 'F'};
  if (image.size() > sizeof kElf && std::memcmp(image.data(), kElf, sizeof kElf) == 0) return true;
  return !image.empty() && image.back() == std::byte{0};
}

// The driver's answers for an image that is not a program for this GPU: it is rebuilt from source.
bool is_rejection(CUresult result) {
  return result == CUDA_ERROR_INVALID_IMAGE || result == CUDA_ERROR_INVALID_PTX ||
         result == CUDA_ERROR_NO_BINARY_FOR_GPU;
}

// cuLaunchKernel takes the address of each argument's bytes: the packed values in place (each
// aligned for its type), and memory as its allocation's handle, which holds the device address.
// The driver only reads through them.
std::vector<void*> kernel_params(const LaunchArguments& args) {
  std::vector<void*> params;
  params.reserve(args.list.size());
  for (const LaunchArgument& a : args.list)
    params.push_back(a.memory ? static_cast<void*>(const_cast<void**>(&a.allocation.handle))
                              : static_cast<void*>(const_cast<std::byte*>(&args.values[a.offset])));
  return params;
}

}  // namespace

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
  const QuietContextScope scope(*context_);
  if (!scope) return;
  driver().cuStreamSynchronize(stream_);
  blas_.reset();
  staging_.release();
  driver().cuStreamDestroy(stream_);
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
  if (const QuietContextScope scope(*context_); scope) driver().cuMemFree(block);
}

std::optional<std::size_t> Driver::free_bytes() const {
  const QuietContextScope scope(*context_);
  std::size_t free = 0, total = 0;
  if (!scope || driver().cuMemGetInfo(&free, &total) != CUDA_SUCCESS) return std::nullopt;
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
  const Program::Entry* e = program_of(module, *context_).find(entry);
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

// Null when the driver rejects the image (damaged, or for another GPU) or it lacks an entry;
// other failures throw DeviceError.
std::unique_ptr<Module> Driver::load(std::span<const std::byte> binary,
                                     std::span<const std::string_view> entries) {
  if (!is_whole_image(binary)) return nullptr;
  const ContextScope scope(*context_);
  CUmodule module = nullptr;
  const CUresult loaded = driver().cuModuleLoadData(&module, binary.data());
  if (is_rejection(loaded)) {
    log(LogLevel::Debug, "cuda: " + where() + " rejected a program image: " + describe(loaded));
    return nullptr;
  }
  check(loaded, "cuModuleLoadData", where());
  auto program = std::make_unique<Program>(module, context_);
  for (std::string_view name : entries) {
    Program::Entry e;
    const CUresult found =
        driver().cuModuleGetFunction(&e.function, module, std::string(name).c_str());
    if (found == CUDA_ERROR_NOT_FOUND) return nullptr;  // another program's image
    check(found, "cuModuleGetFunction", where());
    int full_grid = 0, block = 0;
    check(driver().cuOccupancyMaxPotentialBlockSize(&full_grid, &block, e.function, nullptr, 0,
                                                    kBlock),
          "cuOccupancyMaxPotentialBlockSize", where());
    e.full_grid = std::max(full_grid, 1);
    program->entries.emplace(name, e);
  }
  return program;
}

void Driver::launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
                    const LaunchArguments& args) {
  const Program::Entry* e = program_of(module, *context_).find(entry);
  if (!e)
    throw ValueError("launch of " + std::string(entry) + " on " + where() +
                     ": the program was not built for it here");
  if (groups <= 0) return;
  std::vector<void*> params = kernel_params(args);
  const ContextScope scope(*context_);
  // Every launch passes here: the message is built only when the call fails.
  const CUresult result = driver().cuLaunchKernel(e->function, static_cast<unsigned>(groups), 1, 1,
                                                  static_cast<unsigned>(local_size), 1, 1, 0,
                                                  stream_, params.data(), nullptr);
  if (result != CUDA_SUCCESS) check(result, "cuLaunchKernel " + std::string(entry), where());
}

void Driver::synchronize() {
  const ContextScope scope(*context_);
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize", where());
}

}  // namespace switchyard::cuda

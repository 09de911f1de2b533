#include "backends/compiled_device.hpp"

#include <optional>
#include <type_traits>
#include <vector>

#include "backends/kernel_arguments.hpp"
#include "backends/scratch.hpp"
#include "codegen/launch_plan.hpp"
#include "codegen/library_kernels.hpp"
#include "core/kernel_cache.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

// A Kernel IR program built and loaded on one device.
class CompiledKernel final : public Executable {
 public:
  CompiledKernel(ir::Kernel kernel, codegen::Target target, std::unique_ptr<Module> module)
      : kernel(std::move(kernel)), target(target), module(std::move(module)) {}
  const ir::Kernel kernel;
  const codegen::Target target;
  const std::unique_ptr<Module> module;
};

// A library op run by kernels codegen/library_kernels.hpp renders, built and loaded on one device.
class CompiledLibraryKernels final : public Executable {
 public:
  CompiledLibraryKernels(const LibraryOp& op, codegen::Target target,
                         std::unique_ptr<Module> module)
      : op(op), target(target), module(std::move(module)) {}
  const LibraryOp op;
  const codegen::Target target;
  const std::unique_ptr<Module> module;
};

std::vector<std::string_view> entries_of(const ir::Kernel& kernel) {
  if (kernel.has_reduction)
    return {codegen::kReducePartialEntry, codegen::kReduceFinalEntry, codegen::kReduceRowsEntry};
  return {codegen::kMapEntry};
}

// The entry whose launch geometry the plan follows: the map, or a reduction's partial pass.
std::string_view leading_entry(const ir::Kernel& kernel) {
  return kernel.has_reduction ? codegen::kReducePartialEntry : codegen::kMapEntry;
}

// Appends a launch's arguments as the driver takes them (a Packer for pack_arguments).
class Packer {
 public:
  explicit Packer(LaunchArguments& to) : to_(to) {}

  void memory(const DeviceMemory& m) { to_.memory(m); }
  void index(std::int64_t v) { to_.value(v); }
  void rank(int r) { to_.value(static_cast<std::int32_t>(r)); }
  void dims(const Dims& d) {
    std::int64_t v[kMaxRank] = {};
    for (int i = 0; i < d.size(); ++i) v[i] = d[i];
    to_.value(v);
  }
  void scalar(DType to, const ScalarValue& s) {
    visit_dtype(to, [&](auto zero) {
      using T = decltype(zero);
      const T v = is_floating(s.dtype) ? static_cast<T>(s.f) : static_cast<T>(s.i);
      if constexpr (std::is_same_v<T, bool>)
        to_.value(static_cast<std::uint8_t>(v));
      else
        to_.value(v);
    });
  }

 private:
  LaunchArguments& to_;
};

// A library kernel's argument: an operand's memory (a, b, c, d), a scratch buffer, or a number.
void pack(const codegen::LibraryArg& arg, const LibraryArgs& args,
          const std::vector<DeviceMemory>& scratch, Packer& to) {
  using Kind = codegen::LibraryArg::Kind;
  switch (arg.kind) {
    case Kind::A:
      return to.memory(args.a.memory);
    case Kind::B:
      return to.memory(args.b.memory);
    case Kind::C:
      return to.memory(args.c.memory);
    case Kind::D:
      return to.memory(args.d.memory);
    case Kind::Scratch:
      return to.memory(scratch[static_cast<std::size_t>(arg.value)]);
    case Kind::Number:
      return to.index(arg.value);
  }
}

}  // namespace

std::unique_ptr<Module> cached_module(Driver& driver, const std::string& source,
                                      std::span<const std::string_view> entries,
                                      const DeviceInfo& info) {
  const std::string options = driver.build_options();
  const auto key =
      KernelCacheKey::for_source(source, driver.identity(), driver.versions(), options);
  const std::vector<std::byte> binary =
      KernelCache::instance().get_or_build(key, [&] { return driver.build(source, entries); });
  if (std::unique_ptr<Module> module = driver.load(binary, entries)) return module;
  // The stored binary is another driver's or damaged: build afresh (the cache's next write
  // replaces it when the key is built again).
  if (std::unique_ptr<Module> module = driver.load(driver.build(source, entries), entries))
    return module;
  throw DeviceError("the driver of " + info.id() + " (" + info.name +
                    ") rejected a program it had just built");
}

std::shared_ptr<LibraryRoutine<Device>> Driver::prepare_library(const LibraryOp&, Device&) {
  return nullptr;
}

namespace {
[[noreturn]] void no_graphs() {
  throw ValueError("launch graphs: expected a driver whose supports_graphs() is true");
}
}  // namespace

void Driver::begin_graph() {
  no_graphs();
}
std::unique_ptr<LaunchGraph> Driver::end_graph() {
  no_graphs();
}
void Driver::launch_graph(LaunchGraph&) {
  no_graphs();
}

CompiledDevice::CompiledDevice(DeviceInfo info, std::unique_ptr<Driver> driver)
    : Device(std::move(info)),
      driver_(std::move(driver)),
      pool_([this](std::size_t bytes) { return driver_->allocate(bytes); },
            [this](MemoryPool::Block block) { driver_->release(block); },
            {.largest = this->info().max_allocation_bytes}) {}

CompiledDevice::~CompiledDevice() {
  try {
    driver_->synchronize();
  } catch (const Error&) {  // a lost device: nothing left to wait for
  }
}

DeviceMemory CompiledDevice::do_allocate(std::size_t bytes) {
  if (const MemoryPool::Block block = pool_.allocate(bytes))
    return {reinterpret_cast<void*>(block), bytes};
  const std::optional<std::size_t> free_bytes = driver_->free_bytes();
  throw OutOfMemory(driver_->refusal_name() + ": cannot allocate " + std::to_string(bytes) +
                    " bytes on " + info().id() + " (" + info().name + "), which has " +
                    std::to_string(info().global_memory_bytes) + " bytes of which " +
                    std::to_string(pool_.in_use_bytes()) + " are in use by Switchyard" +
                    (free_bytes ? " and " + std::to_string(*free_bytes) + " are free" : "") +
                    ", even after releasing pooled memory: free arrays or use a smaller problem");
}

void CompiledDevice::do_free(DeviceMemory memory) {
  pool_.free(reinterpret_cast<MemoryPool::Block>(memory.handle), memory.bytes);
}

void CompiledDevice::do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                                       std::size_t bytes) {
  driver_->copy_from_host(dst, dst_offset, src, bytes);
}

void CompiledDevice::do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                                     std::size_t bytes) {
  driver_->copy_to_host(dst, src, src_offset, bytes);
}

void CompiledDevice::do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                                    std::size_t src_offset, std::size_t bytes) {
  driver_->copy_within(dst, dst_offset, src, src_offset, bytes);
}

std::shared_ptr<Executable> CompiledDevice::do_prepare(const ir::Kernel& kernel) {
  const codegen::Target target = driver_->target_for(kernel);
  const std::string source = codegen::render(kernel, target);
  const std::vector<std::string_view> entries = entries_of(kernel);
  return std::make_shared<CompiledKernel>(kernel, target,
                                          cached_module(*driver_, source, entries, info()));
}

void CompiledDevice::do_launch(Executable& exe, const LaunchArgs& args) {
  auto* compiled = dynamic_cast<CompiledKernel*>(&exe);
  if (!compiled)
    throw ValueError("executable launched on " + info().id() +
                     " was not prepared by it: prepare it on the device that runs it");
  check_launch_counts(compiled->kernel, args, info());
  const std::int64_t max_groups =
      driver_->max_groups(*compiled->module, leading_entry(compiled->kernel));
  const codegen::KernelPlan plan =
      codegen::plan_kernel(compiled->kernel, args.shape, compiled->target, max_groups);
  const Scratch scratch(*this, plan.scratch_bytes);
  for (const codegen::KernelLaunch& l : plan.launches) {
    LaunchArguments packed;
    Packer packer(packed);
    pack_arguments(l, compiled->kernel, args, scratch.memory(), packer);
    driver_->launch(*compiled->module, l.entry, l.groups, compiled->target.local_size, packed);
  }
}

std::shared_ptr<Executable> CompiledDevice::do_prepare_library(const LibraryOp& op) {
  if (!runs(op.kind))
    throw ValueError(info().id() +
                     " has no routine for this library op: the scheduler places it "
                     "on a device that has one");
  if (std::shared_ptr<Executable> vendor = driver_->prepare_library(op, *this)) return vendor;
  // Library kernels are scalar code at the device's work-group size.
  codegen::Target target = driver_->target_for(ir::Kernel{});
  target.vector_width = 1;
  const std::string source = codegen::render_library(op, target);
  std::vector<std::string> names = codegen::library_entries(op);
  const std::vector<std::string_view> entries(names.begin(), names.end());
  return std::make_shared<CompiledLibraryKernels>(op, target,
                                                  cached_module(*driver_, source, entries, info()));
}

void CompiledDevice::do_launch_library(Executable& exe, const LibraryArgs& args) {
  auto* kernels = dynamic_cast<CompiledLibraryKernels*>(&exe);
  if (!kernels) return routine_on<Device>(exe, *this).launch(args);
  const codegen::LibraryPlan plan = codegen::plan_library(kernels->op, args, kernels->target);
  const Scratch scratch(*this, plan.scratch_bytes);
  for (const codegen::LibraryLaunch& l : plan.launches) {
    LaunchArguments packed;
    Packer packer(packed);
    for (const codegen::LibraryArg& arg : l.args) pack(arg, args, scratch.memory(), packer);
    driver_->launch(*kernels->module, l.entry, l.groups, kernels->target.local_size, packed);
  }
}

void CompiledDevice::do_synchronize() {
  driver_->synchronize();
}

bool CompiledDevice::do_supports_graphs() const {
  return driver_->supports_graphs();
}

Driver& CompiledDevice::graph_driver() {
  if (!driver_->supports_graphs())
    throw ValueError("launch graphs on " + info().id() + " (" + info().name +
                     "): expected a device whose supports_graphs() is true");
  return *driver_;
}

void CompiledDevice::do_begin_graph() {
  graph_driver().begin_graph();
}

std::unique_ptr<LaunchGraph> CompiledDevice::do_end_graph() {
  return graph_driver().end_graph();
}

void CompiledDevice::do_launch_graph(LaunchGraph& graph) {
  graph_driver().launch_graph(graph);
}

}  // namespace switchyard

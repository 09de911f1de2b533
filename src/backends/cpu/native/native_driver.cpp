#include "backends/cpu/native/native_driver.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>

#include "core/host_info.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu::native {
namespace {

using Entry = void (*)(const void* block, long long item, long long items);

thread_local bool single_thread = false;

std::byte* bytes_of(DeviceMemory m) {
  return static_cast<std::byte*>(m.handle);
}

// A loaded shared object and its entry points.
class Library final : public Module {
 public:
  explicit Library(void* handle) : handle_(handle) {}
  ~Library() override { ::dlclose(handle_); }
  std::map<std::string, Entry, std::less<>> entries;

 private:
  void* handle_;
};

}  // namespace

Driver::SingleThread::SingleThread() : was_(single_thread) {
  single_thread = true;
}
Driver::SingleThread::~SingleThread() {
  single_thread = was_;
}

Driver::Driver(std::shared_ptr<const Compiler> compiler) : compiler_(std::move(compiler)) {}

// Memory of its own only for CompiledDevice's contract: the CPU device launches on its own
// host buffers.
std::uint64_t Driver::allocate(std::size_t bytes) {
  return reinterpret_cast<std::uint64_t>(
      ::operator new (std::max<std::size_t>(bytes, 1), std::align_val_t{64}, std::nothrow));
}
void Driver::release(std::uint64_t block) {
  ::operator delete (reinterpret_cast<void*>(block), std::align_val_t{64});
}
void Driver::copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                            std::size_t bytes) {
  std::memcpy(bytes_of(dst) + dst_offset, src, bytes);
}
void Driver::copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset, std::size_t bytes) {
  std::memcpy(dst, bytes_of(src) + src_offset, bytes);
}
void Driver::copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                         std::size_t src_offset, std::size_t bytes) {
  std::memmove(bytes_of(dst) + dst_offset, bytes_of(src) + src_offset, bytes);
}

codegen::Target Driver::target_for(const ir::Kernel&) const {
  // An item is a group (codegen.hpp), each a contiguous range (blocked).
  return {.dialect = codegen::Dialect::C,
          .fp64 = true,
          .vector_width = 1,
          .local_size = 1,
          .blocked = true};
}

std::int64_t Driver::max_groups(const Module&, std::string_view) const {
  if (single_thread) return 1;
  return 4 * static_cast<std::int64_t>(tbb::this_task_arena::max_concurrency());
}

std::string Driver::identity() const {
  return "native C on " + host_info().cpu_model;
}

std::vector<std::byte> Driver::build(const std::string& source, std::span<const std::string_view>) {
  return compiler_->compile(source);
}

std::unique_ptr<Module> Driver::load(std::span<const std::byte> binary,
                                     std::span<const std::string_view> entries) {
  // dlopen reads a file, and takes a path it has loaded before for that library: each load gets
  // a name of its own, removed once mapped.
  static std::atomic<std::uint64_t> loads{0};
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("switchyard-native-" + std::to_string(::getpid()) + "-" + std::to_string(++loads) + ".so");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(binary.data()),
              static_cast<std::streamsize>(binary.size()));
    if (!out) return nullptr;
  }
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  if (!handle) return nullptr;
  auto library = std::make_unique<Library>(handle);
  for (const std::string_view name : entries) {
    auto* f = reinterpret_cast<Entry>(::dlsym(handle, std::string(name).c_str()));
    if (!f) return nullptr;
    library->entries.emplace(name, f);
  }
  return library;
}

void Driver::launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
                    const LaunchArguments& args) {
  auto* library = dynamic_cast<Library*>(&module);
  const auto found = library ? library->entries.find(entry) : decltype(library->entries.end()){};
  if (!library || found == library->entries.end())
    throw ValueError("launch of " + std::string(entry) +
                     " on the CPU's native code: the program was not built for it here");
  const long long items = groups * local_size;
  if (items <= 0) return;
  const std::vector<std::byte> block =
      args.block([](const DeviceMemory& m) { return reinterpret_cast<std::uint64_t>(m.handle); });
  const Entry run = found->second;
  if (groups == 1) {
    for (long long i = 0; i < items; ++i) run(block.data(), i, items);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<long long>(0, items, 1), [&](const auto& r) {
    for (long long i = r.begin(); i < r.end(); ++i) run(block.data(), i, items);
  });
}

}  // namespace switchyard::cpu::native

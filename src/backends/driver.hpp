// The driver interface: the few calls a backend that runs generated code makes of its vendor's
// API. Everything above them lives once, in CompiledDevice (compiled_device.hpp): the memory
// pool and its one out-of-memory retry, the kernel cache path (memory → disk → build → load)
// under one key convention, launch plans from codegen, argument packing and scratch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "backends/library_routine.hpp"
#include "codegen/codegen.hpp"

namespace switchyard {

// A built program loaded on one device, with its entry points.
class Module {
 public:
  virtual ~Module() = default;
};

// One launch's arguments in the ABI's order (codegen.hpp): memory by its allocation, every
// other argument by its bytes as the kernel takes it (index int64, rank int32, sy_dims as eight
// int64, a scalar in its dtype, bool as one byte), each at an offset aligned for its type (so a
// driver may hand the kernel a pointer to them in place).
struct LaunchArgument {
  bool memory = false;
  DeviceMemory allocation;             // memory
  std::uint32_t offset = 0, size = 0;  // a value: bytes [offset, offset + size) of `values`
};
struct LaunchArguments {
  std::vector<LaunchArgument> list;
  std::vector<std::byte> values;

  void memory(const DeviceMemory& m) { list.push_back({.memory = true, .allocation = m}); }
  template <class T>
  void value(const T& v) {
    const auto at =
        static_cast<std::uint32_t>((values.size() + alignof(T) - 1) / alignof(T) * alignof(T));
    values.resize(at + sizeof(T));
    std::memcpy(values.data() + at, &v, sizeof(T));
    list.push_back({.allocation = {}, .offset = at, .size = static_cast<std::uint32_t>(sizeof(T))});
  }
  // The arguments as one block, as the C and GLSL dialects read them (codegen.hpp): each at the
  // next offset aligned to its own size (std430's rule), memory as the 8-byte address that
  // `address_of` gives its allocation (0 for an operand without one).
  template <class AddressOf>
  std::vector<std::byte> block(AddressOf address_of) const {
    std::vector<std::byte> out;
    for (const LaunchArgument& a : list) {
      const std::size_t size = a.memory ? 8 : a.size, align = std::min<std::size_t>(size, 8);
      const std::size_t at = (out.size() + align - 1) / align * align;
      out.resize(at + size);
      if (a.memory) {
        const std::uint64_t address = a.allocation ? address_of(a.allocation) : 0;
        std::memcpy(out.data() + at, &address, 8);
      } else {
        std::memcpy(out.data() + at, values.data() + a.offset, a.size);
      }
    }
    return out;
  }
};

class Driver {
 public:
  virtual ~Driver() = default;

  // ---- memory: a block the device has no room for is 0 (other failures throw DeviceError)
  virtual std::uint64_t allocate(std::size_t bytes) = 0;
  virtual void release(std::uint64_t block) = 0;
  // DeviceMemory::handle holds the block. The driver's name for "no room":
  virtual std::string refusal_name() const = 0;
  // Bytes the device has free now, where the driver can tell (for out-of-memory messages: other
  // processes may hold the rest).
  virtual std::optional<std::size_t> free_bytes() const { return std::nullopt; }
  // Copies return when the data has arrived (the source may be reused at once).
  virtual void copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                              std::size_t bytes) = 0;
  virtual void copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                            std::size_t bytes) = 0;
  virtual void copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                           std::size_t src_offset, std::size_t bytes) = 0;

  // ---- code: how the device wants it generated, and who builds it how (the cache key)
  virtual codegen::Target target_for(const ir::Kernel& kernel) const = 0;
  // Work-groups of `entry` (a loaded module's) that keep the device busy: the launch plan's cap.
  virtual std::int64_t max_groups(const Module& module, std::string_view entry) const = 0;
  virtual std::string identity() const = 0;  // the device: name, vendor, architecture
  virtual std::string versions() const = 0;  // driver and compiler
  virtual std::string build_options() const = 0;
  // Source → binary holding `entries`; a source that does not compile is a CompileError
  // carrying the compiler's log.
  virtual std::vector<std::byte> build(const std::string& source,
                                       std::span<const std::string_view> entries) = 0;
  // Binary → module; null when the driver rejects the binary (another driver's, a damaged one).
  virtual std::unique_ptr<Module> load(std::span<const std::byte> binary,
                                       std::span<const std::string_view> entries) = 0;
  // Queues `groups` work-groups of `local_size` items running `entry`; may return before they
  // run. Launches and copies on one device run in the order they were queued.
  virtual void launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
                      const LaunchArguments& args) = 0;
  virtual void synchronize() = 0;

  // ---- library ops, on a device whose DeviceInfo says it runs them: the vendor's routine for
  // `op` (BLAS, FFT, solvers) on `device`, the device over this driver (whose pool gives the
  // routine its scratch memory), or null for the kernels codegen/library_kernels.hpp renders,
  // which CompiledDevice builds and launches like any other.
  virtual std::shared_ptr<LibraryRoutine<Device>> prepare_library(const LibraryOp& op,
                                                                  Device& device);

  // ---- optional: launch graphs (backend.hpp's begin_graph/end_graph/launch_graph), where the
  // driver can record the launches it is given and replay them with one call. CompiledDevice
  // calls the other three only when supports_graphs() is true; their defaults throw ValueError.
  virtual bool supports_graphs() const { return false; }
  virtual void begin_graph();
  virtual std::unique_ptr<LaunchGraph> end_graph();
  virtual void launch_graph(LaunchGraph& graph);
};

}  // namespace switchyard

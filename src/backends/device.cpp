#include <string>

#include "backends/backend.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

void check_range(const DeviceInfo& info, const char* what, DeviceMemory m, std::size_t offset,
                 std::size_t bytes) {
  if (!m || offset > m.bytes || bytes > m.bytes - offset)
    throw ValueError(std::string(what) + " on " + info.id() + " reaches bytes [" +
                     std::to_string(offset) + ", " + std::to_string(offset + bytes) +
                     ") of an allocation of " + std::to_string(m.bytes) +
                     " bytes: expected a range inside the allocation");
}

}  // namespace

std::string_view name(DeviceKind k) {
  switch (k) {
    case DeviceKind::CPU:
      return "cpu";
    case DeviceKind::GPU:
      return "gpu";
    case DeviceKind::Accelerator:
      return "accelerator";
    case DeviceKind::Other:
      break;
  }
  return "other";
}

Needs Device::has() const {
  Needs n = 0;
  if (info_.library_ops)
    n |= kEveryRoutine & ~needs_routine(LibraryOp::Kind::Solver) &
         ~needs_routine(LibraryOp::Kind::Fft);
  if (info_.fft) n |= needs_routine(LibraryOp::Kind::Fft);
  if (info_.dense_solvers) n |= needs_routine(LibraryOp::Kind::Solver);
  if (info_.fp64) n |= kNeedsFloat64;
  return n;
}

DeviceMemory Device::allocate(std::size_t bytes) {
  if (info_.max_allocation_bytes && bytes > info_.max_allocation_bytes)
    throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes on " + info_.id() +
                      " (" + info_.name + "): its largest allocation is " +
                      std::to_string(info_.max_allocation_bytes) + " bytes");
  // Zero-byte arrays still get a distinct, valid allocation so every operand has memory.
  const DriverCall call;
  return do_allocate(bytes == 0 ? 1 : bytes);
}

void Device::copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                            std::size_t bytes) {
  if (bytes == 0) return;
  check_range(info_, "copy to device", dst, dst_offset, bytes);
  const DriverCall call;
  do_copy_from_host(dst, dst_offset, src, bytes);
}

void Device::copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset, std::size_t bytes) {
  if (bytes == 0) return;
  check_range(info_, "copy to host", src, src_offset, bytes);
  const DriverCall call;
  do_copy_to_host(dst, src, src_offset, bytes);
}

void Device::copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                         std::size_t src_offset, std::size_t bytes) {
  if (bytes == 0) return;
  check_range(info_, "device copy destination", dst, dst_offset, bytes);
  check_range(info_, "device copy source", src, src_offset, bytes);
  const DriverCall call;
  do_copy_within(dst, dst_offset, src, src_offset, bytes);
}

namespace {

[[noreturn]] void no_graphs(const DeviceInfo& info) {
  throw ValueError("launch graphs on " + info.id() + " (" + info.name +
                   "): expected a device whose supports_graphs() is true");
}

}  // namespace

void Device::do_begin_graph() {
  no_graphs(info_);
}
std::unique_ptr<LaunchGraph> Device::do_end_graph() {
  no_graphs(info_);
}
void Device::do_launch_graph(LaunchGraph&) {
  no_graphs(info_);
}

}  // namespace switchyard

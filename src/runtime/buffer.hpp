// A Buffer is the storage behind arrays: one block of bytes that may have a copy on the host and
// on any number of devices, each marked valid or stale.
//
// Invariants (guarded by mutex_): at least one copy is valid once the buffer has been written;
// a copy is only marked stale after another is confirmed valid, so a failed transfer or kernel
// never loses the data. Host-addressable devices (the CPU) use the host copy itself.
//
// Shared storage is memory that code outside Switchyard may read and write at any time: memory
// borrowed from its owner (NumPy, a DLPack producer, Array::borrow), or storage lent out by an
// export. Its owner's copy (the host, or the device memory it was borrowed on) is the only one
// trusted: other copies are refreshed from it for every kernel that reads them, and a write made
// elsewhere reaches it before the write returns.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "runtime/provenance.hpp"
#include "scheduler/workload.hpp"

namespace switchyard {

class Buffer {
 public:
  // Host memory owned by the buffer (from the host pool); contents uninitialised but valid.
  static std::shared_ptr<Buffer> allocate_host(std::size_t bytes);
  // Caller's memory used in place; `release` runs when the last array using it goes away.
  static std::shared_ptr<Buffer> borrow_host(void* data, std::size_t bytes,
                                             std::function<void()> release);
  // Storage no one has written yet: it lives nowhere, so the first kernel that writes part of it
  // places it wherever it runs, with nothing to move in (a join's result, written piece by piece).
  static std::shared_ptr<Buffer> allocate_unwritten(std::size_t bytes);
  // Memory on `device` only, to be written by a kernel there before it is read.
  static std::shared_ptr<Buffer> allocate_on(Device& device, std::size_t bytes);
  // Caller's memory on `device` (not host-addressable) used in place, valid there only; a host
  // copy is made only when read there. `release` runs when the last array using it goes away.
  static std::shared_ptr<Buffer> borrow_on(Device& device, DeviceMemory memory,
                                           std::function<void()> release);

  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  std::size_t bytes() const { return bytes_; }
  bool borrowed() const { return static_cast<bool>(release_); }
  bool shared() const { return borrowed() || lent_.load(std::memory_order_acquire) > 0; }
  // An export hands the copy on `owner` (null: the host copy) to code outside: the storage is
  // shared, with that copy as the owner's, until each export is given back (unlend).
  void lend(Device* owner);
  void unlend();

  // ---- pending work reading this storage. The lazy graph registers each pending node that
  // reads the storage (weakly: work no one needs is never computed); a write into the storage
  // takes them and computes them first, so each keeps the value it had when it was written.
  void add_pending_reader(std::weak_ptr<void> reader);
  // The registered readers still alive, removed from the buffer.
  std::vector<std::shared_ptr<void>> take_pending_readers();

  bool valid_on_host() const;
  // No copy holds data yet: reading it anywhere moves nothing (allocate_unwritten, allocate_on).
  bool unwritten() const;
  bool valid_on(const Device& device) const;
  // Where valid copies are, as the scheduler sees it (bit i of device_mask = devices[i]); one
  // lock for all of it, since this runs for every input of every kernel.
  scheduler::InputPlacement placement(std::span<Device* const> devices) const;
  // "host", "opencl:0", ...: where valid copies are now (for explain and tests).
  std::vector<std::string> valid_locations() const;

  // Host pointer to valid data, copying from a device first if the host copy is stale. The
  // caller's read of a kernel's result: noted where it is wanted, on the host.
  std::byte* host_data();
  // Work placed by the scheduler reads this storage and wants it on `where` (null: the host):
  // the kernel that wrote it learns where its results are wanted (result_destination.hpp).
  void note_wanted_on(const Device* where) const;
  // Memory on `device` holding valid data, copying there first if needed.
  DeviceMemory read_on(Device& device);
  // Memory on `device` that a kernel will overwrite whole: no copy in.
  DeviceMemory write_on(Device& device);
  // After a kernel or copy wrote the whole buffer on `device`: that copy alone is valid.
  void mark_written(const Device& device);
  // After the host copy was written (through host_data(), or by the owner of memory lent out):
  // it alone is valid.
  void mark_host_written();
  // After the owner of borrowed memory wrote it: that copy (host or device) alone is valid.
  void mark_borrowed_written();

  // ---- rent (scheduler::Rent): the time work reading this storage lost by running where the
  // storage is rather than on candidate `candidate`. Adds `lost_s` and returns the sum for that
  // candidate since the storage was last written (a charge for another candidate starts again).
  // Bookkeeping beside the data, not the data: const.
  double charge_rent(int candidate, double lost_s) const;

  // The kernel that last wrote this storage (explain of an array already computed); none since
  // a write from the host.
  void set_provenance(runtime::Provenance p);
  std::optional<runtime::Provenance> provenance() const;

 private:
  struct DeviceCopy {
    Device* device;
    DeviceMemory memory;
    bool valid;
    bool borrowed = false;  // the caller's memory: released by release_, never freed here
  };
  explicit Buffer(std::size_t bytes) : bytes_(bytes) {}
  std::byte* valid_host_data();         // host_data() for kernels' operands
  void ensure_host_allocated();         // mutex_ held
  DeviceCopy& copy_on(Device& device);  // mutex_ held; allocates if absent
  // mutex_ held. For shared storage: makes every copy but the owner's stale, after bringing the
  // owner's up to date from `written` (null: the host) when that is where a write went.
  void settle_shared(const Device* written);
  void refresh_host_from_owner();  // mutex_ held, shared storage owned by a device

  std::size_t bytes_;
  mutable std::mutex mutex_;
  std::byte* host_ = nullptr;
  bool host_valid_ = false;
  bool host_borrowed_ = false;     // host_ is the caller's memory, released by release_
  std::function<void()> release_;  // set for borrowed memory (host or device)
  std::vector<DeviceCopy> device_copies_;
  std::atomic<int> lent_{0};  // exports not yet given back
  Device* owner_ = nullptr;   // shared storage: the device holding the owner's copy, or null
  std::optional<runtime::Provenance> provenance_;
  mutable int rent_candidate_ = -1;  // charge_rent()
  mutable double rent_s_ = 0;

  std::mutex readers_mutex_;  // apart from mutex_, which transfers hold: building stays cheap
  std::vector<std::weak_ptr<void>> readers_;
  std::size_t readers_pruned_at_ = 16;  // dead readers are dropped when the list doubles
};

}  // namespace switchyard

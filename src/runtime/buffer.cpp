#include "runtime/buffer.hpp"

#include <algorithm>

#include "core/host_memory.hpp"
#include "runtime/recording.hpp"
#include "runtime/result_destination.hpp"

namespace switchyard {

std::shared_ptr<Buffer> Buffer::allocate_host(std::size_t bytes) {
  std::shared_ptr<Buffer> b(new Buffer(bytes));
  b->host_ = static_cast<std::byte*>(host_memory::allocate(bytes));
  b->host_valid_ = true;
  if (auto* recorder = runtime::Recorder::active()) recorder->note_created(b.get());
  return b;
}

std::shared_ptr<Buffer> Buffer::allocate_unwritten(std::size_t bytes) {
  std::shared_ptr<Buffer> b(new Buffer(bytes));
  if (auto* recorder = runtime::Recorder::active()) recorder->note_created(b.get());
  return b;
}

std::shared_ptr<Buffer> Buffer::borrow_host(void* data, std::size_t bytes,
                                            std::function<void()> release) {
  std::shared_ptr<Buffer> b(new Buffer(bytes));
  b->host_ = static_cast<std::byte*>(data);
  b->host_valid_ = true;
  b->host_borrowed_ = true;
  b->release_ = release ? std::move(release) : [] {};
  if (auto* recorder = runtime::Recorder::active()) recorder->note_created(b.get());
  return b;
}

std::shared_ptr<Buffer> Buffer::allocate_on(Device& device, std::size_t bytes) {
  if (device.info().host_addressable) return allocate_host(bytes);
  std::shared_ptr<Buffer> b(new Buffer(bytes));
  b->device_copies_.push_back({&device, device.allocate(bytes), false});
  return b;
}

std::shared_ptr<Buffer> Buffer::borrow_on(Device& device, DeviceMemory memory,
                                          std::function<void()> release) {
  std::shared_ptr<Buffer> b(new Buffer(memory.bytes));
  b->device_copies_.push_back({&device, memory, true, true});
  b->owner_ = &device;
  b->release_ = release ? std::move(release) : [] {};
  return b;
}

Buffer::~Buffer() {
  for (auto& c : device_copies_)
    if (!c.borrowed) c.device->free(c.memory);
  if (!host_borrowed_) host_memory::release(host_, bytes_);
  if (release_) release_();
}

bool Buffer::valid_on_host() const {
  std::lock_guard lock(mutex_);
  return host_valid_;
}

bool Buffer::unwritten() const {
  std::lock_guard lock(mutex_);
  return !host_valid_ && std::none_of(device_copies_.begin(), device_copies_.end(),
                                      [](const DeviceCopy& c) { return c.valid; });
}

bool Buffer::valid_on(const Device& device) const {
  if (device.info().host_addressable) return valid_on_host();
  std::lock_guard lock(mutex_);
  if (shared() && owner_ != &device) return false;  // refreshed from the owner's copy when read
  for (const auto& c : device_copies_)
    if (c.device == &device) return c.valid;
  return false;
}

void Buffer::lend(Device* owner) {
  std::lock_guard lock(mutex_);
  if (!borrowed() && lent_.load(std::memory_order_relaxed) == 0) owner_ = owner;
  lent_.fetch_add(1, std::memory_order_release);
}

void Buffer::unlend() {
  std::lock_guard lock(mutex_);
  lent_.fetch_sub(1, std::memory_order_release);
}

void Buffer::add_pending_reader(std::weak_ptr<void> reader) {
  std::lock_guard lock(readers_mutex_);
  if (readers_.size() >= readers_pruned_at_) {
    std::erase_if(readers_, [](const std::weak_ptr<void>& r) { return r.expired(); });
    readers_pruned_at_ = std::max<std::size_t>(16, 2 * readers_.size());
  }
  readers_.push_back(std::move(reader));
}

std::vector<std::shared_ptr<void>> Buffer::take_pending_readers() {
  std::vector<std::weak_ptr<void>> taken;
  {
    std::lock_guard lock(readers_mutex_);
    taken.swap(readers_);
    readers_pruned_at_ = 16;
  }
  std::vector<std::shared_ptr<void>> alive;
  for (auto& r : taken)
    if (auto held = r.lock()) alive.push_back(std::move(held));
  return alive;
}

scheduler::InputPlacement Buffer::placement(std::span<Device* const> devices) const {
  std::lock_guard lock(mutex_);
  scheduler::InputPlacement p{bytes_, host_valid_, 0};
  for (std::size_t i = 0; i < devices.size() && i < 32; ++i) {
    if (devices[i]->info().host_addressable) {
      if (host_valid_) p.device_mask |= 1u << i;
      continue;
    }
    if (shared() && owner_ != devices[i]) continue;
    for (const auto& c : device_copies_)
      if (c.device == devices[i] && c.valid) p.device_mask |= 1u << i;
  }
  return p;
}

std::vector<std::string> Buffer::valid_locations() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> where;
  if (host_valid_) where.emplace_back("host");
  for (const auto& c : device_copies_)
    if (c.valid) where.push_back(c.device->info().id());
  return where;
}

void Buffer::ensure_host_allocated() {
  if (!host_) host_ = static_cast<std::byte*>(host_memory::allocate(bytes_));
}

Buffer::DeviceCopy& Buffer::copy_on(Device& device) {
  for (auto& c : device_copies_)
    if (c.device == &device) return c;
  device_copies_.push_back({&device, device.allocate(bytes_), false});
  return device_copies_.back();
}

std::byte* Buffer::host_data() {
  // What the host reads inside a captured function, a replay would not read again.
  if (auto* recorder = runtime::Recorder::active()) recorder->check_host_read(*this);
  note_wanted_on(nullptr);
  return valid_host_data();
}

void Buffer::note_wanted_on(const Device* where) const {
  std::lock_guard lock(mutex_);
  if (provenance_)
    runtime::note_result_wanted(provenance_->signature, provenance_->elements, where);
}

std::byte* Buffer::valid_host_data() {
  std::lock_guard lock(mutex_);
  if (shared() && owner_) refresh_host_from_owner();
  if (!host_valid_) {
    for (auto& c : device_copies_) {
      if (!c.valid) continue;
      ensure_host_allocated();
      c.device->copy_to_host(host_, c.memory, 0, bytes_);
      host_valid_ = true;
      break;
    }
    ensure_host_allocated();  // never written anywhere: uninitialised host memory
  }
  return host_;
}

DeviceMemory Buffer::read_on(Device& device) {
  if (device.info().host_addressable) return {valid_host_data(), bytes_};
  std::lock_guard lock(mutex_);
  DeviceCopy& target = copy_on(device);
  if (shared() && owner_ != &device) {
    if (owner_) refresh_host_from_owner();
    target.valid = false;
  }
  if (target.valid) return target.memory;
  if (!host_valid_) {
    // Device-to-device moves go through the host: backends share no memory handles.
    for (auto& c : device_copies_) {
      if (!c.valid || &c == &target) continue;
      ensure_host_allocated();
      c.device->copy_to_host(host_, c.memory, 0, bytes_);
      host_valid_ = true;
      break;
    }
  }
  if (host_valid_) device.copy_from_host(target.memory, 0, host_, bytes_);
  target.valid = true;
  return target.memory;
}

DeviceMemory Buffer::write_on(Device& device) {
  if (device.info().host_addressable) {
    std::lock_guard lock(mutex_);
    ensure_host_allocated();
    return {host_, bytes_};
  }
  std::lock_guard lock(mutex_);
  return copy_on(device).memory;
}

void Buffer::mark_written(const Device& device) {
  if (device.info().host_addressable) return mark_host_written();
  std::lock_guard lock(mutex_);
  for (auto& c : device_copies_) c.valid = c.device == &device;
  host_valid_ = false;
  rent_candidate_ = -1;  // new data: what the old was read for says nothing about it
  if (shared()) settle_shared(&device);
}

void Buffer::mark_host_written() {
  std::lock_guard lock(mutex_);
  if (!host_) return;  // no host memory yet: nothing can have been written there
  for (auto& c : device_copies_) c.valid = false;
  host_valid_ = true;
  rent_candidate_ = -1;
  provenance_.reset();  // a kernel that wrote it sets its own after this
  if (shared()) settle_shared(nullptr);
}

double Buffer::charge_rent(int candidate, double lost_s) const {
  std::lock_guard lock(mutex_);
  if (candidate != rent_candidate_) rent_candidate_ = candidate, rent_s_ = 0;
  return rent_s_ += lost_s;
}

void Buffer::set_provenance(runtime::Provenance p) {
  std::lock_guard lock(mutex_);
  provenance_ = std::move(p);
}

std::optional<runtime::Provenance> Buffer::provenance() const {
  std::lock_guard lock(mutex_);
  return provenance_;
}

void Buffer::refresh_host_from_owner() {
  for (auto& c : device_copies_) {
    if (c.device != owner_) continue;
    ensure_host_allocated();
    c.device->copy_to_host(host_, c.memory, 0, bytes_);
    host_valid_ = true;
    return;
  }
}

void Buffer::settle_shared(const Device* written) {
  if (written != owner_) {
    if (written) {  // the valid copy is on `written`: to the host first
      for (auto& c : device_copies_)
        if (c.device == written) {
          ensure_host_allocated();
          c.device->copy_to_host(host_, c.memory, 0, bytes_);
        }
      host_valid_ = true;
    }
    if (owner_)
      for (auto& c : device_copies_)
        if (c.device == owner_) {
          owner_->copy_from_host(c.memory, 0, host_, bytes_);
          c.valid = true;
        }
  }
  for (auto& c : device_copies_) c.valid = c.device == owner_;
  host_valid_ = host_valid_ && (!owner_ || written == nullptr || written == owner_);
}

void Buffer::mark_borrowed_written() {
  {
    std::lock_guard lock(mutex_);
    for (auto& c : device_copies_) {
      if (!c.borrowed) continue;
      for (auto& other : device_copies_) other.valid = &other == &c;
      host_valid_ = false;
      return;
    }
  }
  mark_host_written();
}

}  // namespace switchyard

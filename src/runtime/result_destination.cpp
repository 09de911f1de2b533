#include "runtime/result_destination.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <optional>

#include "backends/registry.hpp"
#include "scheduler/workload.hpp"

namespace switchyard::runtime {
namespace {

// Each signature and size bucket holds a place and a count of the reads wanting it there, at most
// kCap: a read wanting it elsewhere takes one away, and the place changes when none is left. So a
// change of habit shows within a few runs, and a step whose result is read on the device every
// iteration and on the host now and then stays on the device.
constexpr int kCap = 4;

// Lock-free, since reads of every result update it and the decision path reads it for every
// kernel: a slot per key (key_of) holds the key's top 48 bits, the place (8 bits: 0 the host,
// i + 1 device i) and the count (8 bits; 0: an empty slot). A key that lands in a slot another
// holds takes it over and starts learning afresh.
constexpr std::size_t kSlots = 4096;
std::array<std::atomic<std::uint64_t>, kSlots> slots{};

// The work and its size bucket as one key.
std::uint64_t key_of(std::uint64_t signature, std::int64_t elements) {
  const auto bucket = static_cast<std::uint64_t>(scheduler::size_bucket(elements));
  return signature ^ (bucket + 1) * 0xc2b2ae3d27d4eb4full;
}
std::atomic<std::uint64_t>& slot_of(std::uint64_t key) {
  return slots[(key * 0x9e3779b97f4a7c15ull) >> 52];
}
std::uint64_t tag_of(std::uint64_t key) {
  return key & ~std::uint64_t{0xFFFF};
}
std::uint64_t held_by(std::uint64_t tag, std::uint64_t place, int count) {
  return tag | place << 8 | static_cast<std::uint64_t>(count);
}

// The place code of `where`: 0 for the host, i + 1 for device i of the registry's list, and
// nothing for a device the list does not hold (or beyond the 254 a code can name).
std::optional<std::uint64_t> place_of(const Device* where) {
  if (where == nullptr || where->info().host_addressable) return 0;
  const auto devices = Registry::instance().devices();
  const auto it = std::find(devices.begin(), devices.end(), where);
  const auto i = static_cast<std::uint64_t>(it - devices.begin());
  if (it == devices.end() || i >= 254) return std::nullopt;
  return i + 1;
}

thread_local bool pinned_reads = false;

}  // namespace

PinnedReads::PinnedReads(bool pinned) : outer_(pinned_reads) {
  pinned_reads = outer_ || pinned;
}
PinnedReads::~PinnedReads() {
  pinned_reads = outer_;
}

void note_result_wanted(std::uint64_t signature, std::int64_t elements, const Device* where) {
  if (pinned_reads) return;
  const std::optional<std::uint64_t> place = place_of(where);
  if (!place) return;
  const std::uint64_t key = key_of(signature, elements);
  std::atomic<std::uint64_t>& slot = slot_of(key);
  const std::uint64_t tag = tag_of(key);
  std::uint64_t held = slot.load(std::memory_order_relaxed);
  std::uint64_t next;
  do {
    const int count = static_cast<int>(held & 0xFF);
    const std::uint64_t was = held >> 8 & 0xFF;
    if ((held & ~std::uint64_t{0xFFFF}) != tag || count == 0)
      next = held_by(tag, *place, 1);
    else if (was == *place)
      next = held_by(tag, was, std::min(count + 1, kCap));
    else
      next = count > 1 ? held_by(tag, was, count - 1) : held_by(tag, *place, 1);
    if (next == held) return;  // the common case, a read where the reads already are
  } while (!slot.compare_exchange_weak(held, next, std::memory_order_relaxed));
}

int result_destination(std::uint64_t signature, std::int64_t elements) {
  const std::uint64_t key = key_of(signature, elements);
  const std::uint64_t held = slot_of(key).load(std::memory_order_relaxed);
  if ((held & 0xFF) == 0 || (held & ~std::uint64_t{0xFFFF}) != tag_of(key))
    return kDestinationUnknown;
  return static_cast<int>(held >> 8 & 0xFF) - 1;
}

}  // namespace switchyard::runtime

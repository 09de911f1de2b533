#include "runtime/result_destination.hpp"

#include <algorithm>
#include <array>
#include <atomic>

namespace switchyard::runtime {
namespace {

// A vote per read, kept within ±kCap so that a change of habit shows within a few runs: a step
// whose result is read on the device every iteration and on the host now and then stays on the
// device.
constexpr int kCap = 4;

// Lock-free, since the decision path reads it for every kernel whose inputs live on a device:
// a slot per signature hash holds the signature's top 48 bits beside its vote (offset by kCap).
// A signature that lands in a slot another holds takes it over and starts learning afresh.
constexpr std::size_t kSlots = 4096;
std::array<std::atomic<std::uint64_t>, kSlots> slots{};

std::atomic<std::uint64_t>& slot_of(std::uint64_t signature) {
  return slots[(signature * 0x9e3779b97f4a7c15ull) >> 52];
}
std::uint64_t tag_of(std::uint64_t signature) {
  return signature & ~std::uint64_t{0xFFFF};
}

thread_local bool pinned_reads = false;

}  // namespace

PinnedReads::PinnedReads(bool pinned) : outer_(pinned_reads) {
  pinned_reads = outer_ || pinned;
}
PinnedReads::~PinnedReads() {
  pinned_reads = outer_;
}

void note_result_read(std::uint64_t signature, bool on_host) {
  if (pinned_reads) return;
  std::atomic<std::uint64_t>& slot = slot_of(signature);
  const std::uint64_t tag = tag_of(signature);
  std::uint64_t held = slot.load(std::memory_order_relaxed);
  std::uint64_t next;
  do {
    const int vote = (held & ~std::uint64_t{0xFFFF}) == tag && held != 0
                         ? static_cast<int>(held & 0xFFFF) - kCap
                         : 0;
    next =
        tag | static_cast<std::uint64_t>(std::clamp(vote + (on_host ? 1 : -1), -kCap, kCap) + kCap);
  } while (!slot.compare_exchange_weak(held, next, std::memory_order_relaxed));
}

bool result_read_on_host(std::uint64_t signature) {
  const std::uint64_t held = slot_of(signature).load(std::memory_order_relaxed);
  return held != 0 && (held & ~std::uint64_t{0xFFFF}) == tag_of(signature) &&
         static_cast<int>(held & 0xFFFF) - kCap > 0;
}

}  // namespace switchyard::runtime

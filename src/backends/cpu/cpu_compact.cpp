// Compaction on the CPU: each block counts its mask, a prefix of the counts says where each
// block's kept elements start, and the blocks then write them in parallel, in order.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/library_data.hpp"
#include "backends/cpu/library_routines.hpp"

namespace switchyard::cpu {
namespace {

// Elements per block: big enough that a task's work outweighs its dispatch.
constexpr std::int64_t kBlock = 64 * 1024;

std::int64_t count_kept(const std::uint8_t* mask, std::int64_t n) {
  std::int64_t kept = 0;
  for (std::int64_t i = 0; i < n; ++i) kept += mask[i] != 0;
  return kept;
}

// Writes value(i) for each kept i of [begin, end), in order, from out[0] on. Without a branch:
// every element is written at the next free place, which only a kept one advances (a mask that
// follows the data mispredicted half the branches of `if (mask[i])`). It stops at the last kept
// element, so nothing lands past this range's share of `out`, which another block may be writing.
template <class Value, class Out>
void write_kept(const Value& value, const std::uint8_t* mask, std::int64_t begin, std::int64_t end,
                Out* out) {
  while (end > begin && !mask[end - 1]) --end;
  for (std::int64_t i = begin; i < end; ++i) {
    *out = value(i);
    out += mask[i] != 0;
  }
}

template <class Value, class Out>
std::int64_t compact(const Value& value, const std::uint8_t* mask, std::int64_t n, Out* out) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  if (n < parallel_threshold() || blocks < 2) {
    write_kept(value, mask, 0, n, out);
    return count_kept(mask, n);
  }
  std::vector<std::int64_t> starts(blocks + 1, 0);
  tbb::parallel_for(std::int64_t{0}, blocks, [&](std::int64_t b) {
    const std::int64_t begin = b * kBlock;
    starts[b + 1] = count_kept(mask + begin, std::min(kBlock, n - begin));
  });
  for (std::int64_t b = 0; b < blocks; ++b) starts[b + 1] += starts[b];
  tbb::parallel_for(std::int64_t{0}, blocks, [&](std::int64_t b) {
    const std::int64_t begin = b * kBlock;
    write_kept(value, mask, begin, std::min(begin + kBlock, n), out + starts[b]);
  });
  return starts[blocks];
}

}  // namespace

void CompactRoutine::launch(const LibraryArgs& args) {
  const auto* mask = data<const std::uint8_t>(args.b);
  std::int64_t& count = *data<std::int64_t>(args.d);
  if (args.length <= 0) {
    count = 0;
    return;
  }
  if (op().indices) {
    const auto position = [](std::int64_t i) { return i; };
    count = compact(position, mask, args.length, data<std::int64_t>(args.c));
    return;
  }
  visit_dtype(op().dtype, [&]<class T>(T) {
    const T* in = data<const T>(args.a);
    const auto element = [in](std::int64_t i) { return in[i]; };
    count = compact(element, mask, args.length, data<T>(args.c));
  });
}

}  // namespace switchyard::cpu

// Gather on the CPU: output rows (one per row of a and position) in parallel, each a copy of
// `inner` elements; elements move as raw words of their size, so one loop serves every dtype.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/library_data.hpp"
#include "backends/cpu/library_routines.hpp"

namespace switchyard::cpu {
namespace {

template <class Word>
void gather_words(const LibraryArgs& x) {
  const Word* in = data<const Word>(x.a);
  Word* out = data<Word>(x.c);
  const std::int64_t* positions = data<const std::int64_t>(x.b);
  const std::int64_t inner = x.inner, out_rows = x.rows * x.count;
  // Output row o is row o / count of a at position positions[o % count].
  auto copy_rows = [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t o = begin; o < end; ++o) {
      const std::int64_t r = o / x.count, p = positions[o % x.count];
      const Word* src = in + (r * x.length + p) * inner;
      if (inner == 1)
        out[o] = *src;
      else
        std::memcpy(out + o * inner, src, inner * sizeof(Word));
    }
  };
  if (out_rows * inner < parallel_threshold()) return copy_rows(0, out_rows);
  const std::int64_t grain = std::max<std::int64_t>(1, parallel_threshold() / inner);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, out_rows, grain),
                    [&](auto range) { copy_rows(range.begin(), range.end()); });
}

}  // namespace

void GatherRoutine::launch(const LibraryArgs& args) {
  if (args.rows <= 0 || args.count <= 0 || args.inner <= 0) return;
  switch (size_of(op().dtype)) {
    case 1:
      return gather_words<std::uint8_t>(args);
    case 4:
      return gather_words<std::uint32_t>(args);
    default:
      return gather_words<std::uint64_t>(args);
  }
}

}  // namespace switchyard::cpu

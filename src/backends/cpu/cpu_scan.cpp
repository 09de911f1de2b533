// Scans on the CPU. A row is scanned in groups of eight segments that run as independent chains
// (the loop is then bound by loads and stores, not by the latency of one add) and that a second
// pass, in L1, joins; float32 sums go four lanes at a time (scan_float_sums.hpp). Many rows go to
// threads whole. A long row alone is scanned tile by tile: the tile's blocks are scanned on
// their own in parallel, then each block's carry is combined in while the tile is in the cache,
// so memory is read once and written once, as in a copy.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/library_data.hpp"
#include "backends/cpu/library_routines.hpp"
#include "backends/cpu/scan_float_sums.hpp"
#include "backends/cpu/scan_folds.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu {
namespace {

constexpr int kChains = 8;
// Elements per chain in a group: a group's input and output (13 KiB of float64) stay in L1 for
// the pass that joins the chains. Not a power of two, so that the chains' addresses fall in
// different cache sets: at 2048 floats apart (8 KiB) they shared one set and ran 8x slower.
constexpr std::int64_t kSegment = 104;
// A long row's unit of work for one thread, in elements; a row shorter than a few blocks per
// thread gains nothing from splitting.
constexpr std::int64_t kBlock = 32 * 1024;
// A long row's tile, per thread: the tile's input and output stay in a 1 MiB L2 between the scan
// of its blocks and the pass that adds their carries (4 MiB tiles on 2 threads were 10% slower).
constexpr std::int64_t kTileBytesPerThread = 512 << 10;

template <class F, bool Exclusive, class T>
T scan_serial(const T* in, T* out, std::int64_t n, T running) {
  for (std::int64_t i = 0; i < n; ++i) {
    if constexpr (Exclusive) {
      out[i] = running;
      running = F::combine(running, in[i]);
    } else {
      running = F::combine(running, in[i]);
      out[i] = running;
    }
  }
  return running;
}

// Combines `carry` into n scanned elements: what a block scanned on its own lacks.
template <class F, class T>
void add_carry(T* out, std::int64_t n, T carry) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = F::combine(carry, out[i]);
}

// Scans one group of kChains segments of kSegment elements after `carry` (the fold of everything
// before them); returns the fold including them.
template <class F, bool Exclusive, class T>
T scan_group(const T* in, T* out, T carry) {
  T running[kChains];
  running[0] = carry;
  for (int k = 1; k < kChains; ++k) running[k] = F::identity();
  for (std::int64_t i = 0; i < kSegment; ++i)
    for (int k = 0; k < kChains; ++k) {
      const std::int64_t j = k * kSegment + i;
      if constexpr (Exclusive) {
        out[j] = running[k];
        running[k] = F::combine(running[k], in[j]);
      } else {
        running[k] = F::combine(running[k], in[j]);
        out[j] = running[k];
      }
    }
  T before = running[0];
  for (int k = 1; k < kChains; ++k) {
    add_carry<F>(out + k * kSegment, kSegment, before);
    before = F::combine(before, running[k]);
  }
  return before;
}

template <class F, bool Exclusive, class T>
T scan_span(const T* in, T* out, std::int64_t n, T carry) {
  constexpr std::int64_t kGroup = kChains * kSegment;
  std::int64_t done = 0;
  if constexpr (std::is_same_v<F, Fold<float, ir::ReduceOp::Sum>>)
    done = scan_float_sums<Exclusive>(in, out, n, carry);
  for (; done + kGroup <= n; done += kGroup)
    carry = scan_group<F, Exclusive>(in + done, out + done, carry);
  return scan_serial<F, Exclusive>(in + done, out + done, n - done, carry);
}

template <class F, bool Exclusive, class T>
void scan_row(const T* in, T* out, std::int64_t n) {
  scan_span<F, Exclusive>(in, out, n, F::identity());
}

// A long row goes through in tiles that fit the cache: the tile's blocks are scanned on their own
// in parallel (reading memory while computing), a prefix of their folds gives each block its
// carry, and the carries are combined in, in parallel, while the tile is still in the cache.
template <class F, bool Exclusive, class T>
void scan_long_row(const T* in, T* out, std::int64_t n, int workers) {
  const std::int64_t blocks_per_tile = workers * (kTileBytesPerThread / sizeof(T) / kBlock);
  const std::int64_t tile = blocks_per_tile * kBlock;
  const auto carries = std::make_unique<T[]>(blocks_per_tile);
  T carry = F::identity();
  for (std::int64_t first = 0; first < n; first += tile) {
    const std::int64_t length = std::min(tile, n - first);
    const std::int64_t blocks = (length + kBlock - 1) / kBlock;
    auto block_length = [&](std::int64_t b) { return std::min(kBlock, length - b * kBlock); };
    tbb::parallel_for(std::int64_t{0}, blocks, [&](std::int64_t b) {
      const std::int64_t at = first + b * kBlock;
      carries[b] = scan_span<F, Exclusive>(in + at, out + at, block_length(b), F::identity());
    });
    for (std::int64_t b = 0; b < blocks; ++b) {
      const T total = carries[b];
      carries[b] = carry;
      carry = F::combine(carry, total);
    }
    tbb::parallel_for(std::int64_t{first == 0}, blocks, [&](std::int64_t b) {
      add_carry<F>(out + first + b * kBlock, block_length(b), carries[b]);
    });
  }
}

template <class F, bool Exclusive, class T>
void scan_rows(const T* in, T* out, std::int64_t rows, std::int64_t length) {
  const std::int64_t total = rows * length;
  const int workers = tbb::this_task_arena::max_concurrency();
  if (total < parallel_threshold() || workers < 2) {
    for (std::int64_t r = 0; r < rows; ++r)
      scan_row<F, Exclusive>(in + r * length, out + r * length, length);
  } else if (rows >= 4 * workers || length < 4 * kBlock * workers) {
    const std::int64_t grain = std::max<std::int64_t>(1, parallel_threshold() / length);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, rows, grain), [&](auto range) {
      for (std::int64_t r = range.begin(); r < range.end(); ++r)
        scan_row<F, Exclusive>(in + r * length, out + r * length, length);
    });
  } else {
    for (std::int64_t r = 0; r < rows; ++r)
      scan_long_row<F, Exclusive>(in + r * length, out + r * length, length, workers);
  }
}

template <class T, ir::ReduceOp Op>
void scan_as(bool exclusive, const LibraryArgs& x) {
  using F = Fold<T, Op>;
  const T* in = data<const T>(x.a);
  T* out = data<T>(x.c);
  if (exclusive) return scan_rows<F, true>(in, out, x.rows, x.length);
  scan_rows<F, false>(in, out, x.rows, x.length);
}

}  // namespace

ScanRoutine::ScanRoutine(switchyard::Device& device, const LibraryOp& op) : Routine(device, op) {
  if (op.scan != ir::ReduceOp::Sum && op.scan != ir::ReduceOp::Prod &&
      op.scan != ir::ReduceOp::Min && op.scan != ir::ReduceOp::Max)
    throw ValueError("cpu scan with " + std::string(ir::name(op.scan)) +
                     ": expected sum, prod, min or max");
}

void ScanRoutine::launch(const LibraryArgs& args) {
  if (args.rows <= 0 || args.length <= 0) return;
  visit_dtype(op().dtype, [&]<class T>(T) {
    switch (op().scan) {
      case ir::ReduceOp::Sum:
        return scan_as<T, ir::ReduceOp::Sum>(op().exclusive, args);
      case ir::ReduceOp::Prod:
        return scan_as<T, ir::ReduceOp::Prod>(op().exclusive, args);
      case ir::ReduceOp::Min:
        return scan_as<T, ir::ReduceOp::Min>(op().exclusive, args);
      default:
        return scan_as<T, ir::ReduceOp::Max>(op().exclusive, args);
    }
  });
}

}  // namespace switchyard::cpu

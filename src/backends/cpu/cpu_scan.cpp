// Scans on the CPU. A row is scanned in cache-sized chunks, each as eight independent chains
// (the loop is then bound by loads and stores, not by the latency of one add) that a second,
// in-cache pass joins. Many rows go to threads whole; a long row alone is split into blocks
// that every thread takes in order: a block folds its elements (reading them into cache), waits
// for its predecessor's prefix, publishes its own, and scans from the cache. Memory is then read
// once and written once, as in a copy.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/library_data.hpp"
#include "backends/cpu/library_routines.hpp"
#include "backends/cpu/scan_folds.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu {
namespace {

constexpr int kChains = 8;
// Elements per chunk: input and output of a chunk (256 KiB of float64) stay in the 1 MiB L2.
constexpr std::int64_t kChunk = 16 * 1024;
// Elements per block of a long row shared by the threads; a row shorter than a few blocks per
// thread gains nothing from the hand-offs.
constexpr std::int64_t kBlock = 32 * 1024;

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

// Scans n ≤ kChunk elements after `carry` (the fold of everything before them); returns the fold
// including them.
template <class F, bool Exclusive, class T>
T scan_chunk(const T* in, T* out, std::int64_t n, T carry) {
  const std::int64_t span = n / kChains;
  if (span < 16) return scan_serial<F, Exclusive>(in, out, n, carry);
  T running[kChains];
  running[0] = carry;
  for (int k = 1; k < kChains; ++k) running[k] = F::identity();
  for (std::int64_t i = 0; i < span; ++i)
    for (int k = 0; k < kChains; ++k) {
      const std::int64_t j = k * span + i;
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
    T* chain = out + k * span;
    for (std::int64_t i = 0; i < span; ++i) chain[i] = F::combine(before, chain[i]);
    before = F::combine(before, running[k]);
  }
  const std::int64_t done = kChains * span;
  return scan_serial<F, Exclusive>(in + done, out + done, n - done, before);
}

template <class F, bool Exclusive, class T>
void scan_row(const T* in, T* out, std::int64_t n) {
  T running = F::identity();
  for (std::int64_t start = 0; start < n; start += kChunk)
    running = scan_chunk<F, Exclusive>(in + start, out + start, std::min(kChunk, n - start),
                                       running);
}

template <class F, class T>
T fold(const T* in, std::int64_t n) {
  T partial[kChains];
  for (int k = 0; k < kChains; ++k) partial[k] = F::identity();
  std::int64_t i = 0;
  for (; i + kChains <= n; i += kChains)
    for (int k = 0; k < kChains; ++k) partial[k] = F::combine(partial[k], in[i + k]);
  T total = F::identity();
  for (int k = 0; k < kChains; ++k) total = F::combine(total, partial[k]);
  for (; i < n; ++i) total = F::combine(total, in[i]);
  return total;
}

// The inclusive prefix of one block of a long row, published to the next block.
template <class T>
struct BlockPrefix {
  std::atomic<bool> ready{false};
  T inclusive{};
};

// Blocks are claimed in order from one counter, so the block a thread waits for is held by a
// running thread that waits only on earlier blocks: the chain always moves.
template <class F, bool Exclusive, class T>
void scan_long_row(const T* in, T* out, std::int64_t n, int workers) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  const auto prefixes = std::make_unique<BlockPrefix<T>[]>(blocks);
  std::atomic<std::int64_t> next{0};
  tbb::parallel_for(0, workers, [&](int) {
    for (std::int64_t b; (b = next.fetch_add(1)) < blocks;) {
      const std::int64_t start = b * kBlock, length = std::min(kBlock, n - start);
      const T total = fold<F>(in + start, length);
      T before = F::identity();
      if (b > 0) {
        while (!prefixes[b - 1].ready.load(std::memory_order_acquire)) std::this_thread::yield();
        before = prefixes[b - 1].inclusive;
      }
      prefixes[b].inclusive = F::combine(before, total);
      prefixes[b].ready.store(true, std::memory_order_release);
      for (std::int64_t s = start; s < start + length; s += kChunk)
        before = scan_chunk<F, Exclusive>(in + s, out + s, std::min(kChunk, start + length - s),
                                          before);
    }
  });
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

ScanRoutine::ScanRoutine(const LibraryOp& op) : op_(op) {
  if (op.scan != ir::ReduceOp::Sum && op.scan != ir::ReduceOp::Prod &&
      op.scan != ir::ReduceOp::Min && op.scan != ir::ReduceOp::Max)
    throw DTypeError("cpu scan with " + std::string(ir::name(op.scan)) +
                     ": expected sum, prod, min or max");
}

void ScanRoutine::run(const LibraryArgs& args) const {
  if (args.rows <= 0 || args.length <= 0) return;
  visit_dtype(op_.dtype, [&]<class T>(T) {
    switch (op_.scan) {
      case ir::ReduceOp::Sum:
        return scan_as<T, ir::ReduceOp::Sum>(op_.exclusive, args);
      case ir::ReduceOp::Prod:
        return scan_as<T, ir::ReduceOp::Prod>(op_.exclusive, args);
      case ir::ReduceOp::Min:
        return scan_as<T, ir::ReduceOp::Min>(op_.exclusive, args);
      default:
        return scan_as<T, ir::ReduceOp::Max>(op_.exclusive, args);
    }
  });
}

}  // namespace switchyard::cpu

#include "backends/cpu/cpu_launch.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"

namespace switchyard::cpu {
namespace {

std::atomic<std::int64_t> g_parallel_threshold{kDefaultParallelThreshold};

// Elementwise work goes to threads in tasks of at least this many blocks (16K elements):
// large enough that oneTBB's per-task cost stays small against the task's work.
constexpr std::int64_t kBlocksPerTask = 8;

// Reductions fold rows in chunks of this many elements; the chunks, not the threads, fix the
// order of floating-point additions, so results do not depend on the thread count or on
// whether the launch ran inline.
constexpr std::int64_t kChunkElements = 16 * kBlockElements;

// True when the launch asks for the caller's thread, or (Auto) when n elements of the program
// weigh less than the threshold (see cpu_backend.hpp).
bool runs_inline(const Program& p, const LaunchArgs& args, std::int64_t n) {
  if (args.parallelism != Parallelism::Auto) return args.parallelism == Parallelism::Inline;
  const std::int64_t threshold = g_parallel_threshold.load(std::memory_order_relaxed);
  const std::int64_t cost = p.element_cost();
  return n < threshold / cost + (threshold % cost != 0);  // n * cost < threshold, no overflow
}

void run_elementwise_range(const Program& p, const LaunchArgs& args, std::int64_t begin,
                           std::int64_t end) {
  Workspace& w = thread_workspace(p);
  p.begin_task(args, w, std::min(end - begin, kBlockElements));
  for (std::int64_t start = begin; start < end; start += kBlockElements)
    p.run_block(args, w, start, std::min(kBlockElements, end - start));
}

void run_elementwise(const Program& p, const LaunchArgs& args, std::int64_t n) {
  if (runs_inline(p, args, n)) return run_elementwise_range(p, args, 0, n);
  const std::int64_t blocks = (n + kBlockElements - 1) / kBlockElements;
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, blocks, kBlocksPerTask), [&](auto r) {
    run_elementwise_range(p, args, r.begin() * kBlockElements,
                          std::min(r.end() * kBlockElements, n));
  });
}

// Reductions see the launch as `rows` rows of `length` elements (one row for ReduceOver::All).
struct Rows {
  std::int64_t rows, length;
  std::byte* out;  // one result per row, contiguous
};

std::byte* result_at(const Program& p, const Rows& r, std::int64_t row) {
  return r.out + row * p.result_bytes();
}

// Folds elements [begin, end) of one row, whose first is at position `first` in the row.
Partial fold_part(const Program& p, const LaunchArgs& args, Workspace& w, std::int64_t begin,
                  std::int64_t end, std::int64_t first) {
  Partial part;
  for (std::int64_t start = begin; start < end; start += kBlockElements) {
    const std::int64_t n = std::min(kBlockElements, end - start);
    p.fold().block(p.run_block(args, w, start, n), n, first + (start - begin), part);
  }
  return part;
}

// Long rows are cut into chunks; chunk partials are combined in order per row.
void reduce_long_rows(const Program& p, const LaunchArgs& args, const Rows& r) {
  const std::int64_t chunks = (r.length + kChunkElements - 1) / kChunkElements;
  auto chunk_partial = [&](std::int64_t item) {
    const std::int64_t row = item / chunks, first = item % chunks * kChunkElements;
    const std::int64_t begin = row * r.length + first;
    const std::int64_t end = row * r.length + std::min(r.length, first + kChunkElements);
    Workspace& w = thread_workspace(p);
    p.begin_task(args, w, std::min(end - begin, kBlockElements));
    return fold_part(p, args, w, begin, end, first);
  };
  if (runs_inline(p, args, r.rows * r.length)) {
    for (std::int64_t row = 0; row < r.rows; ++row) {
      Partial acc;
      for (std::int64_t c = 0; c < chunks; ++c)
        p.fold().combine(acc, chunk_partial(row * chunks + c));
      p.fold().store(acc, result_at(p, r, row));
    }
    return;
  }
  std::vector<Partial> partials(r.rows * chunks);
  tbb::parallel_for(std::int64_t{0}, r.rows * chunks,
                    [&](std::int64_t item) { partials[item] = chunk_partial(item); });
  for (std::int64_t row = 0; row < r.rows; ++row) {
    Partial acc;
    for (std::int64_t c = 0; c < chunks; ++c) p.fold().combine(acc, partials[row * chunks + c]);
    p.fold().store(acc, result_at(p, r, row));
  }
}

// Short rows are grouped, whole rows at a time; blocks may span rows and are split at row ends.
void reduce_short_rows(const Program& p, const LaunchArgs& args, const Rows& r) {
  const std::int64_t rows_per_group = std::max<std::int64_t>(1, kChunkElements / r.length);
  auto reduce_group = [&](std::int64_t first_row, std::int64_t end_row) {
    Workspace& w = thread_workspace(p);
    const std::int64_t begin = first_row * r.length, end = end_row * r.length;
    p.begin_task(args, w, std::min(end - begin, kBlockElements));
    std::int64_t row = first_row, position = 0;  // position within `row`
    Partial acc;
    for (std::int64_t start = begin; start < end; start += kBlockElements) {
      const std::int64_t n = std::min(kBlockElements, end - start);
      const auto* values = static_cast<const std::byte*>(p.run_block(args, w, start, n));
      for (std::int64_t done = 0; done < n;) {
        const std::int64_t segment = std::min(n - done, r.length - position);
        p.fold().block(values + done * p.folded_bytes(), segment, position, acc);
        done += segment;
        position += segment;
        if (position == r.length) {
          p.fold().store(acc, result_at(p, r, row++));
          acc = Partial{};
          position = 0;
        }
      }
    }
  };
  const std::int64_t groups = (r.rows + rows_per_group - 1) / rows_per_group;
  auto reduce_groups = [&](std::int64_t g0, std::int64_t g1) {
    reduce_group(g0 * rows_per_group, std::min(r.rows, g1 * rows_per_group));
  };
  if (runs_inline(p, args, r.rows * r.length)) return reduce_groups(0, groups);
  tbb::parallel_for(std::int64_t{0}, groups, [&](std::int64_t g) { reduce_groups(g, g + 1); });
}

void run_reduction(const Program& p, const LaunchArgs& args, std::int64_t n) {
  const Shape& shape = args.shape;
  Rows r{1, n, nullptr};
  if (p.reduce_over() == ir::ReduceOver::LastAxis && shape.size() > 0) {
    r.length = shape.back();
    r.rows = 1;
    for (int d = 0; d + 1 < shape.size(); ++d) r.rows *= shape[d];
  }
  const Operand& out = args.outputs[0];
  r.out = static_cast<std::byte*>(out.memory.handle) + out.offset * p.result_bytes();
  if (r.rows == 0) return;
  if (r.length == 0) {
    for (std::int64_t row = 0; row < r.rows; ++row) p.fold().store(Partial{}, result_at(p, r, row));
    return;
  }
  if (r.length >= kChunkElements) return reduce_long_rows(p, args, r);
  reduce_short_rows(p, args, r);
}

}  // namespace

void set_parallel_threshold(std::int64_t elements) {
  g_parallel_threshold.store(elements, std::memory_order_relaxed);
}

std::int64_t parallel_threshold() {
  return g_parallel_threshold.load(std::memory_order_relaxed);
}

void run_program(const Program& program, const LaunchArgs& args) {
  const std::int64_t n = element_count(args.shape);
  if (program.has_reduction()) return run_reduction(program, args, n);
  if (n > 0) run_elementwise(program, args, n);
}

}  // namespace switchyard::cpu

#include "backends/cpu/cpu_launch.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/reduction_launch.hpp"

namespace switchyard::cpu {
namespace {

std::atomic<std::int64_t> g_parallel_threshold{kDefaultParallelThreshold};

// Elementwise work goes to threads in tasks of at least this many blocks (16K elements):
// large enough that oneTBB's per-task cost stays small against the task's work.
constexpr std::int64_t kBlocksPerTask = 8;

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

}  // namespace

void set_parallel_threshold(std::int64_t elements) {
  g_parallel_threshold.store(elements, std::memory_order_relaxed);
}

std::int64_t parallel_threshold() {
  return g_parallel_threshold.load(std::memory_order_relaxed);
}

bool runs_inline(const Program& p, const LaunchArgs& args, std::int64_t n) {
  if (args.parallelism != Parallelism::Auto) return args.parallelism == Parallelism::Inline;
  const std::int64_t threshold = g_parallel_threshold.load(std::memory_order_relaxed);
  const std::int64_t cost = p.element_cost();
  return n < threshold / cost + (threshold % cost != 0);  // n * cost < threshold, no overflow
}

void run_program(const Program& program, const LaunchArgs& args) {
  if (program.has_reduction()) return run_reduction(program, args);
  const std::int64_t n = element_count(args.shape);
  if (n > 0) run_elementwise(program, args, n);
}

}  // namespace switchyard::cpu

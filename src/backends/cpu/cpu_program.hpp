// A Kernel IR made executable on the CPU: the IR is translated once (do_prepare) into a list of
// steps with their block kernels and scratch slots; a launch then runs every step over one
// block of elements at a time, so the block's intermediate values stay in cache and a chain of
// operations makes one pass over memory.
//
// Per block: contiguous inputs are read in place, strided inputs are gathered into a slot,
// broadcast inputs and scalars were splatted once per task, and each operation writes its
// block into a slot, or straight into its output when nothing read later could alias it.
// Outputs may alias inputs only element for element (in-place updates such as a += b).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cpu/block_kernels.hpp"
#include "backends/cpu/reductions.hpp"

namespace switchyard::cpu {

// Elements per block: 2048 float64 values are 16 KiB, so a block of each live value of a
// typical chain fits in L2 (and the first few in L1) while keeping the per-call overhead of
// each step small against the work.
inline constexpr std::int64_t kBlockElements = 2048;

// Scratch memory of one thread: the program's slots, the current block's value pointers and
// a reduction's running Partials, one per output.
class Workspace {
 public:
  void reserve(int slots, int values, std::size_t partials);
  void* slot(int s) { return memory_.data() + static_cast<std::size_t>(s) * kBlockElements; }
  const void** values() { return values_.data(); }
  std::span<Partial> partials() { return {partials_.data(), partial_count_}; }

 private:
  std::vector<std::uint64_t> memory_;  // kBlockElements 8-byte elements per slot
  std::vector<const void*> values_;    // per instruction: where its block of values is
  std::vector<Partial> partials_;
  std::size_t partial_count_ = 0;
};

// How a reduction kernel folds one of its outputs.
struct OutputFold {
  std::int32_t value;  // the instruction whose values are folded
  Fold fold;
  std::size_t value_bytes;   // element size of the folded values
  std::size_t result_bytes;  // element size of the result
};

// The calling thread's workspace, reserved for `program`'s slots.
class Program;
Workspace& thread_workspace(const Program& program);

class Program final : public Executable {
 public:
  explicit Program(const ir::Kernel& kernel);  // throws DTypeError for unsupported ops

  // Fills the broadcast and scalar slots with `count` copies (the largest block the task
  // runs); call once per task before run_block.
  void begin_task(const LaunchArgs& args, Workspace& w, std::int64_t count) const;
  // Evaluates elements [start, start + n) of the launch, n <= kBlockElements, and stores the
  // outputs of an elementwise kernel; a reduction's folded values are left at folded_values.
  void run_block(const LaunchArgs& args, Workspace& w, std::int64_t start, std::int64_t n) const;
  // The current block's values of fold `f`, from its element `offset` on.
  const void* folded_values(Workspace& w, std::size_t f, std::int64_t offset) const {
    return static_cast<const std::byte*>(w.values()[folds_[f].value]) +
           offset * folds_[f].value_bytes;
  }
  // Input bytes per element worth prefetching: those of the contiguous inputs when a
  // reduction's block makes more than one pass over its values (a step before the folds, or
  // several folds), whose later passes run from cache while memory idles; 0 otherwise.
  std::int64_t prefetched_bytes_per_element() const { return prefetched_bytes_; }
  // Asks the cache for elements [start, start + n) of the contiguous inputs.
  void prefetch(const LaunchArgs& args, std::int64_t start, std::int64_t n) const;

  // Work per element relative to one add: sin, exp and the like count 8 (measured: Highway's
  // float32 sin takes 0.43 ns per element where an add takes 0.054 ns).
  std::int64_t element_cost() const { return element_cost_; }
  int slot_count() const { return slot_count_; }
  int value_count() const { return value_count_; }
  bool has_reduction() const { return !folds_.empty(); }
  // Which elements every fold covers (the `over` and `axes` all the kernel's reductions share).
  const ir::Reduction& reduction() const { return reduction_; }
  const std::vector<OutputFold>& folds() const { return folds_; }  // one per output

 private:
  enum class StepKind : std::uint8_t {
    ContiguousLoad,
    StridedLoad,
    SplatLoad,
    SplatScalar,
    Compute
  };
  struct Step {
    StepKind kind;
    std::uint8_t element_bytes;
    DType dtype;
    std::int32_t value;        // the instruction this step computes
    std::int32_t source = -1;  // input or scalar index of a load or scalar
    std::int32_t operands[3] = {0, 0, 0};
    std::int32_t slot = -1;           // scratch slot holding the block, when it has one
    std::int32_t direct_output = -1;  // output written in place instead of a slot
    BlockFn fn = nullptr;
  };
  struct OutputCopy {
    std::int32_t output, value;
    std::uint8_t element_bytes;
  };

  std::vector<Step> splats_;        // run once per task
  std::vector<Step> block_steps_;   // run per block, in instruction order
  std::vector<OutputCopy> copies_;  // outputs whose value is not written in place
  std::vector<OutputFold> folds_;   // empty without a reduction
  std::vector<Step> prefetched_;    // contiguous loads, when worth prefetching
  std::int64_t prefetched_bytes_ = 0;
  ir::Reduction reduction_{};
  std::int64_t element_cost_ = 1;
  int slot_count_ = 0;
  int value_count_ = 0;
};

}  // namespace switchyard::cpu

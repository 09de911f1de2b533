// What to launch for the entry points of codegen.hpp's ABI: which entry points, how many
// work-groups, the scratch they need and every argument in order. One policy for every backend
// that runs generated code; a backend only allocates the scratch, packs the arguments as its
// driver takes them and enqueues the launches (library kernels' plans, library_kernels.hpp,
// have the same shape).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "codegen/codegen.hpp"
#include "switchyard/shape.hpp"

namespace switchyard::codegen {

struct MapPlan {
  std::int64_t groups = 0;  // work-groups of target.local_size items; 0: nothing to launch
};

struct ReducePlan {
  std::int64_t rows = 0, row_len = 0, parts = 1;
  bool by_rows = false;     // sy_reduce_rows, one item per row; else sy_reduce_partial
  std::int64_t groups = 0;  // work-groups of target.local_size items; 0: nothing to launch
  bool final_pass() const { return !by_rows && parts > 1; }
};

// `max_groups`: how many work-groups keep the device busy (a few per compute unit on CPUs,
// where each group runs on one thread; many more on GPUs).
MapPlan plan_map(std::int64_t n, const Target& target, std::int64_t max_groups);
ReducePlan plan_reduction(const ir::FoldedRows& rows, const Target& target,
                          std::int64_t max_groups);

// One argument of an entry point, in the ABI's order (codegen.hpp gives each one's type).
struct KernelArg {
  enum class Kind : std::uint8_t {
    Index,         // index: `value`
    Rank,          // int: the iteration space's rank
    Shape,         // sy_dims: its shape
    Input,         // input `value`'s memory
    InputOffset,   // index: its offset
    InputStrides,  // sy_dims: its strides (Layout::Strided inputs only)
    Scalar,        // scalar `value`, in the kernel's dtype for it
    Output,        // output `value`'s memory
    OutputOffset,  // index: its offset
    Scratch,       // scratch buffer `value`'s memory (KernelPlan::scratch_bytes)
  };
  Kind kind = Kind::Index;
  std::int64_t value = 0;
};

struct KernelLaunch {
  std::string_view entry;
  std::int64_t groups = 0;  // of Target::local_size items each
  std::vector<KernelArg> args;
};

// Scratch buffers to allocate (bytes each; freed once the launches are queued, since every
// backend runs them in order), then the launches in order. No launches for empty work.
struct KernelPlan {
  std::vector<std::size_t> scratch_bytes;
  std::vector<KernelLaunch> launches;
};

// The launches that run `kernel`, built by render(kernel, target), over `shape`.
KernelPlan plan_kernel(const ir::Kernel& kernel, const Shape& shape, const Target& target,
                       std::int64_t max_groups);

}  // namespace switchyard::codegen

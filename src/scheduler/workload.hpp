// What the scheduler knows about one piece of work: the features that decide where it runs.
// Computed from any Kernel IR (one operation or a fused chain, the scheduler cannot tell and
// need not) or from a library op, plus where its inputs currently have valid copies.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/kernel_ir.hpp"
#include "ir/launch.hpp"

namespace switchyard::scheduler {

enum class WorkKind : std::uint8_t {
  Elementwise,
  Reduction,
  Gemm,
  Gemv,
  Scan,
  Sort,
  Compact,
  Gather,
  Fft,
  Solver
};

// Where one input's valid copies are: the host, and devices by their index in the registry's
// device list (bit i = Registry::devices()[i]).
struct InputPlacement {
  std::uint64_t bytes = 0;
  bool on_host = false;
  std::uint32_t device_mask = 0;
};

struct Workload {
  std::uint64_t signature = 0;  // kernel hash, or a hash of the library op and its dtype
  WorkKind kind = WorkKind::Elementwise;
  std::int64_t elements = 0;     // iteration space (gemm: m·n·k, gemv: m·n)
  std::uint64_t bytes_read = 0;  // every input, once
  std::uint64_t bytes_written = 0;
  double arithmetic_per_element = 0;      // cheap operations per element
  double transcendental_per_element = 0;  // exp, log, sin, ... per element
  double flops = 0;                       // library ops: 2·m·n·k (gemm), 2·m·n (gemv)
  // Features of library ops beyond bytes and operations:
  double memory_passes = 1;          // times the working set streams through memory
  bool random_access = false;        // reads at data-dependent positions (gather)
  bool data_dependent_size = false;  // the result's size is read back before it can be used
  Needs needs = 0;        // what a device must have to take it (a library op's routine, float64)
  int ir_operations = 0;  // instructions, for predicted compile time
  std::vector<InputPlacement> inputs;
  bool result_to_host = false;  // the caller reads the result on the host next
  int result_to_device = -1;    // else the device (its index in the device list) that reads it
                                // next, where known; -1: where it was written

  std::uint64_t working_set_bytes() const { return bytes_read + bytes_written; }
};

// `signature`: kernel.hash(), which callers keep with the kernel rather than hash it per run.
Workload describe(const ir::Kernel& kernel, std::uint64_t signature, std::int64_t elements,
                  std::uint64_t bytes_read, std::uint64_t bytes_written);
Workload describe(const LibraryOp& op, const LibraryArgs& args);

// Library ops have no IR to hash: their signature is what selects the compiled routine. The
// executable cache keys library ops by it too, so the scheduler's "compiled" check finds them.
std::uint64_t library_signature(const LibraryOp& op);

// Size bucket for history and decision caching: a quarter power of two of the elements, so
// neighbouring sizes share measurements and a bucket spans at most 19% of size.
int size_bucket(std::int64_t elements);
// The elements at the middle of a bucket (geometrically).
double bucket_elements(int bucket);
// The same work at another size: elements, bytes and flops scale linearly (a simplification for
// gemm, whose flops grow faster than its bytes).
Workload scaled(const Workload& w, double factor);

}  // namespace switchyard::scheduler

// Executables in memory, per (kernel or library op, device): the first level of the kernel cache
// (each backend's prepare() consults the disk cache behind it). An entry is a shared future, so a
// kernel compiled in the background is found, waited for or reported ready like any other.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "backends/backend.hpp"
#include "ir/kernel_ir.hpp"

namespace switchyard::runtime {

struct Prepared {
  std::shared_ptr<Executable> executable;
  bool cache_hit = false;  // ready in memory: nothing was compiled for this call
  double compile_s = 0;    // time this call spent compiling or waiting for a compile
};

// The executable, compiled now when absent (timed, traced, and open to injected compile faults).
// A compile error propagates and leaves no entry, so a later call tries again.
// `kernel_hash` is kernel.hash(), which the caller has already computed.
Prepared prepare(Device& device, const ir::Kernel& kernel, std::uint64_t kernel_hash,
                 std::string_view label);
Prepared prepare(Device& device, const LibraryOp& op, std::string_view label);

// Whether the kernel is compiled and in memory for the device (devices that compile nothing,
// like the CPU, are always ready once asked).
bool ready(const Device& device, std::uint64_t kernel_hash);

// Moves whenever what ready() answers may have changed for any kernel and device (a compile
// finished, failed or was abandoned, an entry was dropped): equal epochs, equal answers.
std::uint64_t readiness_epoch();

// Starts compiling on another thread unless an entry exists; returns at once.
void compile_in_background(Device& device, const ir::Kernel& kernel, std::string_view label);

}  // namespace switchyard::runtime

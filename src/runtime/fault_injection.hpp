// Fault injection for tests (SWITCHYARD_FAULT): makes a backend fail at compile, launch or
// allocation, or vanish, with the same typed error the real backend would throw, so every
// fallback path can be exercised on any machine.
//
// Spec: a comma list of `backend[:index]:kind[:probability]`, e.g. `opencl:launch`,
// `cuda:oom`, `opencl:0:compile:0.5`. Draws are deterministic (a counter per rule through a
// fixed hash), so a test sees the same sequence of faults on every run.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/device.hpp"

namespace switchyard::runtime {

// Where in running a kernel the executor asks for an injected fault.
enum class FaultStage : std::uint8_t { Compile, Allocate, Launch };

enum class FaultKind : std::uint8_t {
  Compile,      // CompileError at the Compile stage
  Launch,       // DeviceError at the Launch stage
  OutOfMemory,  // OutOfMemory at the Allocate stage
  Lost,         // DeviceError "device lost" at any stage, and at every stage after that
};

struct FaultRule {
  std::string backend;       // "cpu", "opencl", "cuda"
  std::optional<int> index;  // one device of the backend; all when empty
  FaultKind kind = FaultKind::Launch;
  double probability = 1;  // in (0, 1]
};

// Parses a SWITCHYARD_FAULT value; throws ConfigError naming the valid forms.
std::vector<FaultRule> parse_fault_spec(std::string_view spec);

class FaultInjector {
 public:
  explicit FaultInjector(std::vector<FaultRule> rules);

  // Throws the typed error of the first rule that matches `device` at `stage` and fires.
  // `bytes` is the allocation size, named by injected OutOfMemory errors.
  void inject(const DeviceInfo& device, FaultStage stage, std::size_t bytes) const;

 private:
  bool fires(std::size_t rule) const;

  std::vector<FaultRule> rules_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> draws_;  // per rule: draws made so far
  mutable std::mutex lost_mutex_;                        // guards lost_
  mutable std::set<std::string> lost_;                   // ids of devices that were lost
};

// Throws an injected fault when SWITCHYARD_FAULT (or replace_faults) asks for one here; does
// nothing otherwise. When no faults are set: two loads and two branches (~4 ns measured).
// Throws ConfigError when SWITCHYARD_FAULT is malformed.
void maybe_inject(const DeviceInfo& device, FaultStage stage, std::size_t bytes = 0);

// Replaces the process's fault rules with `spec` ("" for none), as if SWITCHYARD_FAULT had held
// it, resetting draws and lost devices. For tests; call it while no work is running.
void replace_faults(std::string_view spec);

}  // namespace switchyard::runtime

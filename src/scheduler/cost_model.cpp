#include "scheduler/cost_model.hpp"

#include <algorithm>
#include <bit>

namespace switchyard::scheduler {
namespace {

double h2d_s(const DeviceModel& to, double bytes) {
  return to.h2d_latency_s + bytes / to.h2d_bytes_per_s;
}

double d2h_s(const DeviceModel& from, double bytes) {
  return from.d2h_latency_s + bytes / from.d2h_bytes_per_s;
}

bool valid_on_device(const InputPlacement& in, int device_index) {
  return device_index >= 0 && device_index < 32 && (in.device_mask >> device_index & 1u) != 0;
}

// The device an input comes back from when the host has no valid copy: the lowest one holding it
// (deterministic; devices rarely share a buffer).
const DeviceModel& source_of(const InputPlacement& in, const DeviceModel& fallback,
                             std::span<const DeviceModel* const> sources) {
  const auto j = static_cast<std::size_t>(std::countr_zero(in.device_mask));
  return j < sources.size() && sources[j] != nullptr ? *sources[j] : fallback;
}

double input_transfer_s(const InputPlacement& in, const DeviceModel& m, int device_index,
                        std::span<const DeviceModel* const> sources) {
  const auto bytes = static_cast<double>(in.bytes);
  // With no valid copy anywhere (an uninitialised buffer) there is nothing to move.
  if (!in.on_host && in.device_mask == 0) return 0;
  if (m.host_addressable) return in.on_host ? 0 : d2h_s(source_of(in, m, sources), bytes);
  if (valid_on_device(in, device_index)) return 0;
  if (in.on_host) return h2d_s(m, bytes);
  return d2h_s(source_of(in, m, sources), bytes) + h2d_s(m, bytes);
}

// A read at a data-dependent position costs a whole cache line when it misses.
constexpr double kRandomAccessBytes = 64;

double compute_s(const Workload& w, const DeviceModel& m) {
  double bytes = static_cast<double>(w.working_set_bytes()) * w.memory_passes;
  if (w.random_access) bytes += static_cast<double>(w.elements) * kRandomAccessBytes;
  const double memory_s = bytes / m.memory_bytes_per_s;
  // Reading back a data-dependent size is one more round trip before the result is usable.
  const double size_readback_s =
      w.data_dependent_size ? m.launch_s + (m.host_addressable ? 0 : m.d2h_latency_s) : 0;
  if (w.kind == WorkKind::Gemm || w.kind == WorkKind::Gemv || w.kind == WorkKind::Fft)
    return std::max(memory_s, w.flops / m.flops_per_s);
  // Factorisations run well below gemm's rate: their panels are matrix-vector work.
  constexpr double kSolverShareOfGemmRate = 0.25;
  if (w.kind == WorkKind::Solver)
    return std::max(memory_s, w.flops / (kSolverShareOfGemmRate * m.flops_per_s));
  const double per_element_s = w.arithmetic_per_element / m.arithmetic_per_s +
                               w.transcendental_per_element / m.transcendental_per_s;
  return std::max(memory_s, static_cast<double>(w.elements) * per_element_s) + size_readback_s;
}

// Moving the result to where it is read next (Workload::result_to_host, result_to_device).
double result_transfer_s(const Workload& w, const DeviceModel& m, int device_index,
                         std::span<const DeviceModel* const> sources) {
  const auto bytes = static_cast<double>(w.bytes_written);
  if (w.result_to_host) return m.host_addressable ? 0 : d2h_s(m, bytes);
  const int to = w.result_to_device;
  if (to < 0 || to == device_index) return 0;
  // A device whose model is unknown here (not a candidate for this work) is left unpriced.
  const auto j = static_cast<std::size_t>(to);
  if (j >= sources.size() || sources[j] == nullptr) return 0;
  return (m.host_addressable ? 0 : d2h_s(m, bytes)) + h2d_s(*sources[j], bytes);
}

}  // namespace

double inputs_transfer_s(const Workload& w, const DeviceModel& m, int device_index,
                         std::span<const DeviceModel* const> sources) {
  double s = 0;
  for (const auto& in : w.inputs) s += input_transfer_s(in, m, device_index, sources);
  return s;
}

CostBreakdown predict(const Workload& w, const DeviceModel& m, int device_index, bool compiled,
                      std::span<const DeviceModel* const> sources) {
  CostBreakdown cost;
  if (!compiled) cost.compile_s = m.compile_base_s + m.compile_per_op_s * w.ir_operations;
  cost.transfer_s = inputs_transfer_s(w, m, device_index, sources);
  cost.result_transfer_s = result_transfer_s(w, m, device_index, sources);
  cost.transfer_s += cost.result_transfer_s;
  cost.launch_s = m.launch_s;
  cost.compute_s = compute_s(w, m);
  return cost;
}

bool fits(const Workload& w, const DeviceModel& m, double reserve_fraction) {
  if (m.free_memory_bytes == 0) return true;
  std::uint64_t resident_bytes = 0;
  for (const auto& in : w.inputs) {
    const bool resident = m.host_addressable ? in.on_host : valid_on_device(in, m.id.device);
    if (resident) resident_bytes += in.bytes;
  }
  const std::uint64_t needed_bytes = w.working_set_bytes() - std::min(resident_bytes, w.bytes_read);
  return static_cast<double>(needed_bytes) <=
         static_cast<double>(m.free_memory_bytes) * (1 - reserve_fraction);
}

}  // namespace switchyard::scheduler

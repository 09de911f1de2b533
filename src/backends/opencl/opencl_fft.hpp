// FFTs on an OpenCL device through VkFFT (backend.hpp's Fft contract), float32 and, where the
// device has it, float64, of every length. One VkFFT application per (rows, shape), made on
// first use and kept.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "backends/library_routine.hpp"

namespace switchyard::opencl {

class Driver;
class RealComplexKernels;

class FftRoutine final : public LibraryRoutine<switchyard::Device> {
 public:
  // Throws DTypeError for parts other than float32/float64, or float64 without device fp64.
  FftRoutine(Driver& driver, switchyard::Device& device, const LibraryOp& op);
  ~FftRoutine() override;

  // Enqueues the transform on the driver's queue; returns before it runs. The input is never
  // written; scratch memory comes from device()'s pool.
  void launch(const LibraryArgs& args) override;

 private:
  struct Plan;  // a VkFFT application: vkFFT.h stays inside opencl_fft.cpp
  using PlanKey = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // rows, m, n
  // The plan for `key`, made on first use: VkFFT's own for op(), or a complex one where VkFFT
  // plans no real transform of that length. Throws DeviceError or OutOfMemory.
  Plan& plan_for(const PlanKey& key);
  std::unique_ptr<Plan> make_plan(const PlanKey& key, LibraryOp::FftKind kind) const;
  void launch_direct(Plan& plan, const LibraryArgs& args);
  void launch_through_complex(Plan& plan, const LibraryArgs& args);

  Driver& driver_;
  // Guards plans_ and the appends: VkFFTAppend updates its application's launch state.
  std::mutex mutex_;
  std::map<PlanKey, std::unique_ptr<Plan>> plans_;
  std::unique_ptr<RealComplexKernels> real_kernels_;  // made with the first plan that needs it
};

}  // namespace switchyard::opencl

// FFTs on a CUDA device through cuFFT (loaded at run time), backend.hpp's Fft contract. One
// cuFFT plan per (rows, shape), made on the first launch with the device's context current.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include "backends/cuda/cuda_api.hpp"
#include "backends/library_routine.hpp"

namespace switchyard::cuda {

class Driver;

class FftRoutine final : public LibraryRoutine<switchyard::Device> {
 public:
  // Throws DTypeError for parts other than float32 or float64, DeviceError without cuFFT.
  FftRoutine(Driver& gpu, switchyard::Device& device, const LibraryOp& op);
  ~FftRoutine() override;
  // Queues the transform on the driver's stream, with its context current; the input is never
  // written.
  void launch(const LibraryArgs& args) override;

 private:
  using PlanKey = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // rows, m, n
  cufftHandle plan_for(const PlanKey& key) const;                        // the context is current

  Driver& gpu_;
  mutable std::mutex plans_mutex_;  // guards plans_
  mutable std::map<PlanKey, cufftHandle> plans_;
};

}  // namespace switchyard::cuda

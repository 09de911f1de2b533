// FFTs on the CPU through FFTW 3 (fftw for float64, fftwf for float32); backend.hpp's Fft
// contract. Plans are made with FFTW_ESTIMATE once per (rows, shape, alignment) and executed
// on the caller's memory with FFTW's new-array functions.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include "backends/cpu/cpu_library.hpp"

namespace switchyard::cpu {

class FftRoutine final : public Routine {
 public:
  FftRoutine(switchyard::Device& device,
             const LibraryOp& op);  // throws DTypeError unless float32/float64
  ~FftRoutine() override;
  void launch(const LibraryArgs& args) override;  // throws ValueError beyond FFTW's int sizes

 private:
  // rows, m, n, whether both arrays have FFTW's preferred (SIMD) alignment.
  using PlanKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, bool>;
  template <class T>
  void transform(const LibraryArgs& args) const;
  template <class T>
  void* plan_for(const PlanKey& key, void* in, void* out) const;

  mutable std::mutex plans_mutex_;          // guards plans_
  mutable std::map<PlanKey, void*> plans_;  // fftw_plan or fftwf_plan, by op().dtype
};

}  // namespace switchyard::cpu

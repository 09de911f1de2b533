// gemm and gemv through cuBLAS (loaded at run time), on row-major operands.
#pragma once

#include <string>

#include "backends/cuda/cuda_api.hpp"
#include "backends/library_routine.hpp"

namespace switchyard::cuda {

class Driver;

// A cuBLAS handle whose work goes on one device's stream. Created with that device's context
// current; throws DeviceError when cuBLAS is not available.
class BlasHandle {
 public:
  BlasHandle(CUstream stream, const std::string& where);
  ~BlasHandle();
  BlasHandle(const BlasHandle&) = delete;
  BlasHandle& operator=(const BlasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// One library op (float32 or float64 gemm or gemv) prepared for one device.
class BlasRoutine final : public LibraryRoutine<switchyard::Device> {
 public:
  // Throws DTypeError for a dtype other than float32 or float64.
  BlasRoutine(Driver& gpu, switchyard::Device& device, const LibraryOp& op);
  // Queues the op on the driver's stream, with its context current; returns before it runs.
  void launch(const LibraryArgs& args) override;

 private:
  Driver& gpu_;
};

}  // namespace switchyard::cuda

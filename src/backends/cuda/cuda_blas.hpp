// gemm and gemv through cuBLAS (loaded at run time), on row-major operands.
#pragma once

#include <string>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_library.hpp"

namespace switchyard::cuda {

class Device;

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
class BlasRoutine final : public Routine {
 public:
  // Throws DTypeError for a dtype other than float32 or float64.
  BlasRoutine(Device& device, const LibraryOp& op);
  // Queues the op on the device's stream; the device's context is current.
  void launch(const LibraryArgs& args) override;
};

}  // namespace switchyard::cuda

#include "backends/cuda/cuda_error.hpp"

#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

// cuFFT has no function naming its results.
std::string_view cufft_name(cufftResult result) {
  switch (result) {
#define SWITCHYARD_CUFFT_RESULT(name) \
  case name:                          \
    return #name;
    SWITCHYARD_CUFFT_RESULT(CUFFT_SUCCESS)
    SWITCHYARD_CUFFT_RESULT(CUFFT_INVALID_PLAN)
    SWITCHYARD_CUFFT_RESULT(CUFFT_ALLOC_FAILED)
    SWITCHYARD_CUFFT_RESULT(CUFFT_INVALID_TYPE)
    SWITCHYARD_CUFFT_RESULT(CUFFT_INVALID_VALUE)
    SWITCHYARD_CUFFT_RESULT(CUFFT_INTERNAL_ERROR)
    SWITCHYARD_CUFFT_RESULT(CUFFT_EXEC_FAILED)
    SWITCHYARD_CUFFT_RESULT(CUFFT_SETUP_FAILED)
    SWITCHYARD_CUFFT_RESULT(CUFFT_INVALID_SIZE)
    SWITCHYARD_CUFFT_RESULT(CUFFT_UNALIGNED_DATA)
    SWITCHYARD_CUFFT_RESULT(CUFFT_INVALID_DEVICE)
    SWITCHYARD_CUFFT_RESULT(CUFFT_NO_WORKSPACE)
    SWITCHYARD_CUFFT_RESULT(CUFFT_NOT_IMPLEMENTED)
    SWITCHYARD_CUFFT_RESULT(CUFFT_NOT_SUPPORTED)
#undef SWITCHYARD_CUFFT_RESULT
    default:
      break;
  }
  return "CUFFT_UNKNOWN_ERROR";
}

}  // namespace

std::string describe(CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  driver().cuGetErrorName(result, &name);
  driver().cuGetErrorString(result, &text);
  if (!name) return "CUresult " + std::to_string(static_cast<int>(result)) + " (unknown error)";
  return std::string(name) + " (" + (text ? text : "no description") + ")";
}

void check(CUresult result, std::string_view call, std::string_view where) {
  if (result == CUDA_SUCCESS) return;
  const std::string message =
      std::string(call) + " on " + std::string(where) + ": " + describe(result);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    throw OutOfMemory(message + "; free arrays on this device or use a smaller problem");
  throw DeviceError(message);
}

void check(nvrtcResult result, std::string_view call) {
  if (result == NVRTC_SUCCESS) return;
  throw DeviceError(std::string(call) + ": " + nvrtc().nvrtcGetErrorString(result));
}

void check(cublasStatus_t status, std::string_view call, std::string_view where) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const std::string message = std::string(call) + " on " + std::string(where) + ": " +
                              cublas().cublasGetStatusName(status) + " (" +
                              cublas().cublasGetStatusString(status) + ")";
  if (status == CUBLAS_STATUS_ALLOC_FAILED)
    throw OutOfMemory(message + "; free arrays on this device or use a smaller problem");
  throw DeviceError(message);
}

void check(cufftResult result, std::string_view call, std::string_view where) {
  if (result == CUFFT_SUCCESS) return;
  const std::string message = std::string(call) + " on " + std::string(where) + ": " +
                              std::string(cufft_name(result)) + " (" +
                              std::to_string(static_cast<int>(result)) + ")";
  if (result == CUFFT_ALLOC_FAILED)
    throw OutOfMemory(message + "; free arrays on this device or use a smaller problem");
  throw DeviceError(message);
}

}  // namespace switchyard::cuda

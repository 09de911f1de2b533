// CUDA, NVRTC, cuBLAS and cuFFT status codes translated into Switchyard's typed errors, in one
// place. Messages keep the library's own error name (CUDA_ERROR_ILLEGAL_ADDRESS, NVRTC_ERROR_...,
// CUBLAS_STATUS_...) and say which call failed where.
#pragma once

#include <string>
#include <string_view>

#include "backends/cuda/cuda_api.hpp"

namespace switchyard::cuda {

// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)".
std::string describe(CUresult result);

// Throws unless `result` is CUDA_SUCCESS: OutOfMemory for CUDA_ERROR_OUT_OF_MEMORY, DeviceError
// otherwise. `where` names the device, e.g. "cuda:0 (NVIDIA H200)".
void check(CUresult result, std::string_view call, std::string_view where);

// Throws DeviceError unless `result` is NVRTC_SUCCESS (a failed compilation is reported by the
// compiler itself, with its log, as CompileError).
void check(nvrtcResult result, std::string_view call);

// Throws unless `status` is CUBLAS_STATUS_SUCCESS: OutOfMemory for CUBLAS_STATUS_ALLOC_FAILED,
// DeviceError otherwise.
void check(cublasStatus_t status, std::string_view call, std::string_view where);

// Throws unless `result` is CUFFT_SUCCESS: OutOfMemory for CUFFT_ALLOC_FAILED, DeviceError
// otherwise.
void check(cufftResult result, std::string_view call, std::string_view where);

}  // namespace switchyard::cuda

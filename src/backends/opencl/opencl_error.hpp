// OpenCL error codes, translated once into typed errors that keep the CL name.
#pragma once

#include <string>
#include <string_view>

#include "backends/opencl/opencl_api.hpp"
#include "switchyard/device.hpp"

namespace switchyard::opencl {

// "CL_OUT_OF_RESOURCES", ...; "CL error <code>" for codes OpenCL 1.2 does not name.
std::string error_name(cl_int code);

// Whether `code` means the device ran out of memory for an allocation.
bool is_out_of_memory(cl_int code);

// Throws DeviceError "<CL name> while <what> on <device id> (<device name>)" unless CL_SUCCESS.
void check(cl_int code, std::string_view what, const DeviceInfo& device);

}  // namespace switchyard::opencl

// Checking and translating DLPack tensor descriptions, for import and export: dtypes, device
// type names, and the memory a tensor's elements reach.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "switchyard/dlpack_types.hpp"
#include "switchyard/dtype.hpp"
#include "switchyard/shape.hpp"

namespace switchyard::dlpack {

DLDataType to_dl(DType t);
// Throws DLPackError for vector lanes and dtypes Switchyard lacks.
DType from_dl(DLDataType t);

// "kDLVulkan (7)": DLPack's name for a device type, for messages.
std::string device_type_name(std::int32_t type);

// The memory an imported tensor's elements occupy: from its lowest element to its highest.
struct Region {
  std::byte* first = nullptr;
  std::size_t bytes = 0;
  std::int64_t offset = 0;  // of the tensor's own first element, in elements from `first`
};

// Throws IndexError when the tensor reaches outside what 64-bit addresses can hold.
Region borrowed_region(const DLTensor& t, const Shape& shape, const Strides& strides, DType dtype,
                       bool empty);

// Throws DLPackError when a bool element the view reads holds a byte other than 0 or 1.
void check_bool_bytes(const std::byte* first, const Shape& shape, const Strides& strides);

}  // namespace switchyard::dlpack

#include "api/dlpack_tensor.hpp"

#include <vector>

#include "core/checked.hpp"
#include "switchyard/error.hpp"

namespace switchyard::dlpack {
namespace {

// DLPack 0.8 added kDLBool; the installed 0.6 header predates it, and NumPy exports bool with it.
constexpr std::uint8_t kDLBoolCode = 6;

[[noreturn]] void unaddressable(const DLTensor& t, const Shape& shape, const Strides& strides) {
  throw IndexError("DLPack tensor of shape " + to_string(shape) + " with strides " +
                   to_string(strides) + " and byte_offset " + std::to_string(t.byte_offset) +
                   " reaches memory outside what 64-bit addresses can hold: expected shape, "
                   "strides and offset that stay inside one allocation; the producer's tensor is "
                   "malformed");
}

struct DeviceTypeName {
  std::int32_t type;
  const char* name;
};

// DLPack 1.1's device types; the installed header may lack the later ones.
constexpr DeviceTypeName kDeviceTypeNames[] = {
    {1, "kDLCPU"},       {2, "kDLCUDA"},     {3, "kDLCUDAHost"},     {4, "kDLOpenCL"},
    {7, "kDLVulkan"},    {8, "kDLMetal"},    {9, "kDLVPI"},          {10, "kDLROCM"},
    {11, "kDLROCMHost"}, {12, "kDLExtDev"},  {13, "kDLCUDAManaged"}, {14, "kDLOneAPI"},
    {15, "kDLWebGPU"},   {16, "kDLHexagon"}, {17, "kDLMAIA"},
};

}  // namespace

std::string device_type_name(std::int32_t type) {
  for (const auto& entry : kDeviceTypeNames)
    if (entry.type == type) return std::string(entry.name) + " (" + std::to_string(type) + ")";
  return "unknown device type " + std::to_string(type);
}

DLDataType to_dl(DType t) {
  switch (t) {
    case DType::Bool:
      return {kDLBoolCode, 8, 1};
    case DType::Int32:
      return {kDLInt, 32, 1};
    case DType::Int64:
      return {kDLInt, 64, 1};
    case DType::Float32:
      return {kDLFloat, 32, 1};
    case DType::Float64:
      return {kDLFloat, 64, 1};
    case DType::Complex64:
      return {kDLComplex, 64, 1};
    case DType::Complex128:
      return {kDLComplex, 128, 1};
  }
  return {};
}

DType from_dl(DLDataType t) {
  if (t.lanes != 1)
    throw DLPackError("DLPack tensor has " + std::to_string(t.lanes) + " vector lanes: expected 1");
  if (t.code == kDLFloat && t.bits == 32) return DType::Float32;
  if (t.code == kDLFloat && t.bits == 64) return DType::Float64;
  if (t.code == kDLInt && t.bits == 32) return DType::Int32;
  if (t.code == kDLInt && t.bits == 64) return DType::Int64;
  if (t.code == kDLBoolCode && t.bits == 8) return DType::Bool;
  if (t.code == kDLComplex && t.bits == 64) return DType::Complex64;
  if (t.code == kDLComplex && t.bits == 128) return DType::Complex128;
  throw DLPackError("DLPack dtype (code " + std::to_string(t.code) + ", " + std::to_string(t.bits) +
                    " bits) is not supported: expected bool, int32, int64, float32, float64, "
                    "complex64 or complex128");
}

// Every step is checked: a reach that wraps would otherwise make a small region of a view that
// reads far outside it.
Region borrowed_region(const DLTensor& t, const Shape& shape, const Strides& strides, DType dtype,
                       bool empty) {
  if (empty) return {static_cast<std::byte*>(t.data), 0, 0};
  const auto item = static_cast<std::int64_t>(size_of(dtype));
  const auto span = element_span(shape, strides, 0);
  if (!span) unaddressable(t, shape, strides);
  const auto extent = checked::sub(span->hi, span->lo);  // elements after the lowest one
  const auto count = extent ? checked::add<std::int64_t>(*extent, 1) : std::nullopt;
  const auto bytes = count ? checked::mul(*count, item) : std::nullopt;
  const auto lo_bytes = checked::mul(span->lo, item);
  if (!bytes || !lo_bytes || t.byte_offset > static_cast<std::uint64_t>(INT64_MAX))
    unaddressable(t, shape, strides);
  const auto start = checked::add(static_cast<std::int64_t>(t.byte_offset), *lo_bytes);
  if (!start) unaddressable(t, shape, strides);
  // The region's first and one-past-last addresses must not wrap around the address space.
  const auto base = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(t.data));
  const auto below = static_cast<std::uint64_t>(-(*start + 1)) + 1;  // |start| when negative
  if (*start < 0 && below > base) unaddressable(t, shape, strides);
  const std::uint64_t address = *start < 0 ? base - below : base;
  const auto from = *start < 0 ? std::optional(address)
                               : checked::add(address, static_cast<std::uint64_t>(*start));
  if (!from || !checked::add(*from, static_cast<std::uint64_t>(*bytes)))
    unaddressable(t, shape, strides);
  return {reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(*from)),
          static_cast<std::size_t>(*bytes), -span->lo};
}

// Kernels load bool elements as C++ bool, for which a byte other than 0 or 1 is undefined
// behaviour; NumPy and PyTorch write only 0 and 1, so any other byte is a malformed tensor. Walks
// the view's own elements (not the gaps between them), from `first`, in index order.
void check_bool_bytes(const std::byte* first, const Shape& shape, const Strides& strides) {
  const int rank = static_cast<int>(shape.size());
  std::vector<std::int64_t> index(static_cast<std::size_t>(rank), 0);
  std::int64_t at = 0;
  for (std::int64_t i = 0, n = element_count(shape); i < n; ++i) {
    const auto byte = std::to_integer<unsigned>(first[at]);
    if (byte > 1)
      throw DLPackError("DLPack bool tensor holds the byte " + std::to_string(byte) +
                        " at element " + std::to_string(i) +
                        ": expected 0 or 1 in every element; convert with `x != 0` first");
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        at += strides[d];
        break;
      }
      at -= strides[d] * (shape[d] - 1);
      index[d] = 0;
    }
  }
}

}  // namespace switchyard::dlpack

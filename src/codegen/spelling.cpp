#include "codegen/spelling.hpp"

#include <algorithm>

namespace switchyard::codegen {
namespace {

constexpr DialectTable kOpenCL = {
    .kernel = "__kernel void",
    .kernel_fixed_group = "__kernel __attribute__((reqd_work_group_size(@, 1, 1))) void",
    .helper = "static inline",
    .global = "__global ",
    .local = "__local ",
    .barrier = "barrier(CLK_LOCAL_MEM_FENCE)",
    .global_id = "(long)get_global_id(0)",
    .global_size = "(long)get_global_size(0)",
    .local_id = "(int)get_local_id(0)",
    .group_id = "(long)get_group_id(0)",
    .index = "long",
    .infinity = "INFINITY",
    .prelude = "typedef struct { long v[8]; } sy_dims;\n",
    .vectors = true,
};

constexpr DialectTable kCuda = {
    .kernel = "extern \"C\" __global__ void",
    .kernel_fixed_group = "extern \"C\" __global__ void __launch_bounds__(@)",
    .helper = "static __device__ __forceinline__",
    .global = "",
    .local = "__shared__ ",
    .barrier = "__syncthreads()",
    .global_id = "((long long)blockIdx.x * blockDim.x + threadIdx.x)",
    .global_size = "((long long)gridDim.x * blockDim.x)",
    .local_id = "(int)threadIdx.x",
    .group_id = "(long long)blockIdx.x",
    .index = "long long",
    .infinity = "__int_as_float(0x7f800000)",
    .prelude = "struct sy_dims { long long v[8]; };\n",
    .vectors = false,
};

constexpr std::string_view kOpenCLTypes[] = {"uchar", "int", "long", "float", "double"};
constexpr std::string_view kOpenCLUnsigned[] = {"uchar", "uint", "ulong", "", ""};
// Element type of a comparison's result in vector code: as wide as the compared elements.
constexpr std::string_view kOpenCLMask[] = {"char", "int", "long", "int", "long"};
constexpr std::string_view kCudaTypes[] = {"unsigned char", "int", "long long", "float", "double"};
constexpr std::string_view kCudaUnsigned[] = {"unsigned char", "unsigned int", "unsigned long long",
                                              "", ""};

int at(DType t) {
  return static_cast<int>(t);
}

std::string paren(std::string_view s) {
  return "(" + std::string(s) + ")";
}

}  // namespace

const DialectTable& table(Dialect d) {
  return d == Dialect::OpenCL ? kOpenCL : kCuda;
}

std::string identifier(std::string_view type) {
  std::string s(type);
  std::replace(s.begin(), s.end(), ' ', '_');
  return s;
}

std::string Spelling::scalar_type(DType t) const {
  return std::string(dialect_ == Dialect::OpenCL ? kOpenCLTypes[at(t)] : kCudaTypes[at(t)]);
}

std::string Spelling::type(DType t) const {
  return scalar_type(t) + (vector() ? std::to_string(width_) : "");
}

std::string Spelling::index_type() const {
  return type(DType::Int64);
}

std::string Spelling::splat(DType t, std::string_view scalar) const {
  return "((" + type(t) + ")" + paren(scalar) + ")";
}

std::string Spelling::lit(DType t, std::string_view value) const {
  const std::string typed = "(" + scalar_type(t) + ")" + paren(value);
  return vector() ? splat(t, typed) : paren(typed);
}

std::string Spelling::sel(std::string_view mask, std::string_view a, std::string_view b) const {
  if (vector())
    return "select(" + std::string(b) + ", " + std::string(a) + ", " + paren(mask) + ")";
  return "(" + paren(mask) + " ? " + paren(a) + " : " + paren(b) + ")";
}

std::string Spelling::bool_from_mask(std::string_view mask) const {
  if (vector()) return "convert_uchar" + std::to_string(width_) + "(-" + paren(mask) + ")";
  return "((" + scalar_type(DType::Bool) + ")" + paren(mask) + ")";
}

std::string Spelling::mask_from_bool(std::string_view b, DType value) const {
  if (!vector()) return paren(b);
  return "(-convert_" + std::string(kOpenCLMask[at(value)]) + std::to_string(width_) + paren(b) +
         ")";
}

std::string Spelling::index_mask(std::string_view mask, DType t) const {
  if (!vector() || kOpenCLMask[at(t)] == "long") return paren(mask);
  return "convert_long" + std::to_string(width_) + paren(mask);
}

std::string Spelling::wrap(DType t, std::string_view a, std::string_view op,
                           std::string_view b) const {
  if (dialect_ == Dialect::OpenCL) {
    const std::string w = vector() ? std::to_string(width_) : "";
    const std::string u = "as_" + std::string(kOpenCLUnsigned[at(t)]) + w;
    return "as_" + type(t) + "(" + u + paren(a) + " " + std::string(op) + " " + u + paren(b) + ")";
  }
  const std::string u = "(" + std::string(kCudaUnsigned[at(t)]) + ")";
  return "((" + type(t) + ")(" + u + paren(a) + " " + std::string(op) + " " + u + paren(b) + "))";
}

std::string Spelling::wrap_neg(DType t, std::string_view a) const {
  if (dialect_ == Dialect::OpenCL) {
    const std::string w = vector() ? std::to_string(width_) : "";
    return "as_" + type(t) + "(-as_" + std::string(kOpenCLUnsigned[at(t)]) + w + paren(a) + ")";
  }
  return "((" + type(t) + ")(-(" + std::string(kCudaUnsigned[at(t)]) + ")" + paren(a) + "))";
}

std::string Spelling::convert(std::string_view x, DType from, DType to) const {
  if (from == to) return std::string(x);
  if (to == DType::Bool) return bool_from_mask(paren(x) + " != " + lit(from, "0"));
  const std::string value =
      is_floating(from) && is_integer(to) ? in_integer_range(x, from, to) : std::string(x);
  if (dialect_ == Dialect::OpenCL) return "convert_" + type(to) + paren(value);
  return "((" + type(to) + ")" + paren(value) + ")";
}

// x86's answer for a float that truncates outside the integer's range, or NaN: the integer's
// minimum (see ir/kernel_ir.hpp). Such values are replaced by that minimum, which converts
// exactly, before truncating, so the conversion itself is always defined. -2^(bits-1) and
// 2^(bits-1) are exact in float32 and float64; `x` is a named value, read twice at no cost.
std::string Spelling::in_integer_range(std::string_view x, DType from, DType to) const {
  const std::string_view half = to == DType::Int32 ? "2147483648.0" : "9223372036854775808.0";
  const std::string lo = lit(from, "-" + std::string(half)), hi = lit(from, half);
  return sel("(" + paren(x) + " >= " + lo + ") & (" + paren(x) + " < " + hi + ")", x, lo);
}

std::string Spelling::math(std::string_view name, DType t, std::string_view a,
                           std::string_view b) const {
  std::string f(name);
  // PoCL's double8 and double16 pow and fmod (its AVX-512 kernel library, PoCL 3.1) are wrong
  // for negative operands: pow(-2, 4) gives 0.0625, fmod(-4, -1.54) gives -0.149. Its double4
  // forms are right, so wider double vectors are computed four lanes at a time.
  if (t == DType::Float64 && width_ > 4 && (name == "pow" || name == "fmod")) {
    static constexpr const char* kQuarter[] = {".s0123", ".s4567", ".s89ab", ".scdef"};
    std::string s = "((" + type(t) + ")(";
    for (int q = 0; q < width_ / 4; ++q) {
      if (q) s += ", ";
      s += f;
      s += "(" + paren(a) + kQuarter[q] + ", " + paren(b) + kQuarter[q] + ")";
    }
    return s + "))";
  }
  const bool overloaded =
      name == "isnan" || name == "isinf" || name == "isfinite" || name == "signbit";
  if (dialect_ == Dialect::Cuda && t == DType::Float32 && !overloaded) f += "f";
  f += "(" + std::string(a);
  if (!b.empty()) f += ", " + std::string(b);
  return f + ")";
}

std::string Spelling::vload(std::string_view pointer) const {
  if (vector()) return "vload" + std::to_string(width_) + "(0, " + std::string(pointer) + ")";
  return "(*" + paren(pointer) + ")";
}

std::string Spelling::vstore(std::string_view value, std::string_view pointer) const {
  if (vector())
    return "vstore" + std::to_string(width_) + "(" + std::string(value) + ", 0, " +
           std::string(pointer) + ")";
  return "*" + paren(pointer) + " = " + std::string(value);
}

}  // namespace switchyard::codegen

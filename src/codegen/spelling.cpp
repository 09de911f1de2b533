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
    .int64_suffix = "",
    .infinity = "INFINITY",
    .predicate = "int",
    .no = "0",
    .all = " & ",
    .any = " | ",
    .precise = "",
    .prelude = "typedef struct { long v[8]; } sy_dims;\n",
    .types = {"uchar", "int", "long", "float", "double"},
    .unsigned_types = {"uchar", "uint", "ulong"},
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
    .int64_suffix = "",
    .infinity = "__int_as_float(0x7f800000)",
    .predicate = "int",
    .no = "0",
    .all = " & ",
    .any = " | ",
    .precise = "",
    .prelude = "struct sy_dims { long long v[8]; };\n",
    .types = {"unsigned char", "int", "long long", "float", "double"},
    .unsigned_types = {"unsigned char", "unsigned int", "unsigned long long"},
    .vectors = false,
};

// GLSL 4.50 for Vulkan: kernel pointers are buffer references (codegen.hpp), one per element
// type, each an array `v` of that type.
constexpr DialectTable kGlsl = {
    .kernel = "",
    .kernel_fixed_group = "",
    .helper = "",
    .global = "",
    .local = "shared ",
    .barrier = "memoryBarrierShared(); barrier()",
    .global_id = "int64_t(gl_GlobalInvocationID.x)",
    .global_size = "(int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x))",
    .local_id = "int(gl_LocalInvocationID.x)",
    .group_id = "int64_t(gl_WorkGroupID.x)",
    .index = "int64_t",
    .int64_suffix = "l",
    .infinity = "uintBitsToFloat(0x7f800000u)",
    .predicate = "bool",
    .no = "false",
    .all = " && ",
    .any = " || ",
    .precise = "precise ",
    .prelude =
        "#version 450\n"
        "#extension GL_EXT_buffer_reference : require\n"
        "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
        "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
        "#extension GL_EXT_shader_8bit_storage : require\n"
        "#extension GL_EXT_spirv_intrinsics : require\n"
        // NaN, infinities and signed zeros as IEEE 754 has them (SignedZeroInfNanPreserve):
        // without it a Vulkan compiler may assume there are none.
        "spirv_execution_mode(extensions = [\"SPV_KHR_float_controls\"], capabilities = [4466], "
        "4461, 32);\n"
        "struct sy_dims { int64_t v[8]; };\n"
        "layout(buffer_reference, std430, buffer_reference_align = 1) buffer sy_buf_uint8_t "
        "{ uint8_t v[]; };\n"
        "layout(buffer_reference, std430, buffer_reference_align = 4) buffer sy_buf_int "
        "{ int v[]; };\n"
        "layout(buffer_reference, std430, buffer_reference_align = 8) buffer sy_buf_int64_t "
        "{ int64_t v[]; };\n"
        "layout(buffer_reference, std430, buffer_reference_align = 4) buffer sy_buf_float "
        "{ float v[]; };\n"
        // GLSL indexes arrays by 32-bit integers only: an element is reached by 64-bit address
        // arithmetic instead.
        "sy_buf_uint8_t sy_at_uint8_t(sy_buf_uint8_t p, int64_t i) "
        "{ return sy_buf_uint8_t(uint64_t(p) + uint64_t(i)); }\n"
        "sy_buf_int sy_at_int(sy_buf_int p, int64_t i) "
        "{ return sy_buf_int(uint64_t(p) + uint64_t(i) * 4ul); }\n"
        "sy_buf_int64_t sy_at_int64_t(sy_buf_int64_t p, int64_t i) "
        "{ return sy_buf_int64_t(uint64_t(p) + uint64_t(i) * 8ul); }\n"
        "sy_buf_float sy_at_float(sy_buf_float p, int64_t i) "
        "{ return sy_buf_float(uint64_t(p) + uint64_t(i) * 4ul); }\n",
    .types = {"uint8_t", "int", "int64_t", "float", "double"},
    .unsigned_types = {"uint8_t", "uint", "uint64_t"},
    .vectors = false,
};

// Element type of a comparison's result in vector code: as wide as the compared elements.
constexpr std::string_view kOpenCLMask[] = {"char", "int", "long", "int", "long"};

int at(DType t) {
  return static_cast<int>(t);
}

std::string paren(std::string_view s) {
  return "(" + std::string(s) + ")";
}

// GLSL's float32 forms of the C99 functions it lacks, or whose builtin leaves C's special
// cases (zeros, infinities, NaN, out-of-domain arguments) undefined, or whose precision Vulkan
// ("Precision and Operation of SPIR-V Instructions") bounds too loosely to pass for C's. The
// builtins pow (of |a| > 0, non-integer or large exponents), sin, cos, tan and sqrt remain.
struct GlslMath {
  std::string_view name;     // the C name math() takes
  std::string_view deps[3];  // helpers (C names) the definition calls
  std::string_view definition;
};

constexpr GlslMath kGlslMath[] = {
    {"copysign",
     {},
     "float sy_copysign(float a, float b) {\n"
     "  return uintBitsToFloat((floatBitsToUint(a) & 0x7fffffffu) | (floatBitsToUint(b) & "
     "0x80000000u));\n}\n"},
    // Exact, as C's: |a| is reduced by |b| scaled into its binade, each subtraction exact
    // (Sterbenz), the exponent falling by one at least per step.
    {"fmod",
     {"copysign"},
     "float sy_fmod(float a, float b) {\n"
     "  float x = abs(a), y = abs(b);\n"
     "  if (isnan(a) || isnan(b) || isinf(a) || y == 0.0) return uintBitsToFloat(0x7fc00000u);\n"
     "  int ey;\n"
     "  frexp(y, ey);\n"
     "  for (int i = 0; i < 300 && x >= y; ++i) {\n"
     "    int ex;\n"
     "    frexp(x, ex);\n"
     "    float t = ldexp(y, ex - ey);\n"
     "    if (t > x) t = ldexp(y, ex - ey - 1);\n"
     "    x -= t;\n"
     "  }\n"
     "  return sy_copysign(x, a);\n}\n"},
    // Scaled by the larger's binade, so nothing overflows or underflows; an infinity wins over
    // NaN, as in C.
    {"hypot",
     {},
     "float sy_hypot(float a, float b) {\n"
     "  float x = abs(a), y = abs(b);\n"
     "  if (isinf(x) || isinf(y)) return uintBitsToFloat(0x7f800000u);\n"
     "  if (isnan(x) || isnan(y)) return x + y;\n"
     "  float m = max(x, y), s = min(x, y);\n"
     "  if (s == 0.0) return m;\n"
     "  int e;\n"
     "  frexp(m, e);\n"
     "  float p = ldexp(m, -e), q = ldexp(s, -e);\n"
     "  return ldexp(sqrt(p * p + q * q), e);\n}\n"},
    // Cephes' expf: x = k ln2 + r (ln2 in two parts, k ln2's first exact), exp(r) by a
    // polynomial; within 2 ulp. Vulkan allows the builtin 3 + 2|x| ulp (llvmpipe's exp(88) is
    // 28 ulp off).
    {"exp",
     {},
     "float sy_exp(float x) {\n"
     "  if (isnan(x)) return x;\n"
     "  if (x > 88.7228394) return uintBitsToFloat(0x7f800000u);\n"
     "  if (x < -103.972084) return 0.0;\n"
     "  float k = floor(x * 1.44269504088896341 + 0.5);\n"
     "  float r = (x - k * 0.693359375) + k * 2.12194440e-4, z = r * r;\n"
     "  float p = (((((1.9875691500e-4 * r + 1.3981999507e-3) * r + 8.3334519073e-3) * r + "
     "4.1665795894e-2) * r + 1.6666665459e-1) * r + 5.0000001201e-1) * z + r + 1.0;\n"
     "  int n = int(k);\n"
     "  return ldexp(ldexp(p, n / 2), n - n / 2);\n}\n"},
    // Taylor's series below 0.5 in magnitude (the terms past x^11 / 11! are below float32's
    // precision there), exp(x) - 1 beyond.
    {"expm1",
     {"exp"},
     "float sy_expm1(float x) {\n"
     "  if (abs(x) >= 0.5) return sy_exp(x) - 1.0;\n"
     "  float r = 1.0;\n"
     "  for (int k = 11; k >= 2; --k) r = 1.0 + x * r / float(k);\n"
     "  return x * r;\n}\n"},
    // 2 atanh(s), s = x / (2 + x), by its series on [-0.5, 1] where |s| <= 1/3; log(1 + x)
    // beyond.
    {"log1p",
     {"log"},
     "float sy_log1p(float x) {\n"
     "  if (x <= -1.0) return x == -1.0 ? uintBitsToFloat(0xff800000u) : "
     "uintBitsToFloat(0x7fc00000u);\n"
     "  if (!(x >= -0.5 && x <= 1.0)) return sy_log(1.0 + x);\n"
     "  float s = x / (2.0 + x), s2 = s * s, r = 1.0 / 19.0;\n"
     "  for (int k = 17; k >= 3; k -= 2) r = 1.0 / float(k) + s2 * r;\n"
     "  return 2.0 * s * (1.0 + s2 * r);\n}\n"},
    // The logarithms from x = m 2^e, m in [sqrt(1/2), sqrt(2)): log(m) = 2 atanh(s),
    // s = (m - 1) / (m + 1), by its series (|s| < 0.172); within 2 ulp. Vulkan bounds the
    // builtins only absolutely near 1 (2^-21: llvmpipe's log(0.999) is 537 ulp off).
    {"log_parts",
     {},
     "float sy_log_parts(float x, out float e) {\n"
     "  int n;\n"
     "  float m = frexp(x, n);\n"
     "  if (m < 0.70710678118654752) {\n"
     "    m *= 2.0;\n"
     "    n -= 1;\n"
     "  }\n"
     "  e = float(n);\n"
     "  float s = (m - 1.0) / (m + 1.0), z = s * s;\n"
     "  float p = ((((z / 11.0 + 1.0 / 9.0) * z + 1.0 / 7.0) * z + 0.2) * z + 1.0 / 3.0) * z;\n"
     "  return 2.0 * s + 2.0 * s * p;\n}\n"},
    {"log",
     {"log_parts"},
     "float sy_log(float x) {\n"
     "  if (!(x > 0.0) || isinf(x))\n"
     "    return x == 0.0 ? uintBitsToFloat(0xff800000u) : (x > 0.0 ? x : "
     "uintBitsToFloat(0x7fc00000u));\n"
     "  float e, l = sy_log_parts(x, e);\n"
     "  return e * 0.693359375 + (l - e * 2.12194440e-4);\n}\n"},
    {"log2",
     {"log_parts"},
     "float sy_log2(float x) {\n"
     "  if (!(x > 0.0) || isinf(x))\n"
     "    return x == 0.0 ? uintBitsToFloat(0xff800000u) : (x > 0.0 ? x : "
     "uintBitsToFloat(0x7fc00000u));\n"
     "  float e, l = sy_log_parts(x, e);\n"
     "  return e + l * 1.44269504088896341;\n}\n"},
    {"log10",
     {"log_parts"},
     "float sy_log10(float x) {\n"
     "  if (!(x > 0.0) || isinf(x))\n"
     "    return x == 0.0 ? uintBitsToFloat(0xff800000u) : (x > 0.0 ? x : "
     "uintBitsToFloat(0x7fc00000u));\n"
     "  float e, l = sy_log_parts(x, e);\n"
     "  return e * 0.301029995663981195 + l * 0.434294481903251828;\n}\n"},
    {"sqrt",
     {},
     "float sy_sqrt(float x) {\n"
     "  return x < 0.0 ? uintBitsToFloat(0x7fc00000u) : sqrt(x);\n}\n"},
    // The inverse trigonometric functions by Cephes' float32 reductions and polynomials
    // (within 2 ulp); Vulkan lets the builtins be 4096 ulp off, and llvmpipe's are 3500.
    {"atan",
     {"copysign"},
     "float sy_atan(float x) {\n"
     "  float a = abs(x), y = 0.0;\n"
     "  if (a > 2.41421356237309505) {\n"
     "    y = 1.57079632679489662;\n"
     "    a = -1.0 / a;\n"
     "  } else if (a > 0.414213562373095049) {\n"
     "    y = 0.785398163397448310;\n"
     "    a = (a - 1.0) / (a + 1.0);\n"
     "  }\n"
     "  float z = a * a;\n"
     "  y += (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - "
     "3.33329491539e-1) * z * a + a;\n"
     "  return sy_copysign(y, x);\n}\n"},
    {"asin",
     {"copysign"},
     "float sy_asin(float x) {\n"
     "  float a = abs(x), z, s;\n"
     "  if (!(a <= 1.0)) return uintBitsToFloat(0x7fc00000u);\n"
     "  if (a > 0.5) {\n"
     "    z = 0.5 * (1.0 - a);\n"
     "    s = sqrt(z);\n"
     "  } else {\n"
     "    z = a * a;\n"
     "    s = a;\n"
     "  }\n"
     "  float r = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + "
     "7.4953002686e-2) * z + 1.6666752422e-1) * z * s + s;\n"
     "  if (a > 0.5) r = 1.57079632679489662 - 2.0 * r;\n"
     "  return sy_copysign(r, x);\n}\n"},
    {"acos",
     {"asin"},
     "float sy_acos(float x) {\n"
     "  if (!(abs(x) <= 1.0)) return uintBitsToFloat(0x7fc00000u);\n"
     "  if (x < -0.5) return 3.14159265358979324 - 2.0 * sy_asin(sqrt(0.5 * (1.0 + x)));\n"
     "  if (x > 0.5) return 2.0 * sy_asin(sqrt(0.5 * (1.0 - x)));\n"
     "  return 1.57079632679489662 - sy_asin(x);\n}\n"},
    // C's pow: its special cases, the sign of odd integer powers of negative bases, integer
    // exponents up to 64 by repeated squaring; otherwise the builtin on |a| > 0.
    {"pow",
     {},
     "float sy_pow(float a, float b) {\n"
     "  if (b == 0.0 || a == 1.0) return 1.0;\n"
     "  if (isnan(a) || isnan(b)) return a + b;\n"
     "  float m = abs(a), inf = uintBitsToFloat(0x7f800000u);\n"
     "  if (isinf(b)) return m == 1.0 ? 1.0 : ((m > 1.0) == (b > 0.0) ? inf : 0.0);\n"
     "  bool integral = trunc(b) == b;\n"
     "  if (a < 0.0 && !integral && !isinf(a)) return uintBitsToFloat(0x7fc00000u);\n"
     "  bool odd = integral && abs(b) < 16777216.0 && (int(abs(b)) & 1) == 1;\n"
     "  float r = 1.0;\n"
     "  if (m == 0.0 || isinf(m)) {\n"
     "    r = (m == 0.0) == (b < 0.0) ? inf : 0.0;\n"
     "  } else if (integral && abs(b) <= 64.0) {\n"
     "    float x = m;\n"
     "    for (int e = int(abs(b)); e > 0; e >>= 1) {\n"
     "      if ((e & 1) == 1) r *= x;\n"
     "      x *= x;\n"
     "    }\n"
     "    if (b < 0.0) r = 1.0 / r;\n"
     "  } else {\n"
     "    r = pow(m, b);\n"
     "  }\n"
     "  return odd && (floatBitsToUint(a) >> 31) != 0u ? -r : r;\n}\n"},
    // C's atan2 at zeros and infinities (the builtin's are undefined); atan(|y / x|) placed in
    // its quadrant elsewhere.
    {"atan2",
     {"atan", "copysign"},
     "float sy_atan2(float y, float x) {\n"
     "  if (isnan(x) || isnan(y)) return x + y;\n"
     "  bool west = (floatBitsToUint(x) >> 31) != 0u;\n"
     "  float r;\n"
     "  if (y == 0.0) r = west ? 3.14159265358979324 : 0.0;\n"
     "  else if (isinf(x) && isinf(y)) r = west ? 2.35619449019234492 : 0.785398163397448310;\n"
     "  else if (isinf(x)) r = west ? 3.14159265358979324 : 0.0;\n"
     "  else if (isinf(y) || x == 0.0) r = 1.57079632679489662;\n"
     "  else r = west ? 3.14159265358979324 - sy_atan(abs(y) / abs(x)) : sy_atan(abs(y) / "
     "abs(x));\n"
     "  return sy_copysign(r, y);\n}\n"},
    // The hyperbolic functions from expm1 and log1p, accurate near 0 where the builtins'
    // textbook forms cancel, and free of their overflow beyond (exp(|x|) / 2 as
    // exp(|x| / 2) · exp(|x| / 2) / 2).
    {"sinh",
     {"exp", "expm1", "copysign"},
     "float sy_sinh(float x) {\n"
     "  float a = abs(x), r;\n"
     "  if (a < 1.0) {\n"
     "    float h = sy_expm1(a);\n"
     "    r = 0.5 * (h + h / (h + 1.0));\n"
     "  } else {\n"
     "    float e = sy_exp(0.5 * a), h = e * (0.5 * e);\n"
     "    r = h - 0.25 / h;\n"
     "  }\n"
     "  return sy_copysign(r, x);\n}\n"},
    {"cosh",
     {"exp"},
     "float sy_cosh(float x) {\n"
     "  float e = sy_exp(0.5 * abs(x)), h = e * (0.5 * e);\n"
     "  return h + 0.25 / h;\n}\n"},
    {"tanh",
     {"expm1", "copysign"},
     "float sy_tanh(float x) {\n"
     "  float a = abs(x);\n"
     "  if (a > 9.0) return sy_copysign(1.0, x);\n"
     "  float t = sy_expm1(-2.0 * a);\n"
     "  return sy_copysign(-t / (t + 2.0), x);\n}\n"},
    {"asinh",
     {"log", "log1p", "copysign"},
     "float sy_asinh(float x) {\n"
     "  float a = abs(x);\n"
     "  float r = a > 4096.0 ? sy_log(a) + 0.693147180559945309\n"
     "                       : sy_log1p(a + a * a / (1.0 + sqrt(1.0 + a * a)));\n"
     "  return sy_copysign(r, x);\n}\n"},
    {"acosh",
     {"log", "log1p"},
     "float sy_acosh(float x) {\n"
     "  if (!(x >= 1.0)) return uintBitsToFloat(0x7fc00000u);\n"
     "  if (x > 4096.0) return sy_log(x) + 0.693147180559945309;\n"
     "  float t = x - 1.0;\n"
     "  return sy_log1p(t + sqrt(2.0 * t + t * t));\n}\n"},
    {"atanh",
     {"log1p", "copysign"},
     "float sy_atanh(float x) {\n"
     "  float a = abs(x);\n"
     "  if (a == 1.0) return sy_copysign(uintBitsToFloat(0x7f800000u), x);\n"
     "  return sy_copysign(0.5 * sy_log1p(2.0 * a / (1.0 - a)), x);\n}\n"},
};

const GlslMath* glsl_math(std::string_view name) {
  for (const GlslMath& m : kGlslMath)
    if (m.name == name) return &m;
  return nullptr;
}

void add_glsl_math(const GlslMath& m,
                   std::vector<std::pair<std::string_view, std::string_view>>& out) {
  for (std::string_view dep : m.deps)
    if (!dep.empty()) add_glsl_math(*glsl_math(dep), out);
  const std::string_view fn = m.definition.substr(6, m.definition.find('(') - 6);  // "float "
  if (std::none_of(out.begin(), out.end(), [&](const auto& d) { return d.first == fn; }))
    out.emplace_back(fn, m.definition);
}

}  // namespace

const DialectTable& table(Dialect d) {
  switch (d) {
    case Dialect::Cuda:
      return kCuda;
    case Dialect::Glsl:
      return kGlsl;
    case Dialect::OpenCL:
      break;
  }
  return kOpenCL;
}

std::string identifier(std::string_view type) {
  std::string s(type);
  std::replace(s.begin(), s.end(), ' ', '_');
  return s;
}

std::string Spelling::cast(std::string_view type, std::string_view x) const {
  if (dialect_ == Dialect::Glsl) return std::string(type) + paren(x);
  return "((" + std::string(type) + ")" + paren(x) + ")";
}

std::string Spelling::scalar_type(DType t) const {
  return std::string(t_.types[at(t)]);
}

std::string Spelling::type(DType t) const {
  return scalar_type(t) + (vector() ? std::to_string(width_) : "");
}

std::string Spelling::index_type() const {
  return type(DType::Int64);
}

std::string Spelling::splat(DType t, std::string_view scalar) const {
  return cast(type(t), scalar);
}

std::string Spelling::lit(DType t, std::string_view value) const {
  if (vector()) return splat(t, "(" + scalar_type(t) + ")" + paren(value));
  return cast(scalar_type(t), value);
}

std::string Spelling::pointer_type(DType t, bool is_const) const {
  if (dialect_ == Dialect::Glsl) return "sy_buf_" + identifier(scalar_type(t));
  return std::string(t_.global) + (is_const ? "const " : "") + scalar_type(t) + "*";
}

std::string Spelling::helper(std::string_view return_type) const {
  return (t_.helper.empty() ? "" : std::string(t_.helper) + " ") + std::string(return_type) + " ";
}

std::string Spelling::sel(std::string_view mask, std::string_view a, std::string_view b) const {
  if (vector())
    return "select(" + std::string(b) + ", " + std::string(a) + ", " + paren(mask) + ")";
  return "(" + paren(mask) + " ? " + paren(a) + " : " + paren(b) + ")";
}

std::string Spelling::all(std::string_view a, std::string_view b) const {
  return std::string(a) + std::string(t_.all) + std::string(b);
}

std::string Spelling::any(std::string_view a, std::string_view b) const {
  return std::string(a) + std::string(t_.any) + std::string(b);
}

std::string Spelling::bool_from_mask(std::string_view mask) const {
  if (vector()) return "convert_uchar" + std::to_string(width_) + "(-" + paren(mask) + ")";
  return cast(scalar_type(DType::Bool), mask);
}

std::string Spelling::mask_from_bool(std::string_view b, DType value) const {
  if (dialect_ == Dialect::Glsl) return "(" + paren(b) + " != " + lit(DType::Bool, "0") + ")";
  if (!vector()) return paren(b);
  return "(-convert_" + std::string(kOpenCLMask[at(value)]) + std::to_string(width_) + paren(b) +
         ")";
}

std::string Spelling::index_mask(std::string_view mask, DType t) const {
  if (!vector() || kOpenCLMask[at(t)] == "long") return paren(mask);
  return "convert_long" + std::to_string(width_) + paren(mask);
}

// GLSL's integer + - * << and negation already wrap (GLSL 4.50 §5.9: the low-order bits of the
// result); C's are undefined on overflow, so they are done in the unsigned type.
std::string Spelling::wrap(DType t, std::string_view a, std::string_view op,
                           std::string_view b) const {
  if (dialect_ == Dialect::Glsl)
    return "(" + paren(a) + " " + std::string(op) + " " + paren(b) + ")";
  const std::string_view U = t_.unsigned_types[at(t)];
  if (dialect_ == Dialect::OpenCL) {
    const std::string w = vector() ? std::to_string(width_) : "";
    const std::string u = "as_" + std::string(U) + w;
    return "as_" + type(t) + "(" + u + paren(a) + " " + std::string(op) + " " + u + paren(b) + ")";
  }
  const std::string u = "(" + std::string(U) + ")";
  return "((" + type(t) + ")(" + u + paren(a) + " " + std::string(op) + " " + u + paren(b) + "))";
}

std::string Spelling::wrap_neg(DType t, std::string_view a) const {
  if (dialect_ == Dialect::Glsl) return "(-" + paren(a) + ")";
  const std::string_view U = t_.unsigned_types[at(t)];
  if (dialect_ == Dialect::OpenCL) {
    const std::string w = vector() ? std::to_string(width_) : "";
    return "as_" + type(t) + "(-as_" + std::string(U) + w + paren(a) + ")";
  }
  return "((" + type(t) + ")(-(" + std::string(U) + ")" + paren(a) + "))";
}

// GLSL leaves % undefined for negative operands; its integer division truncates.
std::string Spelling::rem(std::string_view a, std::string_view b) const {
  const std::string A(a), B(b);
  if (dialect_ == Dialect::Glsl) return "(" + A + " - " + A + " / " + B + " * " + B + ")";
  return A + " % " + B;
}

std::string Spelling::convert(std::string_view x, DType from, DType to) const {
  if (from == to) return std::string(x);
  if (to == DType::Bool) return bool_from_mask(paren(x) + " != " + lit(from, "0"));
  const std::string value =
      is_floating(from) && is_integer(to) ? in_integer_range(x, from, to) : std::string(x);
  if (dialect_ == Dialect::OpenCL) return "convert_" + type(to) + paren(value);
  return cast(type(to), value);
}

// x86's answer for a float that truncates outside the integer's range, or NaN: the integer's
// minimum (see ir/kernel_ir.hpp). Such values are replaced by that minimum, which converts
// exactly, before truncating, so the conversion itself is always defined. -2^(bits-1) and
// 2^(bits-1) are exact in float32 and float64; `x` is a named value, read twice at no cost.
std::string Spelling::in_integer_range(std::string_view x, DType from, DType to) const {
  const std::string_view half = to == DType::Int32 ? "2147483648.0" : "9223372036854775808.0";
  const std::string lo = lit(from, "-" + std::string(half)), hi = lit(from, half);
  return sel(all("(" + paren(x) + " >= " + lo + ")", "(" + paren(x) + " < " + hi + ")"), x, lo);
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
  if (dialect_ == Dialect::Glsl) {
    const std::string A(a);
    if (name == "isfinite") return "(!isinf(" + A + ") && !isnan(" + A + "))";
    if (name == "signbit") return "((floatBitsToUint(" + A + ") >> 31) != 0u)";
    if (name == "fabs") f = "abs";
    if (name == "rint") f = "roundEven";  // rounds half to even, as rint does by default
    if (glsl_math(name)) f = "sy_" + f;
  }
  const bool overloaded =
      name == "isnan" || name == "isinf" || name == "isfinite" || name == "signbit";
  if (dialect_ == Dialect::Cuda && t == DType::Float32 && !overloaded) f += "f";
  f += "(" + std::string(a);
  if (!b.empty()) f += ", " + std::string(b);
  return f + ")";
}

std::vector<std::pair<std::string_view, std::string_view>> Spelling::math_helpers(
    std::string_view name) const {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  if (dialect_ != Dialect::Glsl) return out;
  if (const GlslMath* m = glsl_math(name)) add_glsl_math(*m, out);
  return out;
}

std::string Spelling::element(DType t, std::string_view pointer, std::string_view index) const {
  if (dialect_ == Dialect::Glsl)
    return "sy_at_" + identifier(scalar_type(t)) + "(" + std::string(pointer) + ", " +
           std::string(index) + ").v[0]";
  return std::string(pointer) + "[" + std::string(index) + "]";
}

std::string Spelling::vload(DType t, std::string_view pointer, std::string_view index) const {
  if (dialect_ == Dialect::Glsl) return paren(element(t, pointer, index));
  const std::string p =
      index.empty() ? std::string(pointer) : std::string(pointer) + " + " + std::string(index);
  if (vector()) return "vload" + std::to_string(width_) + "(0, " + p + ")";
  return "(*" + paren(p) + ")";
}

std::string Spelling::vstore(DType t, std::string_view value, std::string_view pointer,
                             std::string_view index) const {
  if (dialect_ == Dialect::Glsl) return element(t, pointer, index) + " = " + std::string(value);
  const std::string p =
      index.empty() ? std::string(pointer) : std::string(pointer) + " + " + std::string(index);
  if (vector())
    return "vstore" + std::to_string(width_) + "(" + std::string(value) + ", 0, " + p + ")";
  return "*" + paren(p) + " = " + std::string(value);
}

}  // namespace switchyard::codegen

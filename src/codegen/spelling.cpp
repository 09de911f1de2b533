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
    .prelude_fp64 = "",
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
    .prelude_fp64 = "",
    .types = {"unsigned char", "int", "long long", "float", "double"},
    .unsigned_types = {"unsigned char", "unsigned int", "unsigned long long"},
    .vectors = false,
};

// C11 for the host's compiler (native CPU code): items are the entry's sy_item of sy_items.
constexpr DialectTable kC = {
    .kernel = "void",
    .kernel_fixed_group = "void",
    .helper = "static inline",
    .global = "",
    .local = "",
    .barrier = "",
    .global_id = "sy_item",
    .global_size = "sy_items",
    .local_id = "0",
    .group_id = "sy_item",
    .index = "long long",
    .int64_suffix = "",
    .infinity = "INFINITY",
    .predicate = "int",
    .no = "0",
    .all = " & ",
    .any = " | ",
    .precise = "",
    .prelude = "#include <math.h>\ntypedef struct { long long v[8]; } sy_dims;\n",
    .prelude_fp64 = "",
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
    // float64: IEEE specials for doubles too, their buffers, and the bit-level helpers every
    // double helper uses (classification by bits, so no compiler can assume NaN away).
    .prelude_fp64 =
        "spirv_execution_mode(extensions = [\"SPV_KHR_float_controls\"], capabilities = [4466], "
        "4461, 64);\n"
        "layout(buffer_reference, std430, buffer_reference_align = 8) buffer sy_buf_double "
        "{ double v[]; };\n"
        "sy_buf_double sy_at_double(sy_buf_double p, int64_t i) "
        "{ return sy_buf_double(uint64_t(p) + uint64_t(i) * 8ul); }\n"
        "double sy_make_f64(uint hi, uint lo) { return packDouble2x32(uvec2(lo, hi)); }\n"
        "double sy_nan_f64() { return sy_make_f64(0x7ff80000u, 0u); }\n"
        "double sy_inf_f64() { return sy_make_f64(0x7ff00000u, 0u); }\n"
        "bool sy_isnan_f64(double x) {\n"
        "  uvec2 u = unpackDouble2x32(x);\n"
        "  return (u.y & 0x7fffffffu) + (u.x != 0u ? 1u : 0u) > 0x7ff00000u;\n}\n"
        "bool sy_isinf_f64(double x) {\n"
        "  uvec2 u = unpackDouble2x32(x);\n"
        "  return (u.y & 0x7fffffffu) == 0x7ff00000u && u.x == 0u;\n}\n"
        "bool sy_isfinite_f64(double x) {\n"
        "  return (unpackDouble2x32(x).y & 0x7ff00000u) != 0x7ff00000u;\n}\n"
        "bool sy_signbit_f64(double x) { return (unpackDouble2x32(x).y >> 31) != 0u; }\n",
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
    // On the bits: b beyond a on a's side of zero makes |a| one step larger, anything else one
    // step smaller. Integer work only, so subnormals are exact even where a device flushes them.
    {"nextafter",
     {},
     "float sy_nextafter(float a, float b) {\n"
     "  uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);\n"
     "  uint ma = ua & 0x7fffffffu, mb = ub & 0x7fffffffu;\n"
     "  if (ma > 0x7f800000u || mb > 0x7f800000u) return a + b;\n"
     "  if (ua == ub || (ma | mb) == 0u) return b;\n"
     "  if (ma == 0u) return uintBitsToFloat((ub & 0x80000000u) | 1u);\n"
     "  bool away = ((ua ^ ub) & 0x80000000u) == 0u && mb > ma;\n"
     "  return uintBitsToFloat(away ? ua + 1u : ua - 1u);\n}\n"},
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

// GLSL's float64 forms of the C99 functions. GLSL 4.50 has double + - * / sqrt abs floor ceil
// trunc roundEven min max but no double transcendental, so these are fdlibm's (Sun's freely
// distributable libm, as FreeBSD and musl carry it): argument reductions with Cody–Waite splits
// of ln2 and pi/2, its minimax polynomials, its special cases. Every value another one's
// rounding error must not touch is `precise` (NoContraction), which keeps a compiler from
// fusing or re-associating the compensated steps. Bits are read and written through
// unpackDouble2x32 / packDouble2x32 (sy_make_f64); exponents are scaled by multiplying by
// exact powers of two, never by ldexp or frexp, whose double forms drivers may lower without
// subnormals.
constexpr GlslMath kGlslMath64[] = {
    {"copysign",
     {},
     R"(double sy_copysign_f64(double a, double b) {
  uvec2 u = unpackDouble2x32(a);
  u.y = (u.y & 0x7fffffffu) | (unpackDouble2x32(b).y & 0x80000000u);
  return packDouble2x32(u);
}
)"},
    // lavapipe (Mesa 22.3) rounds float64 ties to odd in roundEven, and its roundEven and trunc
    // return values past 2^26 unchanged (123456789.75); its floor is right, so both are made of
    // floor, with the operand's sign (NumPy's round(-0.3) is -0.0).
    {"trunc",
     {"copysign"},
     R"(double sy_trunc_f64(double x) {
  return sy_copysign_f64(floor(abs(x)), x);
}
)"},
    {"rint",
     {"copysign"},
     R"(double sy_rint_f64(double x) {
  double a = abs(x), f = floor(a), d = a - f;
  bool up = d > 0.5 || (d == 0.5 && floor(f * 0.5) * 2.0 != f);
  return sy_copysign_f64(up ? f + 1.0 : f, x);
}
)"},
    // As the float32 form, on the 64 bits.
    {"nextafter",
     {},
     R"(double sy_nextafter_f64(double a, double b) {
  uvec2 u = unpackDouble2x32(a), v = unpackDouble2x32(b);
  uint64_t ua = (uint64_t(u.y) << 32) | uint64_t(u.x), ub = (uint64_t(v.y) << 32) | uint64_t(v.x);
  uint64_t ma = ua & 0x7ffffffffffffffful, mb = ub & 0x7ffffffffffffffful;
  if (ma > 0x7ff0000000000000ul || mb > 0x7ff0000000000000ul) return a + b;
  if (ua == ub || (ma | mb) == 0ul) return b;
  if (ma == 0ul) return sy_make_f64(v.y & 0x80000000u, 1u);
  bool away = ((ua ^ ub) >> 63) == 0ul && mb > ma;
  uint64_t r = away ? ua + 1ul : ua - 1ul;
  return sy_make_f64(uint(r >> 32), uint(r));
}
)"},
    // x 2^n with one rounding (musl's scalbn): at most two steps of 2^±969 or 2^1023 first.
    {"scalbn",
     {},
     R"(double sy_scalbn_f64(double x, int n) {
  if (n > 1023) {
    x *= sy_make_f64(0x7fe00000u, 0u);
    n -= 1023;
    if (n > 1023) {
      x *= sy_make_f64(0x7fe00000u, 0u);
      n = min(n - 1023, 1023);
    }
  } else if (n < -1022) {
    x *= sy_make_f64(0x03600000u, 0u);
    n += 969;
    if (n < -1022) {
      x *= sy_make_f64(0x03600000u, 0u);
      n = max(n + 969, -1022);
    }
  }
  return x * sy_make_f64(uint(n + 1023) << 20, 0u);
}
)"},
    // a b = p + e exactly (Dekker's product, Veltkamp's split); |a b| below 2^995.
    {"two_prod",
     {},
     R"(double sy_two_prod_f64(double a, double b, out double e) {
  precise double ca = 134217729.0lf * a, cb = 134217729.0lf * b;
  precise double ah = ca - (ca - a), bh = cb - (cb - b);
  precise double al = a - ah, bl = b - bh;
  precise double p = a * b;
  precise double r = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  e = r;
  return p;
}
)"},
    // Exact, as C's: on the integer significands, |a| = ma 2^ea and |b| = mb 2^eb, the
    // remainder of ma 2^(ea - eb) by mb taken 11 bits of the exponent difference at a time
    // (ma < 2^53, so ma << 11 fits 64 bits): at most 191 steps.
    {"fmod",
     {"copysign", "scalbn"},
     R"(double sy_fmod_f64(double a, double b) {
  double x = abs(a), y = abs(b);
  bool invalid = sy_isnan_f64(a) || sy_isnan_f64(b) || sy_isinf_f64(a) || y == 0.0lf;
  if (invalid || x < y) return invalid ? sy_nan_f64() : a;
  uvec2 u = unpackDouble2x32(x), v = unpackDouble2x32(y);
  int ex = int(u.y >> 20), ey = int(v.y >> 20);
  uint64_t mx = (uint64_t(u.y & 0xfffffu) << 32) | uint64_t(u.x);
  uint64_t my = (uint64_t(v.y & 0xfffffu) << 32) | uint64_t(v.x);
  if (ex > 0) mx |= 0x10000000000000ul;
  if (ey > 0) my |= 0x10000000000000ul;
  ex = max(ex, 1);
  ey = max(ey, 1);
  mx %= my;
  for (int d = ex - ey; d > 0; d -= 11) mx = (mx << uint(min(d, 11))) % my;
  return sy_copysign_f64(sy_scalbn_f64(double(mx), ey - 1075), a);
}
)"},
    // Scaled by 2^-600 or 2^600 when the squares could overflow or underflow; an infinity wins
    // over NaN, as in C.
    {"hypot",
     {},
     R"(double sy_hypot_f64(double a, double b) {
  double x = abs(a), y = abs(b);
  if (sy_isinf_f64(x) || sy_isinf_f64(y)) return sy_inf_f64();
  if (sy_isnan_f64(x) || sy_isnan_f64(y)) return x + y;
  double m = max(x, y), s = min(x, y), scale = 1.0lf;
  if (s == 0.0lf || m > s * 1152921504606846976.0lf) return m + s;
  if (m > sy_make_f64(0x5f300000u, 0u)) {
    m *= sy_make_f64(0x1a700000u, 0u);
    s *= sy_make_f64(0x1a700000u, 0u);
    scale = sy_make_f64(0x65700000u, 0u);
  } else if (s < sy_make_f64(0x20b00000u, 0u)) {
    m *= sy_make_f64(0x65700000u, 0u);
    s *= sy_make_f64(0x65700000u, 0u);
    scale = sy_make_f64(0x1a700000u, 0u);
  }
  return sqrt(m * m + s * s) * scale;
}
)"},
    {"sqrt",
     {},
     R"(double sy_sqrt_f64(double x) {
  return x < 0.0lf ? sy_nan_f64() : sqrt(x);
}
)"},
    // fdlibm's e_exp: x = k ln2 + r (ln2 in two parts, k ln2's first exact, |r| <= ln2 / 2),
    // exp(r) = 1 + r + r c / (2 - c) with c a minimax polynomial in r^2.
    {"exp",
     {"scalbn"},
     R"(double sy_exp_f64(double x) {
  if (sy_isnan_f64(x)) return x;
  if (x > 709.782712893383973096lf) return sy_inf_f64();
  if (x < -745.13321910194110842lf) return 0.0lf;
  if (abs(x) < 7.450580596923828125e-9lf) return 1.0lf + x;
  double k = roundEven(x * 1.44269504088896338700lf);
  precise double hi = x - k * 6.93147180369123816490e-01lf;
  precise double lo = k * 1.90821492927058770002e-10lf;
  precise double r = hi - lo;
  double z = r * r;
  double c = r - z * (1.66666666666666019037e-01lf + z * (-2.77777777770155933842e-03lf +
             z * (6.61375632143793436117e-05lf + z * (-1.65339022054652515390e-06lf +
             z * 4.13813679705723846039e-08lf))));
  precise double y = 1.0lf - ((lo - (r * c) / (2.0lf - c)) - hi);
  return sy_scalbn_f64(y, int(k));
}
)"},
    // x > 0 finite as 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2)); f exact (fdlibm's e_log).
    {"log_reduce",
     {},
     R"(double sy_log_reduce_f64(double x, out int k) {
  uvec2 u = unpackDouble2x32(x);
  k = 0;
  if (u.y < 0x00100000u) {
    u = unpackDouble2x32(x * 18014398509481984.0lf);
    k = -54;
  }
  uint h = u.y + (0x3ff00000u - 0x3fe6a09eu);
  k += int(h >> 20) - 1023;
  u.y = (h & 0x000fffffu) + 0x3fe6a09eu;
  return packDouble2x32(u) - 1.0lf;
}
)"},
    // log(1 + f) - f + f^2 / 2 = s (f^2 / 2 + R(s^2)), s = f / (2 + f): fdlibm's polynomial.
    {"log_poly",
     {},
     R"(double sy_log_poly_f64(double f, double hfsq) {
  double s = f / (2.0lf + f), z = s * s, w = z * z;
  double t1 = w * (3.999999999940941908e-01lf + w * (2.222219843214978396e-01lf +
              w * 1.531383769920937332e-01lf));
  double t2 = z * (6.666666666666735130e-01lf + w * (2.857142874366239149e-01lf +
              w * (1.818357216161805012e-01lf + w * 1.479819860511658591e-01lf)));
  return s * (hfsq + (t2 + t1));
}
)"},
    {"log",
     {"log_reduce", "log_poly"},
     R"(double sy_log_f64(double x) {
  if (!(x > 0.0lf) || sy_isinf_f64(x))
    return x == 0.0lf ? -sy_inf_f64() : (x > 0.0lf || sy_isnan_f64(x) ? x : sy_nan_f64());
  int k;
  double f = sy_log_reduce_f64(x, k);
  double dk = double(k);
  precise double hfsq = 0.5lf * f * f;
  precise double r = sy_log_poly_f64(f, hfsq) + dk * 1.90821492927058770002e-10lf - hfsq + f +
                     dk * 6.93147180369123816490e-01lf;
  return r;
}
)"},
    {"log2",
     {"log_reduce", "log_poly"},
     R"(double sy_log2_f64(double x) {
  if (!(x > 0.0lf) || sy_isinf_f64(x))
    return x == 0.0lf ? -sy_inf_f64() : (x > 0.0lf || sy_isnan_f64(x) ? x : sy_nan_f64());
  int k;
  double f = sy_log_reduce_f64(x, k);
  precise double hfsq = 0.5lf * f * f;
  precise double l = f - (hfsq - sy_log_poly_f64(f, hfsq));
  precise double r = double(k) + l * 1.44269504088896338700lf;
  return r;
}
)"},
    {"log10",
     {"log_reduce", "log_poly"},
     R"(double sy_log10_f64(double x) {
  if (!(x > 0.0lf) || sy_isinf_f64(x))
    return x == 0.0lf ? -sy_inf_f64() : (x > 0.0lf || sy_isnan_f64(x) ? x : sy_nan_f64());
  int k;
  double f = sy_log_reduce_f64(x, k);
  double dk = double(k);
  precise double hfsq = 0.5lf * f * f;
  precise double l = f - (hfsq - sy_log_poly_f64(f, hfsq));
  precise double r = dk * 3.01029995663611771306e-01lf +
                     (dk * 3.69423907715893078616e-13lf + l * 4.34294481903251816668e-01lf);
  return r;
}
)"},
    // log(u) x / (u - 1), u = 1 + x rounded (Goldberg): within a few ulp wherever log is.
    {"log1p",
     {"log"},
     R"(double sy_log1p_f64(double x) {
  if (!(x > -1.0lf)) return x == -1.0lf ? -sy_inf_f64() : (sy_isnan_f64(x) ? x : sy_nan_f64());
  if (sy_isinf_f64(x)) return x;
  precise double u = 1.0lf + x;
  if (u == 1.0lf) return x;
  precise double d = u - 1.0lf;
  return sy_log_f64(u) * (x / d);
}
)"},
    // (u - 1) x / log(u), u = exp(x) rounded (Kahan) below 1 in magnitude; exp(x) - 1 beyond.
    {"expm1",
     {"exp", "log"},
     R"(double sy_expm1_f64(double x) {
  if (!(abs(x) < 1.0lf)) return sy_exp_f64(x) - 1.0lf;
  precise double u = sy_exp_f64(x);
  if (u == 1.0lf) return x;
  precise double d = u - 1.0lf;
  return d * (x / sy_log_f64(u));
}
)"},
    // log(x) = h + l for finite x > 0 within about 2^-60 relative, for pow: x = 2^k (1 + f),
    // log(1 + f) = 2 atanh(s), s = f / (2 + f) carried in two parts, the series to s^27.
    {"log_dd",
     {"log_reduce", "two_prod"},
     R"(double sy_log_dd_f64(double x, out double lo) {
  int k;
  double f = sy_log_reduce_f64(x, k);
  double dk = double(k), e;
  precise double d = 2.0lf + f;
  precise double dl = f - (d - 2.0lf);
  precise double s = f / d;
  precise double p = sy_two_prod_f64(s, d, e);
  precise double sl = (((f - p) - e) - s * dl) / d;
  precise double z = s * s;
  precise double t = s * z * (6.6666666666666663e-01lf + z * (4.0000000000000002e-01lf +
                     z * (2.8571428571428570e-01lf + z * (2.2222222222222221e-01lf +
                     z * (1.8181818181818182e-01lf + z * (1.5384615384615385e-01lf +
                     z * (1.3333333333333333e-01lf + z * (1.1764705882352941e-01lf +
                     z * (1.0526315789473684e-01lf + z * (9.5238095238095233e-02lf +
                     z * (8.6956521739130432e-02lf + z * (8.0000000000000002e-02lf +
                     z * 7.4074074074074070e-02lf))))))))))));
  precise double a = dk * 6.93147180369123816490e-01lf, b = 2.0lf * s;
  precise double h = a + b;
  precise double bb = h - a;
  precise double err = (a - (h - bb)) + (b - bb);
  precise double l = err + ((2.0lf * sl + t) + dk * 1.90821492927058770002e-10lf);
  precise double hi = h + l;
  precise double tail = l - (hi - h);
  lo = tail;
  return hi;
}
)"},
    // C's pow: its special cases, the sign of odd integer powers of negative bases;
    // otherwise exp(b log|a|) with log|a| and the product in two parts, the tail applied as
    // exp(h + t) = exp(h) (1 + t).
    {"pow",
     {"log_dd", "two_prod", "exp"},
     R"(double sy_pow_f64(double a, double b) {
  if (b == 0.0lf || a == 1.0lf) return 1.0lf;
  if (sy_isnan_f64(a) || sy_isnan_f64(b)) return a + b;
  double m = abs(a), inf = sy_inf_f64();
  if (sy_isinf_f64(b)) return m == 1.0lf ? 1.0lf : ((m > 1.0lf) == (b > 0.0lf) ? inf : 0.0lf);
  bool integral = trunc(b) == b;
  if (a < 0.0lf && !integral && !sy_isinf_f64(a)) return sy_nan_f64();
  bool odd = integral && abs(b) < 9007199254740992.0lf && (int64_t(b) & 1l) == 1l;
  double r;
  if (m == 0.0lf || sy_isinf_f64(m)) {
    r = (m == 0.0lf) == (b < 0.0lf) ? inf : 0.0lf;
  } else {
    double l, h = sy_log_dd_f64(m, l);
    double q = b * h;
    if (q > 710.0lf) {
      r = inf;
    } else if (q < -746.0lf) {
      r = 0.0lf;
    } else {
      double e;
      precise double p = sy_two_prod_f64(b, h, e);
      precise double t = e + b * l;
      precise double s = p + t;
      precise double u = t - (s - p);
      precise double x = sy_exp_f64(s);
      r = sy_isinf_f64(x) ? x : x + x * u;
    }
  }
  return odd && sy_signbit_f64(a) ? -r : r;
}
)"},
    // fdlibm's e_rem_pio2 for |x| < 2^20 pi/2: x - n pi/2 = y0 + y1 with pi/2 in three parts
    // of 33 bits (each n pi/2_i exact), the later parts taken only when the earlier cancel.
    // Beyond, Payne–Hanek: the 53-bit significand times the 192 bits of 2/pi that matter at
    // its exponent (the bits above give multiples of 4), in 32-bit limbs; the fraction's
    // leading 128 bits then times pi/2.
    {"rem_pio2",
     {"two_prod"},
     R"(uint64_t sy_window_f64(uint64_t p[9], int pos) {
  if (pos <= -64) return 0ul;
  int i = max(pos, 0) >> 5;
  uint sh = uint(max(pos, 0) & 31);
  uint64_t lo = (i < 9 ? p[min(i, 8)] : 0ul) | ((i + 1 < 9 ? p[min(i + 1, 8)] : 0ul) << 32);
  uint64_t hi = i + 2 < 9 ? p[min(i + 2, 8)] : 0ul;
  uint64_t v = sh == 0u ? lo : (lo >> sh) | (hi << (64u - sh));
  return pos < 0 ? v << uint(-pos) : v;
}

int sy_rem_pio2_large_f64(double x, out double y0, out double y1) {
  const uint two_over_pi[40] = uint[](
      0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u,
      0xFE5163ABu, 0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu,
      0xFE1DEB1Cu, 0xB129A73Eu, 0xE88235F5u, 0x2EBB4484u, 0xE99C7026u, 0xB45F7E41u,
      0x3991D639u, 0x835339F4u, 0x9C845F8Bu, 0xBDF9283Bu, 0x1FF897FFu, 0xDE05980Fu,
      0xEF2F118Bu, 0x5A0A6D1Fu, 0x6D367ECFu, 0x27CB09B7u, 0x4F463F66u, 0x9E5FEA2Du,
      0x7527BAC7u, 0xEBE5F17Bu, 0x3D0739F7u, 0x8A5292EAu, 0x6BFB5FB1u, 0x1F8D5D08u,
      0x56033046u, 0xFC7B6BABu, 0xF0CFBC20u, 0x9AF4361Du);
  uvec2 u = unpackDouble2x32(x);
  int e = int((u.y >> 20) & 0x7ffu) - 1075;
  uint64_t mh = uint64_t((u.y & 0xfffffu) | 0x100000u), ml = uint64_t(u.x);
  int j0 = e >= 34 ? (e - 34) / 32 + 1 : 0;
  uint64_t p[9] = uint64_t[](0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul);
  for (int k = 0; k < 6; ++k) {
    uint64_t w = uint64_t(two_over_pi[j0 + k]), a = ml * w, b = mh * w;
    int q = 5 - k;
    p[q] += a & 0xfffffffful;
    p[q + 1] += (a >> 32) + (b & 0xfffffffful);
    p[q + 2] += b >> 32;
  }
  for (int i = 0; i < 8; ++i) {
    p[i + 1] += p[i] >> 32;
    p[i] &= 0xfffffffful;
  }
  int point = 160 - (e - 32 * j0 - 32);
  uint n = uint(sy_window_f64(p, point)) & 3u;
  uint64_t f0 = sy_window_f64(p, point - 64), f1 = sy_window_f64(p, point - 128),
           f2 = sy_window_f64(p, point - 192);
  bool negative = (f0 >> 63) != 0ul;
  if (negative) {
    f2 = ~f2 + 1ul;
    f1 = ~f1 + (f2 == 0ul ? 1ul : 0ul);
    f0 = ~f0 + (f2 == 0ul && f1 == 0ul ? 1ul : 0ul);
    n += 1u;
  }
  int shift = 64;
  if (f0 == 0ul) {
    f0 = f1;
    f1 = f2;
    shift += 64;
  }
  uint top = uint(f0 >> 32);
  int lz = 63 - (top != 0u ? findMSB(top) + 32 : findMSB(uint(f0)));
  if (lz > 0) {
    f0 = (f0 << uint(lz)) | (f1 >> uint(64 - lz));
    f1 <<= uint(lz);
  }
  shift += lz;
  double scale = sy_make_f64(uint(1023 - shift) << 20, 0u);
  double fh = double(f0 & 0xfffffffffffff800ul) * scale;
  double fl = (double(f0 & 0x7fful) + double(f1) * 5.42101086242752217004e-20lf) * scale;
  double t;
  precise double h = sy_two_prod_f64(fh, 1.57079632679489655800e+00lf, t);
  precise double l = t + (fh * 6.12323399573676603587e-17lf + fl * 1.57079632679489655800e+00lf);
  precise double r0 = h + l;
  precise double r1 = l - (r0 - h);
  bool flip = negative != (x < 0.0lf);
  y0 = flip ? -r0 : r0;
  y1 = flip ? -r1 : r1;
  return int(x < 0.0lf ? (4u - n) & 3u : n);
}

int sy_rem_pio2_f64(double x, out double y0, out double y1) {
  if (abs(x) >= 1647099.3291652855lf) return sy_rem_pio2_large_f64(x, y0, y1);
  precise double fn = roundEven(x * 6.36619772367581382433e-01lf);
  precise double r = x - fn * 1.57079632673412561417e+00lf;
  precise double w = fn * 6.07710050650619224932e-11lf;
  precise double y = r - w;
  int j = int((unpackDouble2x32(x).y >> 20) & 0x7ffu);
  if (j - int((unpackDouble2x32(y).y >> 20) & 0x7ffu) > 16) {
    precise double t = r;
    w = fn * 6.07710050630396597660e-11lf;
    r = t - w;
    w = fn * 2.02226624879595063154e-21lf - ((t - r) - w);
    y = r - w;
    if (j - int((unpackDouble2x32(y).y >> 20) & 0x7ffu) > 49) {
      t = r;
      w = fn * 2.02226624871116645580e-21lf;
      r = t - w;
      w = fn * 8.47842766036889956997e-32lf - ((t - r) - w);
      y = r - w;
    }
  }
  precise double tail = (r - y) - w;
  y0 = y;
  y1 = tail;
  return int(fn);
}
)"},
    // fdlibm's kernels on [-pi/4, pi/4], x + y the reduced argument.
    {"kernel_sin",
     {},
     R"(double sy_kernel_sin_f64(double x, double y) {
  double z = x * x, v = z * x;
  double r = 8.33333333332248946124e-03lf + z * (-1.98412698298579493134e-04lf +
             z * (2.75573137070700676789e-06lf + z * (-2.50507602534068634195e-08lf +
             z * 1.58969099521155010221e-10lf)));
  precise double s = x - ((z * (0.5lf * y - v * r) - y) - v * -1.66666666666666324348e-01lf);
  return s;
}
)"},
    {"kernel_cos",
     {},
     R"(double sy_kernel_cos_f64(double x, double y) {
  double z = x * x, w = z * z;
  double r = z * (4.16666666666666019037e-02lf + z * (-1.38888888888741095749e-03lf +
             z * 2.48015872894767294178e-05lf)) +
             w * w * (-2.75573143513906633035e-07lf + z * (2.08757232129817482790e-09lf +
             z * -1.13596475577881948265e-11lf));
  precise double hz = 0.5lf * z;
  precise double v = 1.0lf - hz;
  precise double c = v + (((1.0lf - v) - hz) + (z * r - x * y));
  return c;
}
)"},
    // tan(x + y) (odd false) or -1 / tan(x + y) (odd true).
    {"kernel_tan",
     {},
     R"(double sy_kernel_tan_f64(double x, double y, bool odd) {
  bool big = abs(x) >= 0.6744lf, negative = x < 0.0lf;
  if (big) {
    if (negative) {
      x = -x;
      y = -y;
    }
    precise double a = (7.85398163397448278999e-01lf - x) + (3.06161699786838301793e-17lf - y);
    x = a;
    y = 0.0lf;
  }
  double z = x * x, w = z * z;
  double r = 1.33333333333201242699e-01lf + w * (2.18694882948595424599e-02lf +
             w * (3.59207910759131235356e-03lf + w * (5.88041240820264096874e-04lf +
             w * (7.81794442939557092300e-05lf + w * -1.85586374855275456654e-05lf))));
  double v = z * (5.39682539762260521377e-02lf + w * (8.86323982359930005737e-03lf +
             w * (1.45620945432529025516e-03lf + w * (2.46463134818469906812e-04lf +
             w * (7.14072491382608190305e-05lf + w * 2.59073051863633712884e-05lf)))));
  double s = z * x;
  precise double q = y + z * (s * (r + v) + y) + s * 3.33333333333334091986e-01lf;
  precise double t = x + q;
  if (big) {
    double g = odd ? -1.0lf : 1.0lf;
    precise double b = g - 2.0lf * (x + (q - t * t / (t + g)));
    return negative ? -b : b;
  }
  if (!odd) return t;
  double t0 = packDouble2x32(uvec2(0u, unpackDouble2x32(t).y));
  precise double d = q - (t0 - x);
  double c = -1.0lf / t;
  double c0 = packDouble2x32(uvec2(0u, unpackDouble2x32(c).y));
  precise double res = c0 + c * (1.0lf + c0 * t0 + c0 * d);
  return res;
}
)"},
    {"sin",
     {"rem_pio2", "kernel_sin", "kernel_cos"},
     R"(double sy_sin_f64(double x) {
  if (!sy_isfinite_f64(x)) return sy_nan_f64();
  if (abs(x) < 7.450580596923828125e-9lf) return x;
  if (abs(x) <= 7.85398163397448278999e-01lf) return sy_kernel_sin_f64(x, 0.0lf);
  double y0, y1;
  int n = sy_rem_pio2_f64(x, y0, y1) & 3;
  double r = (n & 1) == 0 ? sy_kernel_sin_f64(y0, y1) : sy_kernel_cos_f64(y0, y1);
  return n >= 2 ? -r : r;
}
)"},
    {"cos",
     {"rem_pio2", "kernel_sin", "kernel_cos"},
     R"(double sy_cos_f64(double x) {
  if (!sy_isfinite_f64(x)) return sy_nan_f64();
  if (abs(x) <= 7.85398163397448278999e-01lf) return sy_kernel_cos_f64(x, 0.0lf);
  double y0, y1;
  int n = sy_rem_pio2_f64(x, y0, y1) & 3;
  double r = (n & 1) == 0 ? sy_kernel_cos_f64(y0, y1) : sy_kernel_sin_f64(y0, y1);
  return n == 1 || n == 2 ? -r : r;
}
)"},
    {"tan",
     {"rem_pio2", "kernel_tan"},
     R"(double sy_tan_f64(double x) {
  if (!sy_isfinite_f64(x)) return sy_nan_f64();
  if (abs(x) < 7.450580596923828125e-9lf) return x;
  if (abs(x) <= 7.85398163397448278999e-01lf) return sy_kernel_tan_f64(x, 0.0lf, false);
  double y0, y1;
  int n = sy_rem_pio2_f64(x, y0, y1);
  return sy_kernel_tan_f64(y0, y1, (n & 1) == 1);
}
)"},
    // fdlibm's s_atan: |x| reduced to [0, 7/16] by atan(x) = atan(c) + atan((x - c) / (1 + x c))
    // for c in 0.5, 1, 1.5, inf; a minimax polynomial there.
    {"atan",
     {"copysign"},
     R"(double sy_atan_f64(double x) {
  if (sy_isnan_f64(x)) return x;
  double a = abs(x);
  if (a >= 7.3786976294838206464e19lf) return sy_copysign_f64(1.57079632679489655800e+00lf, x);
  if (a < 7.450580596923828125e-9lf) return x;
  int id = -1;
  double hi = 0.0lf, lo = 0.0lf;
  if (a >= 0.4375lf) {
    if (a < 0.6875lf) {
      id = 0;
      a = (2.0lf * a - 1.0lf) / (2.0lf + a);
      hi = 4.63647609000806093515e-01lf;
      lo = 2.26987774529616870924e-17lf;
    } else if (a < 1.1875lf) {
      id = 1;
      a = (a - 1.0lf) / (a + 1.0lf);
      hi = 7.85398163397448278999e-01lf;
      lo = 3.06161699786838301793e-17lf;
    } else if (a < 2.4375lf) {
      id = 2;
      a = (a - 1.5lf) / (1.0lf + 1.5lf * a);
      hi = 9.82793723247329054082e-01lf;
      lo = 1.39033110312309984516e-17lf;
    } else {
      id = 3;
      a = -1.0lf / a;
      hi = 1.57079632679489655800e+00lf;
      lo = 6.12323399573676603587e-17lf;
    }
  }
  double z = a * a, w = z * z;
  double s1 = z * (3.33333333333329318027e-01lf + w * (1.42857142725034663711e-01lf +
              w * (9.09088713343650656196e-02lf + w * (6.66107313738753120669e-02lf +
              w * (4.97687799461593236017e-02lf + w * 1.62858201153657823623e-02lf)))));
  double s2 = w * (-1.99999999998764832476e-01lf + w * (-1.11111104054623557880e-01lf +
              w * (-7.69187620504482999495e-02lf + w * (-5.83357013379057348645e-02lf +
              w * -3.65315727442169155270e-02lf))));
  precise double r = id < 0 ? a - a * (s1 + s2) : hi - ((a * (s1 + s2) - lo) - a);
  return sy_copysign_f64(r, x);
}
)"},
    // fdlibm's rational approximation of (asin(x) - x) / x^3 in x^2, for asin and acos.
    {"asin_r",
     {},
     R"(double sy_asin_r_f64(double t) {
  double p = t * (1.66666666666666657415e-01lf + t * (-3.25565818622400915405e-01lf +
             t * (2.01212532134862925881e-01lf + t * (-4.00555345006794114027e-02lf +
             t * (7.91534994289814532176e-04lf + t * 3.47933107596021167570e-05lf)))));
  double q = 1.0lf + t * (-2.40339491173441421878e+00lf + t * (2.02094576023350569471e+00lf +
             t * (-6.88283971605453293030e-01lf + t * 7.70381505559019352791e-02lf)));
  return p / q;
}
)"},
    // fdlibm's e_asin: the polynomial below 0.5; asin(x) = pi/2 - 2 asin(sqrt((1 - x) / 2))
    // above, sqrt's rounding carried separately.
    {"asin",
     {"asin_r", "copysign"},
     R"(double sy_asin_f64(double x) {
  double a = abs(x);
  if (!(a <= 1.0lf)) return sy_nan_f64();
  if (a < 7.450580596923828125e-9lf) return x;
  if (a < 0.5lf) {
    precise double r = a + a * sy_asin_r_f64(a * a);
    return sy_copysign_f64(r, x);
  }
  double t = (1.0lf - a) * 0.5lf, s = sqrt(t), w = sy_asin_r_f64(t);
  precise double r;
  if (a >= 0.975lf) {
    r = 1.57079632679489655800e+00lf - (2.0lf * (s + s * w) - 6.12323399573676603587e-17lf);
  } else {
    double f = packDouble2x32(uvec2(0u, unpackDouble2x32(s).y));
    precise double c = (t - f * f) / (s + f);
    precise double p = 2.0lf * s * w - (6.12323399573676603587e-17lf - 2.0lf * c);
    precise double q = 7.85398163397448278999e-01lf - 2.0lf * f;
    r = 7.85398163397448278999e-01lf - (p - q);
  }
  return sy_copysign_f64(r, x);
}
)"},
    {"acos",
     {"asin_r"},
     R"(double sy_acos_f64(double x) {
  if (!(abs(x) <= 1.0lf)) return sy_nan_f64();
  if (x == 1.0lf) return 0.0lf;
  if (x == -1.0lf) return 3.14159265358979311600e+00lf;
  if (abs(x) < 0.5lf) {
    precise double r = 1.57079632679489655800e+00lf -
                       (x - (6.12323399573676603587e-17lf - x * sy_asin_r_f64(x * x)));
    return r;
  }
  if (x < 0.0lf) {
    double z = (1.0lf + x) * 0.5lf, s = sqrt(z);
    precise double w = sy_asin_r_f64(z) * s - 6.12323399573676603587e-17lf;
    precise double r = 3.14159265358979311600e+00lf - 2.0lf * (s + w);
    return r;
  }
  double z = (1.0lf - x) * 0.5lf, s = sqrt(z);
  double f = packDouble2x32(uvec2(0u, unpackDouble2x32(s).y));
  precise double c = (z - f * f) / (s + f);
  precise double w = sy_asin_r_f64(z) * s + c;
  precise double r = 2.0lf * (f + w);
  return r;
}
)"},
    // C's atan2 at zeros and infinities; atan(|y / x|) placed in its quadrant elsewhere
    // (fdlibm's e_atan2, pi's rounding carried when it is subtracted from).
    {"atan2",
     {"atan", "copysign"},
     R"(double sy_atan2_f64(double y, double x) {
  if (sy_isnan_f64(x) || sy_isnan_f64(y)) return x + y;
  bool west = sy_signbit_f64(x);
  double pi = 3.14159265358979311600e+00lf, r;
  if (y == 0.0lf) {
    r = west ? pi : 0.0lf;
  } else if (sy_isinf_f64(x) && sy_isinf_f64(y)) {
    r = west ? 2.35619449019234483700e+00lf : 7.85398163397448278999e-01lf;
  } else if (sy_isinf_f64(x)) {
    r = west ? pi : 0.0lf;
  } else if (sy_isinf_f64(y) || x == 0.0lf) {
    r = 1.57079632679489655800e+00lf;
  } else {
    double ay = abs(y), ax = abs(x), z;
    int k = int(unpackDouble2x32(ay).y >> 20) - int(unpackDouble2x32(ax).y >> 20);
    if (k > 60) z = 1.57079632679489655800e+00lf;
    else if (west && k < -60) z = 0.0lf;
    else z = sy_atan_f64(ay / ax);
    precise double w = pi - (z - 1.2246467991473531772e-16lf);
    r = west ? w : z;
  }
  return sy_copysign_f64(r, y);
}
)"},
    // fdlibm's hyperbolic functions: from expm1 near 0, exp(|x|) / 2 beyond 22, and
    // exp(|x| / 2)^2 / 2 near overflow.
    {"sinh",
     {"exp", "expm1", "copysign"},
     R"(double sy_sinh_f64(double x) {
  double a = abs(x), r;
  if (!(a < 22.0lf)) {
    if (sy_isnan_f64(x)) return x;
    if (a < 709.78lf) {
      r = 0.5lf * sy_exp_f64(a);
    } else {
      double w = sy_exp_f64(0.5lf * a);
      r = (0.5lf * w) * w;
    }
  } else if (a < 7.450580596923828125e-9lf) {
    return x;
  } else {
    double t = sy_expm1_f64(a);
    r = a < 1.0lf ? 0.5lf * (2.0lf * t - t * t / (t + 1.0lf)) : 0.5lf * (t + t / (t + 1.0lf));
  }
  return sy_copysign_f64(r, x);
}
)"},
    {"cosh",
     {"exp", "expm1"},
     R"(double sy_cosh_f64(double x) {
  double a = abs(x);
  if (sy_isnan_f64(x)) return x;
  if (a < 0.3465735902799726547lf) {
    double t = sy_expm1_f64(a), w = 1.0lf + t;
    return 1.0lf + (t * t) / (w + w);
  }
  if (a < 22.0lf) {
    double t = sy_exp_f64(a);
    return 0.5lf * t + 0.5lf / t;
  }
  if (a < 709.78lf) return 0.5lf * sy_exp_f64(a);
  double w = sy_exp_f64(0.5lf * a);
  return (0.5lf * w) * w;
}
)"},
    {"tanh",
     {"expm1", "copysign"},
     R"(double sy_tanh_f64(double x) {
  double a = abs(x), z;
  if (sy_isnan_f64(x)) return x;
  if (a >= 22.0lf) {
    z = 1.0lf;
  } else if (a < 2.77555756156289135e-17lf) {
    return x;
  } else if (a >= 1.0lf) {
    z = 1.0lf - 2.0lf / (sy_expm1_f64(2.0lf * a) + 2.0lf);
  } else {
    double t = sy_expm1_f64(-2.0lf * a);
    z = -t / (t + 2.0lf);
  }
  return sy_copysign_f64(z, x);
}
)"},
    {"asinh",
     {"log", "log1p", "copysign"},
     R"(double sy_asinh_f64(double x) {
  double a = abs(x), w;
  if (!sy_isfinite_f64(x)) return x + x;
  if (a < 3.7252902984619140625e-9lf) return x;
  if (a > 268435456.0lf) {
    w = sy_log_f64(a) + 6.93147180559945286227e-01lf;
  } else if (a > 2.0lf) {
    w = sy_log_f64(2.0lf * a + 1.0lf / (sqrt(a * a + 1.0lf) + a));
  } else {
    double t = a * a;
    w = sy_log1p_f64(a + t / (1.0lf + sqrt(1.0lf + t)));
  }
  return sy_copysign_f64(w, x);
}
)"},
    {"acosh",
     {"log", "log1p"},
     R"(double sy_acosh_f64(double x) {
  if (!(x >= 1.0lf)) return sy_isnan_f64(x) ? x : sy_nan_f64();
  if (x >= 268435456.0lf) return sy_isinf_f64(x) ? x : sy_log_f64(x) + 6.93147180559945286227e-01lf;
  if (x > 2.0lf) return sy_log_f64(2.0lf * x - 1.0lf / (x + sqrt(x * x - 1.0lf)));
  double t = x - 1.0lf;
  return sy_log1p_f64(t + sqrt(2.0lf * t + t * t));
}
)"},
    {"atanh",
     {"log1p", "copysign"},
     R"(double sy_atanh_f64(double x) {
  double a = abs(x), t;
  if (!(a <= 1.0lf)) return sy_isnan_f64(x) ? x : sy_nan_f64();
  if (a == 1.0lf) return sy_copysign_f64(sy_inf_f64(), x);
  if (a < 3.7252902984619140625e-9lf) return x;
  if (a < 0.5lf) {
    t = a + a;
    t = 0.5lf * sy_log1p_f64(t + t * a / (1.0lf - a));
  } else {
    t = 0.5lf * sy_log1p_f64((a + a) / (1.0lf - a));
  }
  return sy_copysign_f64(t, x);
}
)"},
};

const GlslMath* glsl_math(std::string_view name, DType t) {
  if (t == DType::Float64) {
    for (const GlslMath& m : kGlslMath64)
      if (m.name == name) return &m;
    return nullptr;
  }
  for (const GlslMath& m : kGlslMath)
    if (m.name == name) return &m;
  return nullptr;
}

void add_glsl_math(const GlslMath& m, DType t,
                   std::vector<std::pair<std::string_view, std::string_view>>& out) {
  for (std::string_view dep : m.deps)
    if (!dep.empty()) add_glsl_math(*glsl_math(dep, t), t, out);
  // The (first) function's name: between the return type and '('.
  const std::size_t begin = m.definition.find(' ') + 1;
  const std::string_view fn = m.definition.substr(begin, m.definition.find('(') - begin);
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
    case Dialect::C:
      return kC;
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
  // GLSL's unsuffixed floating literals are float: a double constant needs `lf`.
  if (dialect_ == Dialect::Glsl && t == DType::Float64 &&
      value.find_first_not_of("0123456789.eE+-") == std::string_view::npos &&
      value.find('.') != std::string_view::npos)
    return cast(scalar_type(t), std::string(value) + "lf");
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
  const bool overloaded =
      name == "isnan" || name == "isinf" || name == "isfinite" || name == "signbit";
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
  if (dialect_ == Dialect::Glsl && t == DType::Float64) {
    // The classifications read the bits (sy_isnan_f64, ... in prelude_fp64); the exact
    // builtins keep their names; the rest are helpers (kGlslMath64).
    if (name == "fabs") f = "abs";
    if (overloaded || glsl_math(name, t)) f = "sy_" + f + "_f64";
    f += "(" + std::string(a);
    if (!b.empty()) f += ", " + std::string(b);
    return f + ")";
  }
  if (through_float64(name, t)) {
    if (dialect_ == Dialect::OpenCL) {
      // Four doubles at a time at most: PoCL's double8 takes AVX-512 registers its target may
      // not have (clang then warns on stderr that the ABI changes).
      if (width_ <= 4)
        return "convert_" + type(t) + "(" + f + "(convert_" + type(DType::Float64) + "(" +
               std::string(a) + ")))";
      static constexpr const char* kQuarter[] = {".s0123", ".s4567", ".s89ab", ".scdef"};
      std::string s = "((" + type(t) + ")(";
      for (int q = 0; q < width_ / 4; ++q)
        s += std::string(q ? ", " : "") + "convert_float4(" + f + "(convert_double4(" + paren(a) +
             kQuarter[q] + ")))";
      return s + "))";
    }
    return "float(sy_" + f + "_f64(double(" + std::string(a) + ")))";
  }
  if (pocl_vector_trigonometry(name, t)) {  // without float64: one lane at a time
    static constexpr std::string_view kLanes = "0123456789abcdef";
    std::string s = "((" + type(t) + ")(";
    for (int lane = 0; lane < width_; ++lane)
      s += (lane ? ", " : "") + f + "(" + paren(a) + ".s" + kLanes[lane] + ")";
    return s + "))";
  }
  if (dialect_ == Dialect::Glsl) {
    const std::string A(a);
    if (name == "isfinite") return "(!isinf(" + A + ") && !isnan(" + A + "))";
    if (name == "signbit") return "((floatBitsToUint(" + A + ") >> 31) != 0u)";
    if (name == "fabs") f = "abs";
    if (name == "rint") f = "roundEven";  // rounds half to even, as rint does by default
    if (glsl_math(name, DType::Float32)) f = "sy_" + f;
  }
  // C's classification macros answer any nonzero int (glibc's signbit: the sign bit itself).
  if (dialect_ == Dialect::C && overloaded) return "(" + f + "(" + std::string(a) + ") != 0)";
  if ((dialect_ == Dialect::Cuda || dialect_ == Dialect::C) && t == DType::Float32 && !overloaded)
    f += "f";
  f += "(" + std::string(a);
  if (!b.empty()) f += ", " + std::string(b);
  return f + ")";
}

std::vector<std::pair<std::string_view, std::string_view>> Spelling::math_helpers(
    std::string_view name, DType t) const {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  if (dialect_ != Dialect::Glsl) return out;
  if (through_float64(name, t)) t = DType::Float64;
  if (const GlslMath* m = glsl_math(name, t)) add_glsl_math(*m, t, out);
  return out;
}

// PoCL's float vector sin, cos and tan (PoCL 3.1, x86) lose every lane once one lane is past
// about 1e6: sin(-1e-3) gave -0.008 beside a lane of 3e9. Its scalar float forms and its double
// vector forms are right.
bool Spelling::pocl_vector_trigonometry(std::string_view name, DType t) const {
  return dialect_ == Dialect::OpenCL && vector() && t == DType::Float32 &&
         (name == "sin" || name == "cos" || name == "tan");
}

bool Spelling::through_float64(std::string_view name, DType t) const {
  const bool glsl = dialect_ == Dialect::Glsl && t == DType::Float32 &&
                    (name == "sin" || name == "cos" || name == "tan");
  return fp64_ && (glsl || pocl_vector_trigonometry(name, t));
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

// The dialect table and the few spellings that differ between OpenCL C, CUDA C and GLSL, or
// between scalar and vector code (tinygrad's cstyle renderer: one renderer, a small table per
// language).
//
// Values of width > 1 use OpenCL vector types. Booleans are 0/1 in a uchar (vector: ucharN;
// GLSL: uint8_t). A "mask" is what a comparison yields: 0/1 in scalar C, a GLSL bool, 0/-1 lanes
// of the same width as the compared elements in vector code; sel() takes a mask matching its
// value type, and masks combine only through any() and all().
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/codegen.hpp"
#include "switchyard/dtype.hpp"

namespace switchyard::codegen {

struct DialectTable {
  std::string_view kernel;              // qualifiers before an entry point's name (C dialects)
  std::string_view kernel_fixed_group;  // the same for a fixed work-group size '@'
  std::string_view helper;              // qualifiers of a helper function, if any
  std::string_view global;              // address-space qualifier of kernel pointers
  std::string_view local;               // qualifier of a work-group shared array
  std::string_view barrier;
  std::string_view global_id, global_size, local_id, group_id;
  std::string_view index;         // int64 spelling
  std::string_view int64_suffix;  // of an int64 literal beyond int32's range
  std::string_view infinity;      // float32 +inf
  std::string_view predicate;     // type of a helper's yes/no answer
  std::string_view no;            // its "no"
  std::string_view all, any;      // joining two masks
  std::string_view precise;       // qualifier of a variable no compiler may re-associate
  std::string_view prelude;
  std::string_view prelude_fp64;  // follows the prelude in programs that use float64 (GLSL)
  std::string_view types[5];      // element types by DType: bool, int32, int64, float32, float64
  std::string_view unsigned_types[3];  // the unsigned types as wide as bool, int32, int64
  bool vectors;                        // vector types and as_/convert_ builtins (OpenCL)
};

const DialectTable& table(Dialect d);

// Spellings for values of one width in one dialect.
class Spelling {
 public:
  // `fp64`: the target has float64, which GLSL's float32 sin, cos and tan then go through (its
  // builtins may be far off for large arguments: llvmpipe's cos(3e38) is 1).
  Spelling(Dialect dialect, int width, bool fp64 = false)
      : t_(table(dialect)), dialect_(dialect), width_(width), fp64_(fp64) {}

  int width() const { return width_; }
  bool vector() const { return width_ > 1; }
  const DialectTable& dialect() const { return t_; }
  Dialect kind() const { return dialect_; }
  Spelling scalar() const { return Spelling(dialect_, 1, fp64_); }
  // Whether float32 `name` is computed in float64 where there is fp64: GLSL's sin, cos and tan,
  // and OpenCL's in vectors (pocl_vector_trigonometry).
  bool through_float64(std::string_view name, DType t) const;
  // Float32 sin, cos or tan in an OpenCL vector, which PoCL's vector forms get wrong: computed
  // through float64, or one lane at a time without it.
  bool pocl_vector_trigonometry(std::string_view name, DType t) const;

  std::string scalar_type(DType t) const;  // element type, e.g. "float", "uchar"
  std::string type(DType t) const;         // value type at this width, e.g. "float8"
  std::string index_type() const;          // int64 at this width
  std::string lit(DType t, std::string_view value) const;  // a constant of type(t)
  std::string splat(DType t, std::string_view scalar) const;
  // A kernel pointer argument's type: `__global const float*`; GLSL: buffer reference sy_buf_float.
  std::string pointer_type(DType t, bool is_const) const;
  // A helper function's qualifiers and return type, e.g. "static inline float ".
  std::string helper(std::string_view return_type) const;

  std::string sel(std::string_view mask, std::string_view a, std::string_view b) const;
  // Both masks and either mask, each operand already parenthesised where it needs to be.
  std::string all(std::string_view a, std::string_view b) const;
  std::string any(std::string_view a, std::string_view b) const;
  std::string bool_from_mask(std::string_view mask) const;
  std::string mask_from_bool(std::string_view b, DType value) const;
  // A mask of dtype t's width re-sized for selecting int64 indices.
  std::string index_mask(std::string_view mask, DType t) const;

  // Integer arithmetic that wraps (two's complement) instead of overflowing: op is + - * or <<
  // (whose count the caller keeps in range).
  std::string wrap(DType t, std::string_view a, std::string_view op, std::string_view b) const;
  std::string wrap_neg(DType t, std::string_view a) const;
  // Truncated integer remainder a % b, for any signs (b is never 0 or -1 here).
  std::string rem(std::string_view a, std::string_view b) const;
  // Numeric conversion with the IR's semantics (float→int truncates; NaN and values beyond the
  // range give the integer's minimum; bool as 0/1).
  std::string convert(std::string_view x, DType from, DType to) const;
  // A C99 math function on floats, with C's results: "sin", "fmod", ... (CUDA spells float32
  // forms with an f; GLSL spells some as helpers, see math_helpers).
  std::string math(std::string_view name, DType t, std::string_view a,
                   std::string_view b = {}) const;
  // The helper functions (name, definition) that math(name, t, ...) calls, dependencies first;
  // none but in GLSL. The caller defines each once, before the call (body.hpp's Helpers).
  std::vector<std::pair<std::string_view, std::string_view>> math_helpers(
      std::string_view name, DType t = DType::Float32) const;

  // Element `index` (int64) of a kernel pointer to t: p[index]; GLSL sy_at_<t>(p, index).v[0].
  std::string element(DType t, std::string_view pointer, std::string_view index) const;
  // A value at this width from (to) the elements of t at pointer + index (index empty: at
  // pointer, which in GLSL only a local array can be).
  std::string vload(DType t, std::string_view pointer, std::string_view index = {}) const;
  std::string vstore(DType t, std::string_view value, std::string_view pointer,
                     std::string_view index = {}) const;

 private:
  std::string cast(std::string_view type, std::string_view x) const;
  std::string in_integer_range(std::string_view x, DType from, DType to) const;

  const DialectTable& t_;
  Dialect dialect_;
  int width_;
  bool fp64_;
};

// "float" → "float", "long long" → "long_long": type spellings usable inside helper names.
std::string identifier(std::string_view type);

}  // namespace switchyard::codegen

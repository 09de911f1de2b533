// The dialect table and the few spellings that differ between OpenCL C and CUDA C, or between
// scalar and vector code (tinygrad's cstyle renderer: one renderer, a small table per language).
//
// Values of width > 1 use OpenCL vector types. Booleans are 0/1 in a uchar (vector: ucharN).
// A "mask" is what a comparison yields: 0/1 in scalar code, 0/-1 lanes of the same width as the
// compared elements in vector code; sel() takes a mask matching its value type.
#pragma once

#include <string>
#include <string_view>

#include "codegen/codegen.hpp"
#include "switchyard/dtype.hpp"

namespace switchyard::codegen {

struct DialectTable {
  std::string_view kernel;              // qualifiers before an entry point's name
  std::string_view kernel_fixed_group;  // the same for a fixed work-group size '@'
  std::string_view helper;              // qualifiers of a helper function
  std::string_view global;              // address-space qualifier of kernel pointers
  std::string_view local;               // qualifier of a work-group shared array
  std::string_view barrier;
  std::string_view global_id, global_size, local_id, group_id;
  std::string_view index;     // int64 spelling
  std::string_view infinity;  // float32 +inf
  std::string_view prelude;
  bool vectors;  // vector types and as_/convert_ builtins (OpenCL)
};

const DialectTable& table(Dialect d);

// Spellings for values of one width in one dialect.
class Spelling {
 public:
  Spelling(Dialect dialect, int width) : t_(table(dialect)), dialect_(dialect), width_(width) {}

  int width() const { return width_; }
  bool vector() const { return width_ > 1; }
  const DialectTable& dialect() const { return t_; }
  Spelling scalar() const { return Spelling(dialect_, 1); }

  std::string scalar_type(DType t) const;  // element type, e.g. "float", "uchar"
  std::string type(DType t) const;         // value type at this width, e.g. "float8"
  std::string index_type() const;          // int64 at this width
  std::string lit(DType t, std::string_view value) const;  // a constant of type(t)
  std::string splat(DType t, std::string_view scalar) const;

  std::string sel(std::string_view mask, std::string_view a, std::string_view b) const;
  std::string bool_from_mask(std::string_view mask) const;
  std::string mask_from_bool(std::string_view b, DType value) const;
  // A mask of dtype t's width re-sized for selecting int64 indices.
  std::string index_mask(std::string_view mask, DType t) const;

  // Integer arithmetic that wraps (two's complement) instead of overflowing: op is + - * or <<
  // (whose count the caller keeps in range).
  std::string wrap(DType t, std::string_view a, std::string_view op, std::string_view b) const;
  std::string wrap_neg(DType t, std::string_view a) const;
  // Numeric conversion with the IR's semantics (float→int truncates; NaN and values beyond the
  // range give the integer's minimum; bool as 0/1).
  std::string convert(std::string_view x, DType from, DType to) const;
  // A math builtin on floats: "sin", "fmod", ... (CUDA spells float32 forms with an f).
  std::string math(std::string_view name, DType t, std::string_view a,
                   std::string_view b = {}) const;

  std::string vload(std::string_view pointer) const;
  std::string vstore(std::string_view value, std::string_view pointer) const;

 private:
  std::string in_integer_range(std::string_view x, DType from, DType to) const;

  const DialectTable& t_;
  Dialect dialect_;
  int width_;
};

// "float" → "float", "long long" → "long_long": type spellings usable inside helper names.
std::string identifier(std::string_view type);

}  // namespace switchyard::codegen

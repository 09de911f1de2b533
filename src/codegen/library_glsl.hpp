// The GLSL form of the library kernels (library_kernels.hpp), translated from the same C text
// that OpenCL and CUDA build, so that the algorithms, tile sizes and plans exist once.
//
// The C text is written in a small subset that translates by syntax alone:
//   - `typedef T name;` at top level (GLSL has no typedef: a #define);
//   - `SY_KERNEL name(params) { ... }`: one entry point, whose pointer parameters are
//     `[const] SY_GLOBAL T* p` and whose other parameters are scalars; it becomes the
//     `#ifdef SY_ENTRY_name` section of codegen.hpp's GLSL ABI (arguments from the argument block
//     the push constant points at, work-group arrays at global scope);
//   - `SY_LOCAL T a[N];` statements in an entry point (hoisted to global scope, with the
//     `#if` lines around them);
//   - `SY_HELPER` functions; one taking `SY_LOCAL_PTR T* s` parameters (GLSL passes no pointers
//     to shared memory) is copied into each entry point that calls it, after that entry's
//     arrays, with those parameters bound to the arrays the call passes;
//   - global pointers are only indexed (`p[i]`) or offset where declared
//     (`SY_GLOBAL T* q = p + i;`): both become 64-bit address arithmetic (sy_at);
//   - casts `(T)x` for T a type name (GLSL: T(x)); an integer used as a condition (`if (n)`,
//     `n ? a : b`) is compared with zero; a parenthesised comparison added to a number counts
//     as int (C's comparisons are int, GLSL's bool).
// Anything else in the text passes through as written: GLSL accepts the rest of this C.
#pragma once

#include <string>
#include <string_view>

namespace switchyard::codegen {

// `head` (the #version line, extensions, ...) followed by `c_source` translated as above, with
// `local_size` items per work-group.
std::string glsl_from_library_c(std::string_view head, std::string_view c_source, int local_size);

// Element `index` of a global pointer to `glsl_type` in the translated program, for macros
// (which the translation leaves as they are).
std::string glsl_element(std::string_view glsl_type, std::string_view pointer,
                         std::string_view index);

}  // namespace switchyard::codegen

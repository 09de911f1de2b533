// Code generation: Kernel IR → OpenCL C, CUDA C, GLSL (Vulkan) or C (native CPU code), from one
// renderer with a dialect table. Pure functions of the IR and the target; no device is needed to
// render.
//
// ---- Kernel ABI (what a backend passes; OpenCL and CUDA identical but for type spellings) ----
//
// Types. bool is one byte holding 0 or 1 (uchar / unsigned char); int32, int64 (long /
// long long), float32, float64 as usual. `index` below is int64. `sy_dims` is a struct of
// kMaxRank int64 values (64 bytes, passed by value); unused entries are ignored. Offsets and
// strides are in elements, never bytes.
//
// Input arguments, in the kernel's input order, each:
//   const T* data, index offset            [, sy_dims strides   only for Layout::Strided]
// Contiguous inputs read data[offset + e] for the row-major element number e of the iteration
// space; Broadcast inputs read data[offset]; Strided inputs read data[offset + Σ i_d·stride_d].
// Scalar arguments follow, in order, by value in their dtype (bool as one byte, 0 or 1).
//
// A kernel without a reduction has one entry point:
//   sy_map(index n, int rank, sy_dims shape, <inputs>, <scalars>, T* out_k, index out_k_offset...)
//     n = product of shape. Any 1-D launch works (any local size; global size a multiple of it);
//     the items share the ceil(n / vector_width) chunks of vector_width elements among them
//     (kernel_loop below). Outputs are contiguous: out_k[offset + e].
//
// A kernel with reductions folds each output o over rows of `row_len` elements (ir::folded_rows:
// ReduceOver::All is rows = 1, row_len = n; TrailingAxes folds the last `axes` extents into
// row_len, rows is the product of the others). Every output is folded in the same pass. The
// accumulator type A_o is reduce_result(op_o, T_o) for sum/prod/min/max; ArgMin/ArgMax keep the
// value (dtype T_o) and an int64 index counted from the row's start. Below, {...} stands for
// its arguments repeated once per output o, in output order. Three entry points:
//   sy_reduce_partial(index rows, index row_len, index parts, int rank, sy_dims shape, <inputs>,
//                     <scalars>, {A_o* partials_o, index partials_o_offset
//                     [, index* partial_indices_o, index partial_indices_o_offset  only Arg ops]})
//     Launch rows·parts work-groups of exactly Target::local_size items (1-D). Group g folds
//     its share of row g / parts into partials_o[offset + g] (row-major: rows × parts).
//   sy_reduce_final(index rows, index parts, {const A_o* partials_o
//                   [, const index* partial_indices_o], R_o* out_o, index out_o_offset})
//     Launch rows work-groups of exactly local_size items; writes out_o[out_o_offset + row].
//     When parts == 1 the partials already are the result: point `partials_o` (or, for Arg
//     ops, `partial_indices_o`) at the output and skip this pass.
//   sy_reduce_rows(index rows, index row_len, int rank, sy_dims shape, <inputs>, <scalars>,
//                  {R_o* out_o, index out_o_offset})
//     One item per row, any local size, global size ≥ rows: for short rows, where a whole
//     work-group per row would idle.
// R_o is reduction o's result dtype. Empty rows give the identity (sum 0, prod 1).
//
// Floating sums use compensated (Kahan) summation per item and a pairwise tree across items, so
// float32 sums are at least as accurate as pairwise summation.
//
// ---- GLSL (Dialect::Glsl: GLSL 4.50 for Vulkan 1.2, glslc -fshader-stage=compute) ----
// Vector width 1. Types: bool uint8_t, int32 int, int64 int64_t, float32 float, float64 double.
// The device needs bufferDeviceAddress, shaderInt64, shaderInt8, storageBuffer8BitAccess and
// shaderSignedZeroInfNanPreserveFloat32 (the program asks for IEEE NaN, infinities and signed
// zeros); a program that uses float64 (Target::fp64, else DTypeError) needs shaderFloat64 and
// shaderSignedZeroInfNanPreserveFloat64 besides. GLSL has double arithmetic, sqrt, floor, ...
// but no double sin, exp, log, pow, ...: those are helpers in the program (spelling.cpp's
// kGlslMath64, fdlibm's algorithms) within a few ulp of C's, with C's special cases; sin, cos
// and tan reduce arguments of any size exactly (Payne–Hanek beyond 2^20·π/2). Subnormal
// float64 results are exact where the device keeps subnormals (Vulkan lets it flush them).
// One source holds every entry point above of the kernel's kind, each in
// `#ifdef SY_ENTRY_<entry>` ... `#endif` as `void main()` with
// `layout(local_size_x = Target::local_size)`: compile it once per entry with that macro
// defined (-DSY_ENTRY_sy_map, ...). The only push constant is 8 bytes: the device address of an
// argument block (read-only) holding the entry's arguments as listed above, which is the order
// of plan_kernel's KernelLaunch::args, each at the next offset aligned to its own alignment:
// index (and offsets) int64, float64 scalars, sy_dims (64 bytes) and pointers (device
// addresses, uint64) at 8; int rank, int32 and float32 scalars at 4; bool scalars (one byte)
// at 1 — std430's rule. Pointers point at element 0 (element i at address + i · size; indices
// are 64-bit).
//
// ---- C (Dialect::C: C11 for the host's compiler, native CPU code) ----
// Vector width 1; the map loop carries `#pragma omp simd` (outputs alias inputs only element for
// element, so its iterations are independent) for the compiler to vectorise, with vector math
// from the declarations the driver adds. Types as CUDA's. Each entry point is
//   void <entry>(const void* sy_block, long long sy_item, long long sy_items)
// reading its arguments from a block laid out as GLSL's (each at the next offset aligned to its
// own size, pointers as 8-byte host addresses); sy_item of sy_items is the item, and an item is
// a work-group (Target::local_size 1). sy_reduce_partial folds its share of a row in blocks of
// kFoldBlock elements, each by a work-group's pairwise tree, the blocks' results by Kahan
// summation: as accurate as the other dialects' partials, and vectorisable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ir/kernel_ir.hpp"

namespace switchyard::codegen {

enum class Dialect : std::uint8_t { OpenCL, Cuda, Glsl, C };

inline constexpr std::string_view kMapEntry = "sy_map";
inline constexpr std::string_view kReducePartialEntry = "sy_reduce_partial";
inline constexpr std::string_view kReduceFinalEntry = "sy_reduce_final";
inline constexpr std::string_view kReduceRowsEntry = "sy_reduce_rows";
inline constexpr int kFoldBlock = 256;  // Dialect::C's block of a partial fold

struct Target {
  Dialect dialect = Dialect::OpenCL;
  bool fp64 = true;
  // Elements per item per step: 1, 2, 4, 8 or 16 (OpenCL only; CUDA takes 1). CPU OpenCL
  // devices want 8 or 16: PoCL leaves sin/cos scalar per item (≈7–11 ns/element) but runs the
  // vector-typed forms vectorised (≈0.5–0.9 ns/element).
  int vector_width = 1;
  // Items per work-group of sy_reduce_partial / sy_reduce_final: a power of two ≥ 2, fixed at
  // build time (the local tree is sized by it); 1 for Dialect::C.
  int local_size = 256;
  // How items share chunks. CPU devices run a group's items one after another, so each item
  // should stream one contiguous block (blocked = true); GPUs run neighbouring items in
  // lockstep, so neighbours should touch neighbouring chunks (blocked = false, grid stride).
  bool blocked = false;
};

// The dtype of sy_reduce_partial's `partials_o` for output o (A_o above): reduce_result for
// sum/prod, the value's dtype for min/max and the Arg ops.
DType partial_dtype(const ir::Kernel& kernel, std::size_t output);

// The whole program for `kernel`: the entry points above for its kind. Throws DTypeError when
// the kernel needs float64 and the target has none, or uses an op on a dtype the IR excludes
// (e.g. sin of an integer); ValueError for a target outside the ranges above.
std::string render(const ir::Kernel& kernel, const Target& target);

}  // namespace switchyard::codegen

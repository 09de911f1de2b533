// Kernels for the library ops that no vendor library covers on every device (backend.hpp's
// Scan, Sort, Compact and Gather), written once and rendered for OpenCL C and CUDA C, and the
// sequence of launches that runs one op (a plan), so that backends only allocate and launch.
//
// ---- Library kernel ABI ----
//
// Every entry point runs work-groups of exactly Target::local_size items (1-D). Pointers are
// followed by their offset in elements (index); every other argument is an index (int64).
// "word" is the unsigned type as wide as the op's dtype: sorting, compaction and gathers move
// bits and never need float64 arithmetic. A tile is the elements one group handles.
//
//   sy_scan_reduce(x, x_off, length, tiles, partials, partials_off)
//     Group g folds tile g % tiles (kScanPerItem · local_size elements) of row g / tiles into
//     partials[g]. Launch rows · tiles groups, as for every entry point with `tiles`.
//   sy_scan_tile(x, x_off, length, tiles, carries, carries_off, has_carry, exclusive, y, y_off)
//     Group g scans its tile into y, starting from carries[g] when has_carry (the exclusive scan
//     of the partials per row). In place (y == x) works: a group reads its whole tile first.
//   With a bool mask as input (Compact), the same two are named sy_scan_reduce_mask and
//   sy_scan_tile_mask and count true elements in int64.
//
//   sy_sort_histogram(src, src_off, length, tiles, shift, hist, hist_off)
//     Counts the digit (key >> shift) & (kRadix - 1) of each key in tile t (kSortPerItem ·
//     local_size elements) of row r into
//     hist[(r · kRadix + digit) · tiles + t]: digit-major within a row, so that an exclusive scan
//     of each row's kRadix · tiles counts gives every (digit, tile) its first position.
//   sy_sort_scatter(src, src_off, src_idx, src_idx_off, has_src_idx, length, tiles, shift,
//                   offsets, offsets_off, dst, dst_off, dst_idx, dst_idx_off)
//     Moves each element to its row's offsets[...] plus its rank among the tile's equal digits
//     (stable). Indices come from src_idx, or are the element's position in its row when
//     has_src_idx is 0; dst_idx is only written for an op with `indices`.
//   Keys are order-preserving unsigned images of the values: sign bit flipped for integers,
//   IEEE floats with negatives' bits inverted, both zeros equal and NaN above +inf.
//
//   sy_compact_scatter(a, a_off, mask, mask_off, positions, positions_off, n, c, c_off, count,
//                      count_off)
//     c[positions[i]] = a[i] (or i, with `indices`) where mask[i]; count[0] = the number kept.
//     positions is the exclusive scan of the mask. Any number of groups (at least one).
//
//   sy_gather(a, a_off, positions, positions_off, rows, length, inner, count, c, c_off)
//     c[(r · count + j) · inner + i] = a[(r · length + positions[j]) · inner + i]. Any number
//     of groups (at least one); items stride over the output.
//
// GLSL only (Vulkan has no vendor BLAS; OpenCL and CUDA run CLBlast and cuBLAS), float32 or
// float64, accumulated in the dtype with fma, for ir/launch.hpp's Gemm and Gemv:
//   sy_gemm(a, a_off, b, b_off, c, c_off, m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c,
//           batch)
//     Every element of each product's C (k == 0 gives zeros), kGemmTile × kGemmTile outputs per
//     group at a time; groups stride over batch · tiles. The op's transpose_a / transpose_b are
//     built in.
//   sy_gemv(a, a_off, x, x_off, y, y_off, m, n, lda)
//     y = A · x (A stored transposed with transpose_a); groups stride over the m rows.
//
// GLSL (Dialect::Glsl): the same entry points, arguments and plans, translated from the C text
// (library_glsl.hpp), in codegen.hpp's GLSL ABI: each entry point is the `#ifdef
// SY_ENTRY_<entry>` section of one source; its argument block holds the arguments above in
// order, every one 8 bytes (pointers as device addresses of element 0, numbers as int64).
// float64 scans and products also ask for SignedZeroInfNanPreserve on 64-bit floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/codegen.hpp"
#include "ir/launch.hpp"

namespace switchyard::codegen {

inline constexpr int kScanPerItem = 8;  // elements each item scans: a tile is 8 · local_size
inline constexpr int kSortPerItem = 4;  // smaller tiles keep the sort's local arrays in 48 KiB
inline constexpr int kRadixBits = 4;    // digits of 4 bits: 16 counters per item stay in registers
inline constexpr int kRadix = 1 << kRadixBits;

inline constexpr std::string_view kScanReduceEntry = "sy_scan_reduce";
inline constexpr std::string_view kScanTileEntry = "sy_scan_tile";
inline constexpr std::string_view kMaskSuffix = "_mask";
inline constexpr std::string_view kSortHistogramEntry = "sy_sort_histogram";
inline constexpr std::string_view kSortScatterEntry = "sy_sort_scatter";
inline constexpr std::string_view kCompactScatterEntry = "sy_compact_scatter";
inline constexpr std::string_view kGatherEntry = "sy_gather";
inline constexpr std::string_view kGemmEntry = "sy_gemm";
inline constexpr std::string_view kGemvEntry = "sy_gemv";
inline constexpr int kGemmTile = 16;  // a group computes 16 × 16 outputs of C at a time

// The program for `op` on `target` (Target::local_size items per group, a power of two ≥ 16;
// vector_width and blocked are ignored). Throws DTypeError for a float64 scan, gemm or gemv on a
// target without it and for a gemm or gemv of integers or bool, ValueError for a scan op other
// than Sum, Prod, Min or Max, for a local size out of range, for Fft, which vendor libraries
// run, and for Gemm and Gemv on OpenCL and CUDA, which CLBlast and cuBLAS run.
std::string render_library(const LibraryOp& op, const Target& target);

// The entry points render_library(op, ...) defines.
std::vector<std::string> library_entries(const LibraryOp& op);

// One kernel argument of a planned launch: an operand's memory (a, b, c, d of LibraryArgs), a
// scratch buffer of the plan, or a number.
struct LibraryArg {
  enum class Kind : std::uint8_t { A, B, C, D, Scratch, Number };
  Kind kind = Kind::Number;
  std::int64_t value = 0;  // Scratch: which buffer; Number: the value
};

struct LibraryLaunch {
  std::string entry;
  std::int64_t groups = 0;
  std::vector<LibraryArg> args;
};

// Scratch buffers to allocate (bytes each, freed after the launches are queued: every backend
// runs them in order), then the launches in order.
struct LibraryPlan {
  std::vector<std::size_t> scratch_bytes;
  std::vector<LibraryLaunch> launches;
};

// The launches that run `op` on `args` with the program render_library(op, target) built.
// Empty for an empty input (but Compact, which still writes its count).
LibraryPlan plan_library(const LibraryOp& op, const LibraryArgs& args, const Target& target);

}  // namespace switchyard::codegen

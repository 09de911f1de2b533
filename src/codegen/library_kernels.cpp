// Renders library_kernels.hpp's entry points. The kernel text is written once against a few
// macros and typedefs (SY_KERNEL, SY_LOCAL, sy_index, sy_acc, ...) that a prelude defines from
// the dialect table; the dtype-dependent parts (a scan's combine and identity, a sort's key)
// are rendered as small helpers.
#include "codegen/library_kernels.hpp"

#include <algorithm>
#include <bit>

#include "codegen/library_glsl.hpp"
#include "codegen/spelling.hpp"
#include "switchyard/error.hpp"

namespace switchyard::codegen {
namespace {

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// The unsigned type as wide as `t`: what sorts, compactions and gathers move.
std::string word_type(Dialect d, DType t) {
  if (d == Dialect::Glsl)
    return std::string(table(d).unsigned_types[size_of(t) == 1 ? 0 : size_of(t) == 4 ? 1 : 2]);
  const bool cl = d == Dialect::OpenCL;
  switch (size_of(t)) {
    case 1:
      return cl ? "uchar" : "unsigned char";
    case 4:
      return cl ? "uint" : "unsigned int";
    default:
      return cl ? "ulong" : "unsigned long long";
  }
}

std::string glsl_prelude(const Target& target);

std::string prelude(const Target& target) {
  const DialectTable& t = table(target.dialect);
  if (target.dialect == Dialect::Glsl) return glsl_prelude(target);
  std::string kernel(t.kernel_fixed_group);
  kernel.replace(kernel.find('@'), 1, std::to_string(target.local_size));
  // OpenCL needs the address space on a pointer parameter into local memory; CUDA has none.
  const std::string_view local_pointer = target.dialect == Dialect::OpenCL ? "__local " : "";
  // SY_PAD: local arrays keep one spare slot per 32, so that items reading runs of consecutive
  // slots (item i at i · 8) fall on different memory banks instead of the same few.
  return "#define SY_L " + std::to_string(target.local_size) + "\n#define SY_KERNEL " + kernel +
         "\n#define SY_GLOBAL " + std::string(t.global) + "\n#define SY_LOCAL " +
         std::string(t.local) + "\n#define SY_LOCAL_PTR " + std::string(local_pointer) +
         "\n#define SY_HELPER " + std::string(t.helper) + "\n#define SY_BARRIER() " +
         std::string(t.barrier) + "\n#define SY_LID " + std::string(t.local_id) +
         "\n#define SY_GROUP " + std::string(t.group_id) + "\n#define SY_GID " +
         std::string(t.global_id) + "\n#define SY_GSIZE " + std::string(t.global_size) +
         "\n#define SY_PAD(s) ((s) + ((s) >> 5))\n#define SY_SCAN_PER_ITEM " +
         std::to_string(kScanPerItem) +
         "\n#define SY_SCAN_TILE (SY_SCAN_PER_ITEM * SY_L)\n#define SY_SORT_PER_ITEM " +
         std::to_string(kSortPerItem) +
         "\n#define SY_SORT_TILE (SY_SORT_PER_ITEM * SY_L)\n#define SY_RADIX " +
         std::to_string(kRadix) + "\ntypedef " + std::string(t.index) + " sy_index;\ntypedef " +
         word_type(target.dialect, DType::Bool) + " sy_bool;\n\n";
}

// The macros of prelude() that GLSL reads: library_glsl.hpp translates SY_KERNEL, SY_HELPER,
// SY_GLOBAL, SY_LOCAL and SY_LOCAL_PTR itself.
std::string glsl_prelude(const Target& target) {
  const DialectTable& t = table(target.dialect);
  return "#define SY_L " + std::to_string(target.local_size) + "\n#define SY_BARRIER() " +
         std::string(t.barrier) + "\n#define SY_LID " + std::string(t.local_id) +
         "\n#define SY_GROUP " + std::string(t.group_id) + "\n#define SY_GID " +
         std::string(t.global_id) + "\n#define SY_GSIZE " + std::string(t.global_size) +
         "\n#define SY_PAD(s) ((s) + ((s) >> 5))\n#define SY_SCAN_PER_ITEM " +
         std::to_string(kScanPerItem) +
         "\n#define SY_SCAN_TILE (SY_SCAN_PER_ITEM * SY_L)\n#define SY_SORT_PER_ITEM " +
         std::to_string(kSortPerItem) +
         "\n#define SY_SORT_TILE (SY_SORT_PER_ITEM * SY_L)\n#define SY_RADIX " +
         std::to_string(kRadix) + "\ntypedef " + std::string(t.index) + " sy_index;\ntypedef " +
         word_type(target.dialect, DType::Bool) + " sy_bool;\n\n";
}

// Hillis–Steele scan of one value per item: returns the fold of the values of the items before
// this one (`identity` for the first); s[SY_L - 1] then holds the fold of all of them.
std::string block_scan(std::string_view name, std::string_view type, std::string_view combine,
                       std::string_view identity) {
  std::string s = R"(SY_HELPER $T $NAME(SY_LOCAL_PTR $T* s, $T v) {
  const int lid = SY_LID;
  s[lid] = v;
  SY_BARRIER();
  for (int off = 1; off < SY_L; off <<= 1) {
    const $T other = lid >= off ? s[lid - off] : v;
    SY_BARRIER();
    if (lid >= off) {
      v = $COMBINE(other, v);
      s[lid] = v;
    }
    SY_BARRIER();
  }
  return lid > 0 ? s[lid - 1] : $IDENTITY;
}

)";
  replace_all(s, "$T", type);
  replace_all(s, "$NAME", name);
  replace_all(s, "$COMBINE", combine);
  replace_all(s, "$IDENTITY", identity);
  return s;
}

// sy_acc, SY_IDENTITY and sy_combine for `op` over `t`. Integers wrap (through their unsigned
// type) as NumPy's do; Min/Max propagate NaN as NumPy's minimum/maximum; bool sums saturate.
std::string scan_algebra(Dialect d, DType t, ir::ReduceOp op) {
  const Spelling one(d, 1);
  const std::string acc = one.scalar_type(t);
  std::string identity, combine;
  const bool sum = op == ir::ReduceOp::Sum, prod = op == ir::ReduceOp::Prod;
  const bool min = op == ir::ReduceOp::Min;
  if (t == DType::Bool) {
    identity = sum || op == ir::ReduceOp::Max ? "0" : "1";
    combine = sum || op == ir::ReduceOp::Max ? "a | b" : "a & b";
  } else if (is_integer(t)) {
    const std::string u = "(" + word_type(d, t) + ")";
    const std::string largest = "(sy_acc)(~" + u + "0 >> 1)";
    identity = sum ? "0" : prod ? "1" : min ? largest : "(-" + largest + " - 1)";
    combine = sum    ? "(sy_acc)(" + u + "a + " + u + "b)"
              : prod ? "(sy_acc)(" + u + "a * " + u + "b)"
              : min  ? "b < a ? b : a"
                     : "b > a ? b : a";
  } else {
    const std::string inf = "(sy_acc)" + std::string(table(d).infinity);
    identity = sum ? "0" : prod ? "1" : min ? inf : "-" + inf;
    combine = sum    ? "a + b"
              : prod ? "a * b"
              : min  ? "a < b || a != a ? a : b"
                     : "a > b || a != a ? a : b";
  }
  return "typedef " + acc + " sy_acc;\n#define SY_IDENTITY ((sy_acc)" + identity +
         ")\nSY_HELPER sy_acc sy_combine(sy_acc a, sy_acc b) { return " + combine + "; }\n\n" +
         block_scan("sy_block_scan", "sy_acc", "sy_combine", "SY_IDENTITY");
}

// The two scan entry points reading `in`-typed elements, named with `suffix`.
std::string scan_kernels(std::string_view suffix, std::string_view in) {
  std::string s =
      R"(SY_KERNEL sy_scan_reduce$SUF(const SY_GLOBAL $IN* x, sy_index x_off, sy_index length,
                                 sy_index tiles, SY_GLOBAL sy_acc* partials,
                                 sy_index partials_off) {
  SY_LOCAL sy_acc sums[SY_L];
  const int lid = SY_LID;
  const sy_index g = SY_GROUP, row = g / tiles, start = (g - row * tiles) * SY_SCAN_TILE;
  const sy_index count = length - start < SY_SCAN_TILE ? length - start : SY_SCAN_TILE;
  const SY_GLOBAL $IN* in = x + x_off + row * length + start;
  sy_acc v = SY_IDENTITY;
  for (int j = 0; j < SY_SCAN_PER_ITEM; ++j) {
    const int s = j * SY_L + lid;
    if (s < count) v = sy_combine(v, (sy_acc)in[s]);
  }
  const sy_acc before = sy_block_scan(sums, v);
  if (lid == SY_L - 1) partials[partials_off + g] = sy_combine(before, v);
}

SY_KERNEL sy_scan_tile$SUF(const SY_GLOBAL $IN* x, sy_index x_off, sy_index length, sy_index tiles,
                              const SY_GLOBAL sy_acc* carries, sy_index carries_off,
                              sy_index has_carry, sy_index exclusive, SY_GLOBAL sy_acc* y,
                              sy_index y_off) {
  SY_LOCAL sy_acc tile[SY_PAD(SY_SCAN_TILE)];
  SY_LOCAL sy_acc sums[SY_L];
  const int lid = SY_LID;
  const sy_index g = SY_GROUP, row = g / tiles, start = (g - row * tiles) * SY_SCAN_TILE;
  const sy_index count = length - start < SY_SCAN_TILE ? length - start : SY_SCAN_TILE;
  const SY_GLOBAL $IN* in = x + x_off + row * length + start;
  for (int j = 0; j < SY_SCAN_PER_ITEM; ++j) {
    const int s = j * SY_L + lid;
    tile[SY_PAD(s)] = s < count ? (sy_acc)in[s] : SY_IDENTITY;
  }
  SY_BARRIER();
  sy_acc total = SY_IDENTITY;
  for (int k = 0; k < SY_SCAN_PER_ITEM; ++k) total = sy_combine(total, tile[SY_PAD(lid * SY_SCAN_PER_ITEM + k)]);
  sy_acc run = sy_block_scan(sums, total);
  if (has_carry) run = sy_combine(carries[carries_off + g], run);
  for (int k = 0; k < SY_SCAN_PER_ITEM; ++k) {
    const int s = lid * SY_SCAN_PER_ITEM + k;
    const sy_acc next = sy_combine(run, tile[SY_PAD(s)]);
    tile[SY_PAD(s)] = exclusive ? run : next;
    run = next;
  }
  SY_BARRIER();
  SY_GLOBAL sy_acc* out = y + y_off + row * length + start;
  for (int j = 0; j < SY_SCAN_PER_ITEM; ++j) {
    const int s = j * SY_L + lid;
    if (s < count) out[s] = tile[SY_PAD(s)];
  }
}

)";
  replace_all(s, "$SUF", suffix);
  replace_all(s, "$IN", in);
  return s;
}

// sy_key: the order-preserving unsigned image of a value's bits.
std::string sort_key(DType t) {
  if (t == DType::Bool) return "SY_HELPER sy_word sy_key(sy_word w) { return w; }\n";
  const std::string top = size_of(t) == 4 ? "31" : "63";
  if (is_integer(t))
    return "SY_HELPER sy_word sy_key(sy_word w) { return w ^ ((sy_word)1 << " + top + "); }\n";
  const std::string inf = t == DType::Float32 ? "(sy_word)0x7f800000" : "((sy_word)0x7ff << 52)";
  return R"(SY_HELPER sy_word sy_key(sy_word w) {
  const sy_word sign = (sy_word)1 << )" +
         top + R"(, magnitude = w & ~sign;
  if (magnitude > )" +
         inf + R"() return ~(sy_word)0; /* NaN of any sign or payload: last */
  if (magnitude == 0) return sign;        /* -0.0 ties with 0.0, as NumPy compares them */
  return (w & sign) ? ~w : (w | sign);
}
)";
}

constexpr std::string_view kSortKernels = R"(
SY_HELPER int sy_digit(sy_word w, sy_index shift) {
  return (int)((sy_key(w) >> shift) & (SY_RADIX - 1));
}

/* ranks[SY_PAD(d * SY_L + item)]: how many of the tile's keys come before item's first key of digit d
   in (digit, position) order. Each item holds SY_SORT_PER_ITEM consecutive keys. */
SY_HELPER void sy_digit_ranks(SY_LOCAL_PTR const sy_word* keys, sy_index count, sy_index shift,
                              SY_LOCAL_PTR int* ranks, SY_LOCAL_PTR int* sums) {
  const int lid = SY_LID;
  int mine[SY_RADIX];
  for (int d = 0; d < SY_RADIX; ++d) mine[d] = 0;
  for (int k = 0; k < SY_SORT_PER_ITEM; ++k) {
    const int s = lid * SY_SORT_PER_ITEM + k;
    if (s < count) ++mine[sy_digit(keys[SY_PAD(s)], shift)];
  }
  for (int d = 0; d < SY_RADIX; ++d) ranks[SY_PAD(d * SY_L + lid)] = mine[d];
  SY_BARRIER();
  int own = 0;
  for (int e = 0; e < SY_RADIX; ++e) own += ranks[SY_PAD(lid * SY_RADIX + e)];
  int run = sy_block_scan_int(sums, own);
  for (int e = 0; e < SY_RADIX; ++e) {
    const int v = ranks[SY_PAD(lid * SY_RADIX + e)];
    ranks[SY_PAD(lid * SY_RADIX + e)] = run;
    run += v;
  }
  SY_BARRIER();
}

SY_KERNEL sy_sort_histogram(const SY_GLOBAL sy_word* src, sy_index src_off, sy_index length,
                            sy_index tiles, sy_index shift, SY_GLOBAL sy_index* hist,
                            sy_index hist_off) {
  SY_LOCAL sy_word keys[SY_PAD(SY_SORT_TILE)];
  SY_LOCAL int ranks[SY_PAD(SY_RADIX * SY_L)];
  SY_LOCAL int sums[SY_L];
  const int lid = SY_LID;
  const sy_index g = SY_GROUP, row = g / tiles, t = g - row * tiles, start = t * SY_SORT_TILE;
  const sy_index count = length - start < SY_SORT_TILE ? length - start : SY_SORT_TILE;
  const SY_GLOBAL sy_word* in = src + src_off + row * length + start;
  for (int j = 0; j < SY_SORT_PER_ITEM; ++j) {
    const int s = j * SY_L + lid;
    if (s < count) keys[SY_PAD(s)] = in[s];
  }
  SY_BARRIER();
  sy_digit_ranks(keys, count, shift, ranks, sums);
  if (lid < SY_RADIX) {
    const int next = lid + 1 < SY_RADIX ? ranks[SY_PAD((lid + 1) * SY_L)] : (int)count;
    hist[hist_off + (row * SY_RADIX + lid) * tiles + t] = next - ranks[SY_PAD(lid * SY_L)];
  }
}

SY_KERNEL sy_sort_scatter(const SY_GLOBAL sy_word* src, sy_index src_off,
                          const SY_GLOBAL sy_index* src_idx, sy_index src_idx_off,
                          sy_index has_src_idx, sy_index length, sy_index tiles, sy_index shift,
                          const SY_GLOBAL sy_index* offsets, sy_index offsets_off,
                          SY_GLOBAL sy_word* dst, sy_index dst_off, SY_GLOBAL sy_index* dst_idx,
                          sy_index dst_idx_off) {
  SY_LOCAL sy_word keys[SY_PAD(SY_SORT_TILE)];
#if SY_WITH_INDICES
  SY_LOCAL sy_index idx[SY_PAD(SY_SORT_TILE)];
  sy_index my_idx[SY_SORT_PER_ITEM];
#endif
  SY_LOCAL int ranks[SY_PAD(SY_RADIX * SY_L)];
  SY_LOCAL int sums[SY_L];
  sy_word my_keys[SY_SORT_PER_ITEM];
  int seen[SY_RADIX];
  const int lid = SY_LID;
  const sy_index g = SY_GROUP, row = g / tiles, t = g - row * tiles, start = t * SY_SORT_TILE;
  const sy_index count = length - start < SY_SORT_TILE ? length - start : SY_SORT_TILE;
  const sy_index first = row * length + start;
  for (int j = 0; j < SY_SORT_PER_ITEM; ++j) {
    const int s = j * SY_L + lid;
    if (s < count) {
      keys[SY_PAD(s)] = src[src_off + first + s];
#if SY_WITH_INDICES
      idx[SY_PAD(s)] = has_src_idx ? src_idx[src_idx_off + first + s] : start + s;
#endif
    }
  }
  SY_BARRIER();
  sy_digit_ranks(keys, count, shift, ranks, sums);
  for (int k = 0; k < SY_SORT_PER_ITEM; ++k) {
    const int s = lid * SY_SORT_PER_ITEM + k;
    if (s < count) {
      my_keys[k] = keys[SY_PAD(s)];
#if SY_WITH_INDICES
      my_idx[k] = idx[SY_PAD(s)];
#endif
    }
  }
  SY_BARRIER();
  /* Reorder the tile by digit in local memory, so that the stores below are runs of
     neighbouring addresses. */
  for (int d = 0; d < SY_RADIX; ++d) seen[d] = 0;
  for (int k = 0; k < SY_SORT_PER_ITEM; ++k) {
    if (lid * SY_SORT_PER_ITEM + k >= count) break;
    const int d = sy_digit(my_keys[k], shift);
    const int to = ranks[SY_PAD(d * SY_L + lid)] + seen[d]++;
    keys[SY_PAD(to)] = my_keys[k];
#if SY_WITH_INDICES
    idx[SY_PAD(to)] = my_idx[k];
#endif
  }
  SY_BARRIER();
  for (int j = 0; j < SY_SORT_PER_ITEM; ++j) {
    const int s = j * SY_L + lid;
    if (s >= count) break;
    const int d = sy_digit(keys[SY_PAD(s)], shift);
    const sy_index to = row * length + offsets[offsets_off + (row * SY_RADIX + d) * tiles + t] +
                        (s - ranks[SY_PAD(d * SY_L)]);
    dst[dst_off + to] = keys[SY_PAD(s)];
#if SY_WITH_INDICES
    dst_idx[dst_idx_off + to] = idx[SY_PAD(s)];
#endif
  }
}
)";

constexpr std::string_view kCompactKernel = R"(
SY_KERNEL sy_compact_scatter(const SY_GLOBAL sy_word* a, sy_index a_off,
                             const SY_GLOBAL sy_bool* mask, sy_index mask_off,
                             const SY_GLOBAL sy_index* positions, sy_index positions_off,
                             sy_index n, SY_GLOBAL sy_kept* c, sy_index c_off,
                             SY_GLOBAL sy_index* count, sy_index count_off) {
  for (sy_index i = SY_GID; i < n; i += SY_GSIZE)
    if (mask[mask_off + i]) c[c_off + positions[positions_off + i]] = SY_KEPT(i);
  if (SY_GID == 0)
    count[count_off] = n == 0 ? 0 : positions[positions_off + n - 1] + (mask[mask_off + n - 1] != 0);
}
)";

constexpr std::string_view kGatherKernel = R"(
SY_KERNEL sy_gather(const SY_GLOBAL sy_word* a, sy_index a_off,
                    const SY_GLOBAL sy_index* positions, sy_index positions_off, sy_index rows,
                    sy_index length, sy_index inner, sy_index count, SY_GLOBAL sy_word* c,
                    sy_index c_off) {
  const sy_index total = rows * count * inner;
  for (sy_index e = SY_GID; e < total; e += SY_GSIZE) {
    const sy_index i = e % inner, rj = e / inner, j = rj % count, r = rj / count;
    c[c_off + e] = a[a_off + (r * length + positions[positions_off + j]) * inner + i];
  }
}
)";

// Gemm and gemv, for devices without a vendor BLAS (Vulkan). sy_real is the dtype;
// SY_A_AT(r, c) and SY_B_AT(r, c) are the element offsets of A(r, c) and B(r, c) in memory
// (transposed or not), and SY_TRANSPOSE_A/B say which.
constexpr std::string_view kGemmKernel = R"(
/* C = A · B for each of `batch` products, SY_TILE × SY_TILE outputs of C at a time: the group
   walks A's tile row and B's tile column SY_TILE columns (rows) at a time, staging both in local
   memory, and each item accumulates SY_GEMM_PER_ITEM outputs. Groups stride over the tiles. */
SY_KERNEL sy_gemm(const SY_GLOBAL sy_real* a, sy_index a_off, const SY_GLOBAL sy_real* b,
                  sy_index b_off, SY_GLOBAL sy_real* c, sy_index c_off, sy_index m, sy_index n,
                  sy_index k, sy_index lda, sy_index ldb, sy_index ldc, sy_index stride_a,
                  sy_index stride_b, sy_index stride_c, sy_index batch) {
  SY_LOCAL sy_real as[SY_TILE * (SY_TILE + 1)];
  SY_LOCAL sy_real bs[SY_TILE * (SY_TILE + 1)];
  sy_real acc[SY_GEMM_PER_ITEM];
  const int lid = SY_LID;
  const sy_index tiles_n = (n + SY_TILE - 1) / SY_TILE;
  const sy_index tiles = (m + SY_TILE - 1) / SY_TILE * tiles_n;
  for (sy_index g = SY_GROUP; g < batch * tiles; g += SY_GSIZE / SY_L) {
    const sy_index p = g / tiles, t = g - p * tiles, tm = t / tiles_n;
    const sy_index i0 = tm * SY_TILE, j0 = (t - tm * tiles_n) * SY_TILE;
    const sy_index a0 = a_off + p * stride_a, b0 = b_off + p * stride_b;
    for (int q = 0; q < SY_GEMM_PER_ITEM; ++q) acc[q] = (sy_real)0;
    for (sy_index k0 = 0; k0 < k; k0 += SY_TILE) {
      /* as[r][kk] = A(i0 + r, k0 + kk), bs[kk][s] = B(k0 + kk, j0 + s); neighbouring items
         load neighbouring addresses of each matrix as it lies in memory. */
      for (int e = lid; e < SY_TILE * SY_TILE; e += SY_L) {
        const int hi = e / SY_TILE, lo = e - hi * SY_TILE;
#if SY_TRANSPOSE_A
        const int ar = lo, ak = hi;
#else
        const int ar = hi, ak = lo;
#endif
#if SY_TRANSPOSE_B
        const int bk = lo, bs_ = hi;
#else
        const int bk = hi, bs_ = lo;
#endif
        const sy_index ai = i0 + ar, ka = k0 + ak, kb = k0 + bk, bj = j0 + bs_;
        as[ar * (SY_TILE + 1) + ak] = ai < m && ka < k ? a[a0 + SY_A_AT(ai, ka)] : (sy_real)0;
        bs[bk * (SY_TILE + 1) + bs_] = kb < k && bj < n ? b[b0 + SY_B_AT(kb, bj)] : (sy_real)0;
      }
      SY_BARRIER();
      for (int q = 0; q < SY_GEMM_PER_ITEM; ++q) {
        const int e = lid + q * SY_L, r = e / SY_TILE, s = e - r * SY_TILE;
        if (e < SY_TILE * SY_TILE)
          for (int kk = 0; kk < SY_TILE; ++kk)
            acc[q] = fma(as[r * (SY_TILE + 1) + kk], bs[kk * (SY_TILE + 1) + s], acc[q]);
      }
      SY_BARRIER();
    }
    for (int q = 0; q < SY_GEMM_PER_ITEM; ++q) {
      const int e = lid + q * SY_L, r = e / SY_TILE, s = e - r * SY_TILE;
      if (e < SY_TILE * SY_TILE && i0 + r < m && j0 + s < n)
        c[c_off + p * stride_c + (i0 + r) * ldc + j0 + s] = acc[q];
    }
  }
}
)";

constexpr std::string_view kGemvKernel = R"(
/* y = A · x: group g takes rows g, g + groups, ...; its items stride along the row and their
   sums meet in a tree. */
SY_KERNEL sy_gemv(const SY_GLOBAL sy_real* a, sy_index a_off, const SY_GLOBAL sy_real* x,
                  sy_index x_off, SY_GLOBAL sy_real* y, sy_index y_off, sy_index m, sy_index n,
                  sy_index lda) {
  SY_LOCAL sy_real sums[SY_L];
  const int lid = SY_LID;
  for (sy_index i = SY_GROUP; i < m; i += SY_GSIZE / SY_L) {
    sy_real acc = (sy_real)0;
    for (sy_index j = lid; j < n; j += SY_L) acc = fma(a[a_off + SY_A_AT(i, j)], x[x_off + j], acc);
    sums[lid] = acc;
    SY_BARRIER();
    for (int w = SY_L / 2; w > 0; w >>= 1) {
      if (lid < w) sums[lid] += sums[lid + w];
      SY_BARRIER();
    }
    if (lid == 0) y[y_off + i] = sums[0];
  }
}
)";

std::string gemm_macros(const LibraryOp& op, const Target& target) {
  const int tile = kGemmTile * kGemmTile;
  auto at = [](bool transposed, std::string_view ld) {
    const std::string l(ld);
    return transposed ? "((c) * " + l + " + (r))" : "((r) * " + l + " + (c))";
  };
  return "typedef " + Spelling(target.dialect, 1).scalar_type(op.dtype) +
         " sy_real;\n#define SY_TILE " + std::to_string(kGemmTile) + "\n#define SY_GEMM_PER_ITEM " +
         std::to_string(std::max(1, tile / target.local_size)) + "\n#define SY_TRANSPOSE_A " +
         (op.transpose_a ? "1" : "0") + "\n#define SY_TRANSPOSE_B " + (op.transpose_b ? "1" : "0") +
         "\n#define SY_A_AT(r, c) " + at(op.transpose_a, "lda") + "\n#define SY_B_AT(r, c) " +
         at(op.transpose_b, "ldb") + "\n";
}

void check_target(const LibraryOp& op, const Target& target) {
  if (target.local_size < kRadix || target.local_size > 1024 ||
      !std::has_single_bit(static_cast<unsigned>(target.local_size)))
    throw ValueError("library kernels need a local size that is a power of two in [" +
                     std::to_string(kRadix) + ", 1024], got " + std::to_string(target.local_size));
  if (op.kind == LibraryOp::Kind::Scan) {
    if (op.scan != ir::ReduceOp::Sum && op.scan != ir::ReduceOp::Prod &&
        op.scan != ir::ReduceOp::Min && op.scan != ir::ReduceOp::Max)
      throw ValueError("scan with " + std::string(ir::name(op.scan)) +
                       ": expected sum, prod, min or max");
    if (op.dtype == DType::Float64 && !target.fp64)
      throw DTypeError(
          "scan of float64 on a device without double precision: expected float32 here (cast "
          "the array)");
  }
  const bool product = op.kind == LibraryOp::Kind::Gemm || op.kind == LibraryOp::Kind::Gemv;
  if (product && target.dialect == Dialect::Glsl) {
    const char* what = op.kind == LibraryOp::Kind::Gemm ? "gemm" : "gemv";
    if (!is_floating(op.dtype))
      throw DTypeError(std::string(what) + " of " + std::string(name(op.dtype)) +
                       ": expected float32 or float64 (cast the operands)");
    if (op.dtype == DType::Float64 && !target.fp64)
      throw DTypeError(std::string(what) +
                       " of float64 on a device without double precision: expected float32 "
                       "here (cast the operands)");
  }
}

// The program in C (for GLSL, the C text that library_glsl.hpp translates).
std::string c_program(const LibraryOp& op, const Target& target) {
  const Dialect d = target.dialect;
  const std::string index(table(d).index), word = word_type(d, op.dtype);
  std::string s = prelude(target);
  switch (op.kind) {
    case LibraryOp::Kind::Scan: {
      if (d == Dialect::OpenCL && op.dtype == DType::Float64)
        s = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + s;
      const std::string acc = Spelling(d, 1).scalar_type(op.dtype);
      return s + scan_algebra(d, op.dtype, op.scan) + scan_kernels("", acc);
    }
    case LibraryOp::Kind::Sort:
      // Histogram offsets are scanned as int64 sums.
      return s + scan_algebra(d, DType::Int64, ir::ReduceOp::Sum) + scan_kernels("", index) +
             "typedef " + word + " sy_word;\n#define SY_WITH_INDICES " + (op.indices ? "1" : "0") +
             "\n" + sort_key(op.dtype) + "SY_HELPER int sy_add(int a, int b) { return a + b; }\n" +
             block_scan("sy_block_scan_int", "int", "sy_add", "0") + std::string(kSortKernels);
    case LibraryOp::Kind::Compact:
      return s + scan_algebra(d, DType::Int64, ir::ReduceOp::Sum) + scan_kernels("", index) +
             scan_kernels(kMaskSuffix, "sy_bool") + "typedef " + word + " sy_word;\ntypedef " +
             (op.indices           ? "sy_index sy_kept;\n#define SY_KEPT(i) (i)\n"
              : d == Dialect::Glsl ? "sy_word sy_kept;\n#define SY_KEPT(i) " +
                                         glsl_element(word, "a", "a_off + (i)") + "\n"
                                   : "sy_word sy_kept;\n#define SY_KEPT(i) a[a_off + (i)]\n") +
             std::string(kCompactKernel);
    case LibraryOp::Kind::Gather:
      return s + "typedef " + word + " sy_word;\n" + std::string(kGatherKernel);
    case LibraryOp::Kind::Gemm:
    case LibraryOp::Kind::Gemv:
      if (d == Dialect::Glsl)
        return s + gemm_macros(op, target) +
               std::string(op.kind == LibraryOp::Kind::Gemm ? kGemmKernel : kGemvKernel);
      [[fallthrough]];
    default:
      throw ValueError("library op " + std::to_string(static_cast<int>(op.kind)) +
                       " has no generated kernels: expected scan, sort, compact or gather");
  }
}

}  // namespace

std::vector<std::string> library_entries(const LibraryOp& op) {
  const std::string reduce(kScanReduceEntry), tile(kScanTileEntry), mask(kMaskSuffix);
  switch (op.kind) {
    case LibraryOp::Kind::Scan:
      return {reduce, tile};
    case LibraryOp::Kind::Sort:
      return {reduce, tile, std::string(kSortHistogramEntry), std::string(kSortScatterEntry)};
    case LibraryOp::Kind::Compact:
      return {reduce, tile, reduce + mask, tile + mask, std::string(kCompactScatterEntry)};
    case LibraryOp::Kind::Gather:
      return {std::string(kGatherEntry)};
    case LibraryOp::Kind::Gemm:
      return {std::string(kGemmEntry)};
    case LibraryOp::Kind::Gemv:
      return {std::string(kGemvEntry)};
    default:
      return {};
  }
}

std::string render_library(const LibraryOp& op, const Target& target) {
  check_target(op, target);
  if (target.dialect != Dialect::Glsl) return c_program(op, target);
  std::string head(table(Dialect::Glsl).prelude);
  // Scans and products of float64 compare NaN and infinities as float32 code does: the same
  // execution mode (SignedZeroInfNanPreserve) for 64-bit floats.
  const bool float64_arithmetic = op.dtype == DType::Float64 && (op.kind == LibraryOp::Kind::Scan ||
                                                                 op.kind == LibraryOp::Kind::Gemm ||
                                                                 op.kind == LibraryOp::Kind::Gemv);
  if (float64_arithmetic)
    head +=
        "spirv_execution_mode(extensions = [\"SPV_KHR_float_controls\"], capabilities = [4466], "
        "4461, 64);\n";
  return glsl_from_library_c(head + "\n", c_program(op, target), target.local_size);
}

}  // namespace switchyard::codegen

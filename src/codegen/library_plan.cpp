// The launches of library_kernels.hpp's plans: how many groups, which buffers, in which order.
#include <algorithm>

#include "codegen/library_kernels.hpp"

namespace switchyard::codegen {
namespace {

using Kind = LibraryArg::Kind;

// A pointer argument and the offset the ABI passes after it.
struct Buffer {
  LibraryArg memory;
  std::int64_t offset = 0;
};

Buffer operand(Kind kind, const Operand& o) {
  return {{kind, 0}, o.offset};
}

LibraryArg number(std::int64_t v) {
  return {Kind::Number, v};
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Grid-stride kernels need no more groups than fill a large GPU several times over, and no more
// than every Vulkan device takes in one dispatch (maxComputeWorkGroupCount is at least 65535).
constexpr std::int64_t kMaxStridingGroups = 65535;

class Planner {
 public:
  explicit Planner(const Target& target) : local_(target.local_size) {}

  Buffer scratch(std::int64_t bytes) {
    plan_.scratch_bytes.push_back(static_cast<std::size_t>(std::max<std::int64_t>(bytes, 1)));
    return {{Kind::Scratch, static_cast<std::int64_t>(plan_.scratch_bytes.size() - 1)}, 0};
  }

  // Arguments: Buffers become (memory, offset), numbers stay as they are.
  template <class... A>
  void launch(std::string entry, std::int64_t groups, const A&... args) {
    LibraryLaunch l{std::move(entry), groups, {}};
    (add(l.args, args), ...);
    plan_.launches.push_back(std::move(l));
  }

  // Scans `rows` rows of `length` (> 0) elements of `in` into `out` (in place allowed); the
  // tiles' totals are scanned the same way, recursively, until one tile holds a whole row.
  void scan(const Buffer& in, const Buffer& out, std::int64_t rows, std::int64_t length,
            bool exclusive, std::string_view suffix) {
    const std::int64_t tiles = ceil_div(length, std::int64_t{kScanPerItem} * local_);
    const std::string reduce = std::string(kScanReduceEntry) + std::string(suffix);
    const std::string tile = std::string(kScanTileEntry) + std::string(suffix);
    if (tiles == 1)
      return launch(tile, rows, in, number(length), number(1), out, number(0), number(exclusive),
                    out);
    // Accumulators are at most 8 bytes.
    const Buffer partials = scratch(rows * tiles * 8);
    launch(reduce, rows * tiles, in, number(length), number(tiles), partials);
    scan(partials, partials, rows, tiles, true, "");
    launch(tile, rows * tiles, in, number(length), number(tiles), partials, number(1),
           number(exclusive), out);
  }

  std::int64_t striding_groups(std::int64_t items) const {
    return std::clamp<std::int64_t>(ceil_div(items, local_), 1, kMaxStridingGroups);
  }
  std::int64_t local_size() const { return local_; }
  LibraryPlan take() { return std::move(plan_); }

 private:
  static void add(std::vector<LibraryArg>& args, const Buffer& b) {
    args.push_back(b.memory);
    args.push_back(number(b.offset));
  }
  static void add(std::vector<LibraryArg>& args, const LibraryArg& a) { args.push_back(a); }

  std::int64_t local_;
  LibraryPlan plan_;
};

// LSD radix sort: per pass, digit counts per tile, their exclusive scan per row (digit-major,
// so equal digits keep tile order), and a stable scatter. Passes alternate between the output
// and one scratch copy so that the last pass lands in the output.
void plan_sort(Planner& p, const LibraryOp& op, const LibraryArgs& x) {
  const std::int64_t rows = x.rows, n = x.length, word = size_of(op.dtype);
  const std::int64_t tiles = ceil_div(n, std::int64_t{kSortPerItem} * p.local_size());
  // Bool keys are 0 or 1: one digit holds them.
  const int passes = op.dtype == DType::Bool ? 1 : static_cast<int>(word * 8 / kRadixBits);
  const Buffer hist = p.scratch(rows * kRadix * tiles * 8);
  const Buffer values = passes > 1 ? p.scratch(rows * n * word) : Buffer{};
  const Buffer positions = passes > 1 && op.indices ? p.scratch(rows * n * 8) : Buffer{};
  // Without `indices` the index arguments are never read or written; they name c rather than
  // an absent d, so that every memory argument is an allocation (Vulkan passes its address).
  const Buffer c = operand(Kind::C, x.c), d = op.indices ? operand(Kind::D, x.d) : c;
  Buffer src = operand(Kind::A, x.a), src_idx = d;
  for (int pass = 0; pass < passes; ++pass) {
    const bool last_lands_here = (passes - 1 - pass) % 2 == 0;
    const Buffer dst = last_lands_here ? c : values;
    const Buffer dst_idx = last_lands_here || !op.indices ? d : positions;
    const std::int64_t shift = std::int64_t{pass} * kRadixBits;
    p.launch(std::string(kSortHistogramEntry), rows * tiles, src, number(n), number(tiles),
             number(shift), hist);
    p.scan(hist, hist, rows, kRadix * tiles, true, "");
    p.launch(std::string(kSortScatterEntry), rows * tiles, src, src_idx, number(pass > 0),
             number(n), number(tiles), number(shift), hist, dst, dst_idx);
    src = dst;
    src_idx = dst_idx;
  }
}

void plan_compact(Planner& p, const LibraryArgs& x) {
  const std::int64_t n = x.length;
  const Buffer positions = p.scratch(n * 8);
  if (n > 0) p.scan(operand(Kind::B, x.b), positions, 1, n, true, kMaskSuffix);
  p.launch(std::string(kCompactScatterEntry), p.striding_groups(n), operand(Kind::A, x.a),
           operand(Kind::B, x.b), positions, number(n), operand(Kind::C, x.c),
           operand(Kind::D, x.d));
}

}  // namespace

LibraryPlan plan_library(const LibraryOp& op, const LibraryArgs& x, const Target& target) {
  Planner p(target);
  switch (op.kind) {
    case LibraryOp::Kind::Scan:
      if (x.rows * x.length > 0)
        p.scan(operand(Kind::A, x.a), operand(Kind::C, x.c), x.rows, x.length, op.exclusive, "");
      break;
    case LibraryOp::Kind::Sort:
      if (x.rows * x.length > 0) plan_sort(p, op, x);
      break;
    case LibraryOp::Kind::Compact:
      plan_compact(p, x);
      break;
    case LibraryOp::Kind::Gather: {
      const std::int64_t total = x.rows * x.count * x.inner;
      if (total > 0)
        p.launch(std::string(kGatherEntry), p.striding_groups(total), operand(Kind::A, x.a),
                 operand(Kind::B, x.b), number(x.rows), number(x.length), number(x.inner),
                 number(x.count), operand(Kind::C, x.c));
      break;
    }
    case LibraryOp::Kind::Gemm: {
      if (x.m == 0 || x.n == 0 || x.batch == 0) break;
      const std::int64_t tiles = ceil_div(x.m, kGemmTile) * ceil_div(x.n, kGemmTile);
      p.launch(std::string(kGemmEntry), std::min(x.batch * tiles, kMaxStridingGroups),
               operand(Kind::A, x.a), operand(Kind::B, x.b), operand(Kind::C, x.c), number(x.m),
               number(x.n), number(x.k), number(x.lda), number(x.ldb), number(x.ldc),
               number(x.stride_a), number(x.stride_b), number(x.stride_c), number(x.batch));
      break;
    }
    case LibraryOp::Kind::Gemv:
      if (x.m == 0) break;
      p.launch(std::string(kGemvEntry), std::min(x.m, kMaxStridingGroups), operand(Kind::A, x.a),
               operand(Kind::B, x.b), operand(Kind::C, x.c), number(x.m), number(x.n),
               number(x.lda));
      break;
    default:
      break;
  }
  return p.take();
}

}  // namespace switchyard::codegen

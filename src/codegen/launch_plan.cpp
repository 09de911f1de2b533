#include "codegen/launch_plan.hpp"

#include <algorithm>

namespace switchyard::codegen {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Chunks an item should own before another item (or group) is worth adding: items on a CPU run
// one after another, so splitting below a few thousand elements costs more than it saves.
std::int64_t min_chunks_per_item(const Target& t) {
  return t.blocked ? 64 : 4;
}

}  // namespace

MapPlan plan_map(std::int64_t n, const Target& t, std::int64_t max_groups) {
  const std::int64_t chunks = ceil_div(n, t.vector_width);
  const std::int64_t per_group = t.local_size * (t.blocked ? min_chunks_per_item(t) : 1);
  return {std::clamp<std::int64_t>(ceil_div(chunks, per_group), n > 0 ? 1 : 0,
                                   std::max<std::int64_t>(max_groups, 1))};
}

ReducePlan plan_reduction(const ir::FoldedRows& rows, const Target& t, std::int64_t max_groups) {
  ReducePlan p;
  p.rows = rows.rows;
  p.row_len = rows.length;
  if (p.rows == 0) return p;
  const std::int64_t row_chunks = ceil_div(p.row_len, t.vector_width);
  // Rows shorter than one group's worth of chunks would leave most of a group idle.
  if (row_chunks < t.local_size && p.rows > 1) {
    p.by_rows = true;
    p.groups = ceil_div(p.rows, t.local_size);
    return p;
  }
  const std::int64_t useful = ceil_div(row_chunks, t.local_size * min_chunks_per_item(t));
  const std::int64_t wanted = ceil_div(std::max<std::int64_t>(max_groups, 1), p.rows);
  p.parts = std::clamp<std::int64_t>(std::min(useful, wanted), 1, 1 << 16);
  p.groups = p.rows * p.parts;
  return p;
}

}  // namespace switchyard::codegen

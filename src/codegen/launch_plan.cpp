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
  if (t.dialect == Dialect::C) return 4 * kFoldBlock;  // an item is a call from a thread pool
  return t.blocked ? 64 : 4;
}

// Chunks of a row below which a group would idle: C's items fold blocks of kFoldBlock.
std::int64_t group_chunks(const Target& t) {
  return t.dialect == Dialect::C ? kFoldBlock : t.local_size;
}

using Kind = KernelArg::Kind;

bool is_arg(ir::ReduceOp op) {
  return op == ir::ReduceOp::ArgMin || op == ir::ReduceOp::ArgMax;
}

// `rank, shape`, then the inputs and scalars: what every entry point but sy_reduce_final takes.
void add_operands(std::vector<KernelArg>& a, const ir::Kernel& k) {
  a.push_back({Kind::Rank});
  a.push_back({Kind::Shape});
  for (std::size_t i = 0; i < k.inputs.size(); ++i) {
    const auto slot = static_cast<std::int64_t>(i);
    a.push_back({Kind::Input, slot});
    a.push_back({Kind::InputOffset, slot});
    if (k.inputs[i].layout == ir::Layout::Strided) a.push_back({Kind::InputStrides, slot});
  }
  for (std::size_t j = 0; j < k.scalars.size(); ++j)
    a.push_back({Kind::Scalar, static_cast<std::int64_t>(j)});
}

void add_output(std::vector<KernelArg>& a, std::size_t o) {
  a.push_back({Kind::Output, static_cast<std::int64_t>(o)});
  a.push_back({Kind::OutputOffset, static_cast<std::int64_t>(o)});
}

// A fresh scratch buffer of `bytes`, as a pointer and offset argument pair.
void add_scratch(std::vector<KernelArg>& a, KernelPlan& plan, std::size_t bytes) {
  a.push_back({Kind::Scratch, static_cast<std::int64_t>(plan.scratch_bytes.size())});
  a.push_back({Kind::Index, 0});
  plan.scratch_bytes.push_back(bytes);
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
  if (row_chunks < group_chunks(t) && p.rows > 1) {
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

KernelPlan plan_kernel(const ir::Kernel& k, const Shape& shape, const Target& t,
                       std::int64_t max_groups) {
  KernelPlan plan;
  if (!k.has_reduction) {
    const std::int64_t n = element_count(shape);
    const MapPlan map = plan_map(n, t, max_groups);
    if (map.groups == 0) return plan;
    KernelLaunch& l =
        plan.launches.emplace_back(KernelLaunch{kMapEntry, map.groups, {{Kind::Index, n}}});
    add_operands(l.args, k);
    for (std::size_t o = 0; o < k.outputs.size(); ++o) add_output(l.args, o);
    return plan;
  }
  const ReducePlan r = plan_reduction(ir::folded_rows(k.reductions[0], shape), t, max_groups);
  if (r.groups == 0) return plan;
  if (r.by_rows) {
    KernelLaunch& l = plan.launches.emplace_back(KernelLaunch{
        kReduceRowsEntry, r.groups, {{Kind::Index, r.rows}, {Kind::Index, r.row_len}}});
    add_operands(l.args, k);
    for (std::size_t o = 0; o < k.outputs.size(); ++o) add_output(l.args, o);
    return plan;
  }
  // With one part per row the partials are the result: values (or, for Arg ops, the indices)
  // go to the output, and there is no final pass.
  const bool direct = !r.final_pass();
  const auto count = static_cast<std::size_t>(r.rows * r.parts);
  KernelLaunch partial{kReducePartialEntry,
                       r.groups,
                       {{Kind::Index, r.rows}, {Kind::Index, r.row_len}, {Kind::Index, r.parts}}};
  add_operands(partial.args, k);
  KernelLaunch final{kReduceFinalEntry, r.rows, {{Kind::Index, r.rows}, {Kind::Index, r.parts}}};
  for (std::size_t o = 0; o < k.outputs.size(); ++o) {
    const bool arg = is_arg(k.reductions[o].op);
    if (!direct || arg) {
      final.args.push_back({Kind::Scratch, static_cast<std::int64_t>(plan.scratch_bytes.size())});
      add_scratch(partial.args, plan, count * size_of(partial_dtype(k, o)));
    } else {
      add_output(partial.args, o);
    }
    if (arg && !direct) {
      final.args.push_back({Kind::Scratch, static_cast<std::int64_t>(plan.scratch_bytes.size())});
      add_scratch(partial.args, plan, count * sizeof(std::int64_t));
    } else if (arg) {
      add_output(partial.args, o);
    }
    add_output(final.args, o);
  }
  plan.launches.push_back(std::move(partial));
  if (!direct) plan.launches.push_back(std::move(final));
  return plan;
}

}  // namespace switchyard::codegen

#include "backends/cpu/cpu_program.hpp"

#include <hwy/cache_control.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "backends/cpu/element_ops.hpp"

namespace switchyard::cpu {
namespace {

using ir::Layout;
using ir::OpCode;

const std::byte* element_at(const Operand& operand, std::int64_t index, std::size_t bytes) {
  return static_cast<const std::byte*>(operand.memory.handle) + (operand.offset + index) * bytes;
}

// Reads elements [start, start + n) of a strided input, in row-major order of the launch shape:
// the multi-index of `start` is computed once, then runs along the last axis are copied and the
// index carried into the outer axes.
template <class E>
void gather(const Operand& input, const Shape& shape, std::int64_t start, std::int64_t n,
            void* destination) {
  const E* base = reinterpret_cast<const E*>(element_at(input, 0, sizeof(E)));
  E* out = static_cast<E*>(destination);
  const int rank = shape.size();
  if (rank == 0) return std::fill_n(out, n, base[0]), void();
  std::int64_t index[kMaxRank];
  std::int64_t position = 0, rest = start;
  for (int d = rank - 1; d >= 0; --d) {
    index[d] = rest % shape[d];
    rest /= shape[d];
    position += index[d] * input.strides[d];
  }
  const int last = rank - 1;
  const std::int64_t step = input.strides[last];
  for (std::int64_t done = 0; done < n;) {
    const std::int64_t run = std::min(shape[last] - index[last], n - done);
    const E* p = base + position;
    for (std::int64_t k = 0; k < run; ++k) out[done + k] = p[k * step];
    done += run;
    position += run * step;
    index[last] += run;
    for (int d = last; d > 0 && index[d] == shape[d]; --d) {
      position += input.strides[d - 1] - shape[d] * input.strides[d];
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

void gather_bytes(std::size_t element_bytes, const Operand& input, const Shape& shape,
                  std::int64_t start, std::int64_t n, void* destination) {
  switch (element_bytes) {
    case 1:
      return gather<std::uint8_t>(input, shape, start, n, destination);
    case 4:
      return gather<std::uint32_t>(input, shape, start, n, destination);
    default:
      return gather<std::uint64_t>(input, shape, start, n, destination);
  }
}

// The dtype an instruction reads (see plain_block_kernel).
DType operand_dtype(const ir::Kernel& k, const ir::Instr& i) {
  if (i.op == OpCode::Cast || ir::is_comparison(i.op) || ir::is_classification(i.op))
    return k.body[i.a].dtype;
  if (i.op == OpCode::Where) return k.body[i.b].dtype;
  return i.dtype;
}

}  // namespace

void Workspace::reserve(int slots, int values, std::size_t partials) {
  const std::size_t words = static_cast<std::size_t>(slots) * kBlockElements;
  if (memory_.size() < words) memory_.resize(words);
  if (values_.size() < static_cast<std::size_t>(values)) values_.resize(values);
  if (partials_.size() < partials) partials_.resize(partials);
  partial_count_ = partials;
}

Workspace& thread_workspace(const Program& program) {
  thread_local Workspace workspace;
  workspace.reserve(program.slot_count(), program.value_count(), program.folds().size());
  return workspace;
}

Program::Program(const ir::Kernel& k) {
  k.validate();
  const int count = static_cast<int>(k.body.size());
  value_count_ = count;
  const bool has_reduction = k.has_reduction;
  auto arity = [&](int v) { return ir::arity(k.body[v].op); };
  auto operand = [&](int v, int j) {
    return j == 0 ? k.body[v].a : j == 1 ? k.body[v].b : k.body[v].c;
  };
  auto is_contiguous_load = [&](int v) {
    return k.body[v].op == OpCode::Load && k.inputs[k.body[v].a].layout == Layout::Contiguous;
  };

  // Instructions that contribute to an output; the others are skipped.
  std::vector<bool> needed(count, false);
  for (const auto& o : k.outputs) needed[o.value] = true;
  for (int v = count - 1; v >= 0; --v)
    if (needed[v])
      for (int j = 0; j < arity(v); ++j) needed[operand(v, j)] = true;

  // An output may be written in place only after every read of input memory in the block, or
  // it would overwrite an input it aliases before that input is read.
  int last_memory_read = -1;
  for (int v = 0; v < count; ++v) {
    if (!needed[v]) continue;
    if (k.body[v].op == OpCode::Load && k.inputs[k.body[v].a].layout == Layout::Strided)
      last_memory_read = v;
    for (int j = 0; j < arity(v); ++j)
      if (is_contiguous_load(operand(v, j))) last_memory_read = v;
  }
  for (const auto& o : k.outputs)
    if (is_contiguous_load(o.value)) last_memory_read = count;

  std::vector<int> direct_output(count, -1);
  for (int o = 0; o < static_cast<int>(k.outputs.size()); ++o) {
    const int v = k.outputs[o].value;
    const auto op = k.body[v].op;
    if (!has_reduction && op != OpCode::Load && op != OpCode::Scalar && v >= last_memory_read &&
        direct_output[v] < 0)
      direct_output[v] = o;
    else if (!has_reduction)
      copies_.push_back({o, v, static_cast<std::uint8_t>(size_of(k.outputs[o].dtype))});
  }

  // Copies of input values run first: an output may alias an input element for element.
  std::stable_partition(copies_.begin(), copies_.end(),
                        [&](const OutputCopy& c) { return k.body[c.value].op == OpCode::Load; });

  std::vector<int> last_use(count, -1);
  for (int v = 0; v < count; ++v)
    if (needed[v])
      for (int j = 0; j < arity(v); ++j) last_use[operand(v, j)] = v;
  for (const auto& c : copies_) last_use[c.value] = count;
  if (has_reduction)
    for (const auto& o : k.outputs) last_use[o.value] = count;

  // Splats are filled once per task, before any block runs, so their slots are never shared;
  // other slots are reused once their value's last reader has run.
  auto is_splat = [&](int v) {
    return k.body[v].op == OpCode::Scalar ||
           (k.body[v].op == OpCode::Load && k.inputs[k.body[v].a].layout == Layout::Broadcast);
  };
  std::vector<int> slot_of(count, -1), free_slots;
  for (int v = 0; v < count; ++v)
    if (needed[v] && is_splat(v)) slot_of[v] = slot_count_++;
  auto take_slot = [&] {
    if (free_slots.empty()) return slot_count_++;
    const int s = free_slots.back();
    free_slots.pop_back();
    return s;
  };
  for (int v = 0; v < count; ++v) {
    if (!needed[v]) continue;
    const ir::Instr& i = k.body[v];
    Step s{StepKind::Compute, static_cast<std::uint8_t>(size_of(i.dtype)), i.dtype, v};
    s.slot = slot_of[v];
    if (i.op == OpCode::Scalar) {
      s.kind = StepKind::SplatScalar;
      s.source = i.a;
    } else if (i.op == OpCode::Load) {
      const Layout layout = k.inputs[i.a].layout;
      s.kind = layout == Layout::Broadcast    ? StepKind::SplatLoad
               : layout == Layout::Contiguous ? StepKind::ContiguousLoad
                                              : StepKind::StridedLoad;
      s.source = i.a;
      if (s.kind == StepKind::StridedLoad) s.slot = take_slot();
    } else {
      s.fn = block_kernel(i.op, i.dtype, operand_dtype(k, i));
      for (int j = 0; j < arity(v); ++j) s.operands[j] = operand(v, j);
      s.direct_output = direct_output[v];
      if (s.direct_output < 0) s.slot = take_slot();
    }
    slot_of[v] = s.slot;
    (is_splat(v) ? splats_ : block_steps_).push_back(s);
    for (int j = 0; j < arity(v); ++j) {
      const int u = operand(v, j);
      const bool first_mention = std::find(s.operands, s.operands + j, u) == s.operands + j;
      if (first_mention && last_use[u] == v && slot_of[u] >= 0 && !is_splat(u))
        free_slots.push_back(slot_of[u]);
    }
  }

  element_cost_ = 0;
  for (const Step& s : block_steps_)
    if (s.kind != StepKind::ContiguousLoad)
      element_cost_ += ir::is_transcendental(k.body[s.value].op) ? 8 : 1;
  element_cost_ = std::max<std::int64_t>(element_cost_, 1);

  if (!has_reduction) return;
  reduction_ = k.reductions[0];
  for (std::size_t o = 0; o < k.outputs.size(); ++o) {
    const DType t = k.outputs[o].dtype;
    const ir::ReduceOp op = k.reductions[o].op;
    folds_.push_back(
        {k.outputs[o].value, fold_for(op, t), size_of(t), size_of(ir::reduce_result(op, t))});
  }
  // Passes over each block: every step that computes or gathers, and every fold.
  const auto is_contiguous = [](const Step& s) { return s.kind == StepKind::ContiguousLoad; };
  const auto passes = block_steps_.size() -
                      std::count_if(block_steps_.begin(), block_steps_.end(), is_contiguous) +
                      folds_.size();
  if (passes > 1)
    std::copy_if(block_steps_.begin(), block_steps_.end(), std::back_inserter(prefetched_),
                 is_contiguous);
  for (const Step& s : prefetched_) prefetched_bytes_ += s.element_bytes;
}

void Program::prefetch(const LaunchArgs& args, std::int64_t start, std::int64_t n) const {
  constexpr std::int64_t kLineBytes = 64;
  for (const Step& s : prefetched_) {
    const auto* first =
        reinterpret_cast<const char*>(element_at(args.inputs[s.source], start, s.element_bytes));
    for (std::int64_t b = 0; b < n * s.element_bytes; b += kLineBytes) hwy::Prefetch(first + b);
  }
}

void Program::begin_task(const LaunchArgs& args, Workspace& w, std::int64_t count) const {
  for (const Step& s : splats_) {
    void* slot = w.slot(s.slot);
    visit_dtype(s.dtype, [&](auto zero) {
      using T = decltype(zero);
      T value;
      if (s.kind == StepKind::SplatLoad) {
        std::memcpy(&value, element_at(args.inputs[s.source], 0, sizeof(T)), sizeof(T));
      } else {
        const ScalarValue& scalar = args.scalars[s.source];
        value = is_floating(scalar.dtype) ? element::cast<T>(scalar.f) : element::cast<T>(scalar.i);
      }
      std::fill_n(static_cast<T*>(slot), count, value);
    });
    w.values()[s.value] = slot;
  }
}

void Program::run_block(const LaunchArgs& args, Workspace& w, std::int64_t start,
                        std::int64_t n) const {
  const void** values = w.values();
  for (const Step& s : block_steps_) {
    switch (s.kind) {
      case StepKind::ContiguousLoad:
        values[s.value] = element_at(args.inputs[s.source], start, s.element_bytes);
        break;
      case StepKind::StridedLoad:
        gather_bytes(s.element_bytes, args.inputs[s.source], args.shape, start, n, w.slot(s.slot));
        values[s.value] = w.slot(s.slot);
        break;
      default: {
        void* out = s.direct_output >= 0
                        ? const_cast<std::byte*>(
                              element_at(args.outputs[s.direct_output], start, s.element_bytes))
                        : w.slot(s.slot);
        s.fn(values[s.operands[0]], values[s.operands[1]], values[s.operands[2]], out, n);
        values[s.value] = out;
      }
    }
  }
  for (const OutputCopy& c : copies_)
    std::memcpy(const_cast<std::byte*>(element_at(args.outputs[c.output], start, c.element_bytes)),
                values[c.value], n * c.element_bytes);
}

}  // namespace switchyard::cpu

// Assembles the entry points of codegen.hpp's ABI from bodies (body.hpp) and folds (fold.hpp).
#include <algorithm>
#include <functional>
#include <vector>

#include "codegen/codegen.hpp"
#include "codegen/fold.hpp"
#include "switchyard/error.hpp"

namespace switchyard::codegen {
namespace {

// One argument of an entry point: its type and the name bodies read it by.
struct Param {
  std::string type, name;
};
using Params = std::vector<Param>;

class Renderer {
 public:
  Renderer(const ir::Kernel& kernel, const Target& target)
      : k_(kernel),
        target_(target),
        t_(table(target.dialect)),
        vec_(target.dialect, target.vector_width, target.fp64),
        one_(target.dialect, 1, target.fp64),
        W_(std::to_string(target.vector_width)),
        L_(std::to_string(target.local_size)),
        I_(t_.index) {}

  std::string program() {
    std::string kernels;
    if (k_.has_reduction)
      kernels = (target_.dialect == Dialect::C ? reduce_partial_blocks() : reduce_partial()) +
                "\n" + reduce_final() + "\n" + reduce_rows();
    else
      kernels = map();
    std::string head;  // the dialect table's prelude follows
    if (target_.dialect == Dialect::OpenCL && uses_fp64())
      head = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    std::string prelude(t_.prelude);
    if (uses_fp64()) prelude += t_.prelude_fp64;
    return head + prelude + "\n" + helpers_.definitions() + kernels;
  }

  // float64 in the kernel, or in the helpers a float32 function is computed through.
  bool uses_fp64() const {
    return k_.uses_float64() ||
           std::any_of(k_.body.begin(), k_.body.end(), [&](const ir::Instr& i) {
             return vec_.through_float64(ir::name(i.op), i.dtype) ||
                    one_.through_float64(ir::name(i.op), i.dtype);
           });
  }

 private:
  // Entry point `name` taking `params`, with work-group arrays `shared` (declared by
  // tree_declare at the indent shared_indent() gives) and statements `body`. C dialects: a
  // kernel function. GLSL: a section for SY_ENTRY_<name> whose main() reads the arguments from
  // the block the push constant points at (codegen.hpp).
  std::string entry(std::string_view name, bool fixed_group, const Params& params,
                    const std::string& shared, const std::string& body) const {
    const std::string n(name);
    // GLSL and C read the arguments from a block (codegen.hpp): its members, and a local copy
    // of each through `member_access` ("sy_args." or "sy_args->").
    const std::string block = "sy_args_" + n;
    const auto block_of = [&](std::string_view member_access, std::string& members,
                              std::string& copies) {
      for (const Param& p : params) {
        members += "  " + p.type + " " + p.name + ";\n";
        copies +=
            "  " + p.type + " " + p.name + " = " + std::string(member_access) + p.name + ";\n";
      }
    };
    if (target_.dialect == Dialect::Glsl) {
      std::string members, copies;
      block_of("sy_args.", members, copies);
      return "#ifdef SY_ENTRY_" + n + "\nlayout(local_size_x = " + L_ +
             ") in;\nlayout(buffer_reference, std430, buffer_reference_align = 8) readonly "
             "buffer " +
             block + " {\n" + members + "};\nlayout(push_constant, std430) uniform sy_push {\n  " +
             block + " sy_args;\n};\n" + shared + "void main() {\n" + copies + body + "}\n#endif\n";
    }
    if (target_.dialect == Dialect::C) {
      std::string members, copies;
      block_of("sy_args->", members, copies);
      return "struct " + block + " {\n" + members + "};\nvoid " + n +
             "(const void* sy_block, long long sy_item, long long sy_items) {\n  const struct " +
             block + "* sy_args = (const struct " + block + "*)sy_block;\n" + copies + shared +
             body + "}\n";
    }
    std::string s;
    if (fixed_group) {
      s = std::string(t_.kernel_fixed_group);
      s.replace(s.find('@'), 1, L_);
    } else {
      s = std::string(t_.kernel);
    }
    s += " " + n + "(";
    for (std::size_t i = 0; i < params.size(); ++i)
      s += (i ? ", " : "") + params[i].type + " " + params[i].name;
    return s + ") {\n" + shared + body + "}\n";
  }
  std::string shared_indent() const { return target_.dialect == Dialect::Glsl ? "" : "  "; }

  std::string pointer(DType t, bool is_const) const { return one_.pointer_type(t, is_const); }

  // Pointer `name` and its offset `name_off`.
  void add_pointer(Params& ps, DType t, bool is_const, const std::string& name) const {
    ps.push_back({pointer(t, is_const), name});
    ps.push_back({I_, name + "_off"});
  }

  // `rank, shape`, then the inputs and scalars of codegen.hpp's ABI.
  void add_operands(Params& ps) const {
    ps.push_back({"int", "rank"});
    ps.push_back({"sy_dims", "shape"});
    for (std::size_t i = 0; i < k_.inputs.size(); ++i) {
      const std::string n = input_name(static_cast<int>(i));
      add_pointer(ps, k_.inputs[i].dtype, true, n);
      if (k_.inputs[i].layout == ir::Layout::Strided) ps.push_back({"sy_dims", n + "_strides"});
    }
    for (std::size_t j = 0; j < k_.scalars.size(); ++j)
      ps.push_back({one_.scalar_type(k_.scalars[j]), scalar_name(static_cast<int>(j))});
  }

  // Declares the chunks [begin, end) step `step` of item `slot` among `slots`, over `total`
  // chunks of which `full` are whole; and owns(chunk) says whether the item has that chunk.
  std::string chunk_range(const std::string& ind) const {
    if (target_.blocked)
      return ind + "const " + I_ + " per = (total + slots - 1) / slots;\n" + ind + "const " + I_ +
             " begin = slot * per, step = 1;\n" + ind + "const " + I_ +
             " end = begin + per < full ? begin + per : full;\n";
    return ind + "const " + I_ + " begin = slot, end = full, step = slots;\n";
  }
  std::string owns(const std::string& chunk) const {
    if (target_.blocked) return chunk + " >= begin && " + chunk + " < begin + per";
    return chunk + " % slots == slot";
  }
  std::string chunk_counts(const std::string& len, const std::string& ind) const {
    return ind + "const " + I_ + " total = (" + len + " + " + W_ + " - 1) / " + W_ +
           ", full = " + len + " / " + W_ + ";\n";
  }

  std::string stores(const Spelling& s, const std::string& ind) const {
    std::string out;
    for (std::size_t o = 0; o < k_.outputs.size(); ++o) {
      const std::string n = "out" + std::to_string(o);
      out += ind +
             s.vstore(k_.outputs[o].dtype, value_name(k_.outputs[o].value), n, n + "_off + e") +
             ";\n";
    }
    return out;
  }

  // C reads strided inputs along rows (render_body's StridedAccess::AlongRow): one item is one
  // contiguous range of elements.
  bool along_rows() const {
    return target_.dialect == Dialect::C && target_.blocked &&
           std::any_of(k_.inputs.begin(), k_.inputs.end(),
                       [](const ir::Input& in) { return in.layout == ir::Layout::Strided; });
  }
  std::string steps(const std::string& ind) const {
    return along_rows() ? strided_steps(k_, one_, ind) : "";
  }

  // for (type var = from; var < to; var += step) { body }, whose element element(var) is
  // consecutive for consecutive var. Reading strided inputs along rows, the range is walked in
  // segments that stay in one row of the innermost axis (step 1), each input's offset stepped
  // from the segment's first element: a division per axis per segment, not per element.
  using Body = std::function<std::string(StridedAccess, const std::string& indent)>;
  std::string element_loop(const std::string& type, const std::string& var, const std::string& from,
                           const std::string& to, const std::string& step,
                           const std::function<std::string(const std::string&)>& element, bool simd,
                           const Body& body, const std::string& ind) {
    const std::string pragma = simd && target_.dialect == Dialect::C ? "#pragma omp simd\n" : "";
    const auto loop = [&](const std::string& begin, const std::string& end, const std::string& by,
                          StridedAccess access, const std::string& in) {
      return pragma + in + "for (" + type + " " + var + " = " + begin + "; " + var + " < " + end +
             "; " + var + " += " + by + ") {\n" + body(access, in + "  ") + in + "}\n";
    };
    if (!along_rows()) return loop(from, to, step, StridedAccess::FromIndex, ind);
    const std::string first = var + "_first", end = var + "_end", in = ind + "  ";
    return ind + "for (" + type + " " + first + " = " + from + "; " + first + " < " + to +
           ";) {\n" + in + "const " + I_ + " first = " + element(first) +
           ", room = inner - first % inner;\n" + in + "const " + type + " " + end + " = " + to +
           " - " + first + " <= room ? " + to + " : " + first + " + (" + type + ")room;\n" +
           strided_rows(k_, one_, helpers_, "first", in) +
           loop(first, end, "1", StridedAccess::AlongRow, in) + in + first + " = " + end + ";\n" +
           ind + "}\n";
  }

  std::string map() {
    Params ps = {{I_, "n"}};
    add_operands(ps);
    for (std::size_t o = 0; o < k_.outputs.size(); ++o)
      add_pointer(ps, k_.outputs[o].dtype, false, numbered("out", o));
    std::string s = "  const " + I_ + " slot = " + std::string(t_.global_id) +
                    ", slots = " + std::string(t_.global_size) + ";\n";
    s += chunk_counts("n", "  ") + chunk_range("  ") + steps("  ");
    s += element_loop(
        I_, "c", "begin", "end", "step", [&](const std::string& c) { return c + " * " + W_; }, true,
        [&](StridedAccess access, const std::string& in) {
          return in + "const " + I_ + " e = c * " + W_ + ";\n" +
                 render_body(k_, vec_, helpers_, "e", in, access) + stores(vec_, in);
        },
        "  ");
    if (vec_.vector())
      s += "  if (full < total && (" + owns("full") + ")) {\n    for (" + I_ + " e = full * " + W_ +
           "; e < n; ++e) {\n" + render_body(k_, one_, helpers_, "e", "      ") +
           stores(one_, "      ") + "    }\n  }\n";
    return entry(kMapEntry, false, ps, "", s);
  }

  // One fold per output, at the width of `s`.
  std::vector<Fold> folds(const Spelling& s) {
    std::vector<Fold> f;
    for (std::size_t o = 0; o < k_.outputs.size(); ++o) f.emplace_back(k_, o, s, helpers_);
    return f;
  }

  // Names of output o's fold state, its per-lane state, and its arguments.
  static std::string state(std::size_t o) { return "r" + std::to_string(o) + "_"; }
  static std::string lane_state(std::size_t o) { return "lane" + std::to_string(o) + "_"; }
  static std::string numbered(std::string_view name, std::size_t o) {
    return std::string(name) + std::to_string(o);
  }

  // Output o's value of a body, in the accumulator's dtype.
  std::string folded(const Spelling& s, const Fold& f, std::size_t o) const {
    return s.convert(value_name(k_.outputs[o].value), f.value_dtype(), f.acc_dtype());
  }

  std::string tree_declare(const std::vector<Fold>& folds) const {
    const std::string ind = shared_indent();
    std::string s;
    for (std::size_t o = 0; o < folds.size(); ++o) {
      s += ind + std::string(t_.local) + one_.scalar_type(folds[o].acc_dtype()) + " " +
           numbered("tree_v", o) + "[" + L_ + "];\n";
      if (folds[o].arg())
        s += ind + std::string(t_.local) + I_ + " " + numbered("tree_i", o) + "[" + L_ + "];\n";
    }
    return s;
  }

  // Pairwise tree over the work-group's states, every output in the same steps; tree_v<o>[0]
  // (tree_i<o>[0]) holds output o's result.
  std::string tree(const std::vector<Fold>& folds) const {
    std::string s, merges;
    for (std::size_t o = 0; o < folds.size(); ++o) {
      const std::string v = numbered("tree_v", o), i = numbered("tree_i", o);
      s += "  " + v + "[lid] = " + folds[o].value(state(o)) + ";\n";
      if (folds[o].arg()) s += "  " + i + "[lid] = " + state(o) + "idx;\n";
      merges += folds[o].merge(v + "[lid]", i + "[lid]", v + "[lid + stride]", i + "[lid + stride]",
                               "      ");
    }
    return s + "  " + std::string(t_.barrier) + ";\n  for (int stride = " + L_ +
           " / 2; stride > 0; stride >>= 1) {\n    if (lid < stride) {\n" + merges + "    }\n    " +
           std::string(t_.barrier) + ";\n  }\n";
  }

  std::string lane_indices() const {
    if (!vec_.vector()) return "k";
    std::string iota;
    for (int l = 0; l < target_.vector_width; ++l) iota += (l ? ", " : "") + std::to_string(l);
    return "(k + (" + vec_.index_type() + ")(" + iota + "))";
  }

  // Folds this item's lane states of output o into its scalar state, lane by lane in index order.
  std::string fold_lanes(const Fold& f, const Fold& lanes, std::size_t o) const {
    const std::string ind = "      ", p = state(o), lp = lane_state(o);
    if (!vec_.vector()) return f.add(p, lanes.value(lp), lp + "idx", ind);
    const std::string in = ind + "  ";
    std::string s = ind + "{\n" + in + one_.scalar_type(f.acc_dtype()) + " lane_v[" + W_ + "];\n" +
                    in + vec_.vstore(f.acc_dtype(), lanes.value(lp), "lane_v") + ";\n";
    if (f.arg())
      s += in + I_ + " lane_i[" + W_ + "];\n" + in +
           vec_.vstore(DType::Int64, lp + "idx", "lane_i") + ";\n";
    return s + in + "for (int l = 0; l < " + W_ + "; ++l) {\n" +
           f.add(p, "lane_v[l]", "lane_i[l]", in + "  ") + in + "}\n" + ind + "}\n";
  }

  std::string reduce_partial() {
    const std::vector<Fold> fs = folds(one_), lanes = folds(vec_);
    Params ps = {{I_, "rows"}, {I_, "row_len"}, {I_, "parts"}};
    add_operands(ps);
    for (std::size_t o = 0; o < fs.size(); ++o) {
      add_pointer(ps, fs[o].acc_dtype(), false, numbered("partials", o));
      if (fs[o].arg()) add_pointer(ps, DType::Int64, false, numbered("partial_indices", o));
    }
    std::string s = "  const int lid = " + std::string(t_.local_id) + ";\n  const " + I_ +
                    " group = " + std::string(t_.group_id) + ", row = group / parts;\n  const " +
                    I_ + " slot = (group % parts) * " + L_ + " + lid, slots = parts * " + L_ +
                    ";\n";
    s += chunk_counts("row_len", "  ") + chunk_range("  ");
    std::string lane_declares, lane_adds, lane_folds, tail_adds;
    for (std::size_t o = 0; o < fs.size(); ++o) {
      s += fs[o].declare(state(o), "  ");
      lane_declares += lanes[o].declare(lane_state(o), "    ");
      lane_adds += lanes[o].add_next(lane_state(o), folded(vec_, lanes[o], o), lane_indices(),
                                     "c == begin", "      ");
      lane_folds += fold_lanes(fs[o], lanes[o], o);
      tail_adds += fs[o].add(state(o), folded(one_, fs[o], o), "k", "      ");
    }
    s += "  {\n" + lane_declares + "    for (" + I_ +
         " c = begin; c < end; c += step) {\n      const " + I_ + " k = c * " + W_ +
         ", e = row * row_len + k;\n" + render_body(k_, vec_, helpers_, "e", "      ") + lane_adds +
         "    }\n    if (begin < end) {\n" + lane_folds + "    }\n  }\n";
    if (vec_.vector())
      s += "  if (full < total && (" + owns("full") + ")) {\n    for (" + I_ + " k = full * " + W_ +
           "; k < row_len; ++k) {\n      const " + I_ + " e = row * row_len + k;\n" +
           render_body(k_, one_, helpers_, "e", "      ") + tail_adds + "    }\n  }\n";
    s += tree(fs) + "  if (lid == 0) {\n";
    for (std::size_t o = 0; o < fs.size(); ++o) {
      const std::string v = numbered("partials", o), i = numbered("partial_indices", o);
      s += "    " + one_.element(fs[o].acc_dtype(), v, v + "_off + group") + " = " +
           numbered("tree_v", o) + "[0];\n";
      if (fs[o].arg())
        s += "    " + one_.element(DType::Int64, i, i + "_off + group") + " = " +
             numbered("tree_i", o) + "[0];\n";
    }
    return entry(kReducePartialEntry, true, ps, tree_declare(fs), s + "  }\n");
  }

  // C: one item is a work-group. It folds its share of the row in blocks of kFoldBlock
  // elements: the block's values computed in one vectorisable loop, folded by the pairwise tree
  // of a work-group (one vectorisable loop per level), and the block's result added to the
  // item's state (Kahan for floating sums).
  std::string reduce_partial_blocks() {
    const std::vector<Fold> fs = folds(one_);
    Params ps = {{I_, "rows"}, {I_, "row_len"}, {I_, "parts"}};
    add_operands(ps);
    for (std::size_t o = 0; o < fs.size(); ++o) {
      add_pointer(ps, fs[o].acc_dtype(), false, numbered("partials", o));
      if (fs[o].arg()) add_pointer(ps, DType::Int64, false, numbered("partial_indices", o));
    }
    const std::string B = std::to_string(kFoldBlock);
    std::string s = "  const " + I_ + " group = " + std::string(t_.group_id) +
                    ", row = group / parts, slot = group % parts, slots = parts;\n";
    s += chunk_counts("row_len", "  ") + chunk_range("  ") + steps("  ");
    std::string declares, values, pads, merges, adds, stores;
    for (std::size_t o = 0; o < fs.size(); ++o) {
      const std::string v = numbered("tree_v", o), i = numbered("tree_i", o),
                        pad = numbered("pad", o) + "_";
      declares += fs[o].declare(state(o), "  ") + fs[o].declare(pad, "  ") + "  " +
                  one_.scalar_type(fs[o].acc_dtype()) + " " + v + "[" + B + "];\n";
      if (fs[o].arg()) declares += "  " + I_ + " " + i + "[" + B + "];\n";
      values += "      " + v + "[lid] = " + folded(one_, fs[o], o) + ";\n";
      pads += "      " + v + "[lid] = " + pad + "acc;\n";
      if (fs[o].arg()) {
        values += "      " + i + "[lid] = k;\n";
        pads += "      " + i + "[lid] = " + pad + "idx;\n";
      }
      merges += fs[o].merge(v + "[lid]", i + "[lid]", v + "[lid + stride]", i + "[lid + stride]",
                            "        ");
      adds += fs[o].add(state(o), v + "[0]", i + "[0]", "    ");
      const std::string p = numbered("partials", o), pi = numbered("partial_indices", o);
      stores += "  " + one_.element(fs[o].acc_dtype(), p, p + "_off + group") + " = " +
                fs[o].value(state(o)) + ";\n";
      if (fs[o].arg())
        stores += "  " + one_.element(DType::Int64, pi, pi + "_off + group") + " = " + state(o) +
                  "idx;\n";
    }
    const std::string block_values = element_loop(
        "int", "lid", "0", "m", "1",
        [](const std::string& lid) { return "row * row_len + c + " + lid; }, true,
        [&](StridedAccess access, const std::string& in) {
          return in + "const " + I_ + " k = c + lid, e = row * row_len + k;\n" +
                 render_body(k_, one_, helpers_, "e", in, access) + values;
        },
        "    ");
    s += declares + "  for (" + I_ + " c = begin; c < end; c += " + B +
         ") {\n    const int m = end - c < " + B + " ? (int)(end - c) : " + B + ";\n" +
         block_values + "    for (int lid = m; lid < " + B + "; ++lid) {\n" + pads +
         "    }\n    for (int stride = " + B +
         " / 2; stride > 0; stride >>= 1) {\n#pragma omp simd\n      for (int lid = 0; lid < "
         "stride; ++lid) {\n" +
         merges + "      }\n    }\n" + adds + "  }\n";
    return entry(kReducePartialEntry, true, ps, "", s + stores);
  }

  std::string reduce_final() {
    const std::vector<Fold> fs = folds(one_);
    Params ps = {{I_, "rows"}, {I_, "parts"}};
    std::string declares, adds, stores;
    for (std::size_t o = 0; o < fs.size(); ++o) {
      const std::string v = numbered("partials", o), i = numbered("partial_indices", o),
                        out = numbered("out", o);
      ps.push_back({pointer(fs[o].acc_dtype(), true), v});
      if (fs[o].arg()) ps.push_back({pointer(DType::Int64, true), i});
      add_pointer(ps, fs[o].result_dtype(), false, out);
      declares += fs[o].declare(state(o), "  ");
      adds +=
          fs[o].add(state(o), one_.element(fs[o].acc_dtype(), v, "row * parts + p"),
                    fs[o].arg() ? one_.element(DType::Int64, i, "row * parts + p") : "", "    ");
      stores += "    " + one_.element(fs[o].result_dtype(), out, out + "_off + row") + " = " +
                numbered(fs[o].arg() ? "tree_i" : "tree_v", o) + "[0];\n";
    }
    std::string s = "  const int lid = " + std::string(t_.local_id) + ";\n  const " + I_ +
                    " row = " + std::string(t_.group_id) + ";\n" + declares;
    s += "  for (" + I_ + " p = lid; p < parts; p += " + L_ + ") {\n" + adds + "  }\n";
    return entry(kReduceFinalEntry, true, ps, tree_declare(fs),
                 s + tree(fs) + "  if (lid == 0) {\n" + stores + "  }\n");
  }

  std::string reduce_rows() {
    const std::vector<Fold> fs = folds(one_);
    Params ps = {{I_, "rows"}, {I_, "row_len"}};
    add_operands(ps);
    std::string declares, adds, stores;
    for (std::size_t o = 0; o < fs.size(); ++o) {
      const std::string out = numbered("out", o);
      add_pointer(ps, fs[o].result_dtype(), false, out);
      declares += fs[o].declare(state(o), "  ");
      adds += fs[o].add(state(o), folded(one_, fs[o], o), "k", "    ");
      stores += "  " + one_.element(fs[o].result_dtype(), out, out + "_off + row") + " = " +
                (fs[o].arg() ? state(o) + "idx" : fs[o].value(state(o))) + ";\n";
    }
    std::string s = "  const " + I_ + " row = " + std::string(t_.global_id) +
                    ";\n  if (row >= rows) return;\n" + declares + steps("  ");
    s += element_loop(
        I_, "k", "0", "row_len", "1", [](const std::string& k) { return "row * row_len + " + k; },
        false,
        [&](StridedAccess access, const std::string& in) {
          return in + "const " + I_ + " e = row * row_len + k;\n" +
                 render_body(k_, one_, helpers_, "e", in, access) + adds;
        },
        "  ");
    return entry(kReduceRowsEntry, false, ps, "", s + stores);
  }

  const ir::Kernel& k_;
  const Target& target_;
  const DialectTable& t_;
  Spelling vec_, one_;
  Helpers helpers_;
  std::string W_, L_, I_;
};

void check_target(const Target& t) {
  const int w = t.vector_width;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw ValueError("codegen target vector width " + std::to_string(w) +
                     ": expected 1, 2, 4, 8 or 16");
  if (t.dialect != Dialect::OpenCL && w != 1)
    throw ValueError(std::string("codegen target: ") +
                     (t.dialect == Dialect::Cuda ? "CUDA C"
                      : t.dialect == Dialect::C  ? "C"
                                                 : "GLSL") +
                     " has no vector types here, expected vector width 1, given " +
                     std::to_string(w));
  if (t.dialect == Dialect::C && t.local_size != 1)
    throw ValueError("codegen target C: an item is a work-group, expected local size 1, given " +
                     std::to_string(t.local_size));
  if (t.dialect != Dialect::C &&
      (t.local_size < 2 || t.local_size > 1024 || (t.local_size & (t.local_size - 1))))
    throw ValueError("codegen target local size " + std::to_string(t.local_size) +
                     ": expected a power of two in [2, 1024]");
}

}  // namespace

std::string render(const ir::Kernel& kernel, const Target& target) {
  check_target(target);
  kernel.validate();
  Renderer r(kernel, target);
  if (!target.fp64 && r.uses_fp64())
    throw DTypeError(
        "kernel uses float64 but the target device has no double precision: "
        "expected float32 data on this device, or a device with fp64");
  return r.program();
}

}  // namespace switchyard::codegen

// Assembles the entry points of codegen.hpp's ABI from bodies (body.hpp) and folds (fold.hpp).
#include <algorithm>

#include "codegen/codegen.hpp"
#include "codegen/fold.hpp"
#include "switchyard/error.hpp"

namespace switchyard::codegen {
namespace {

class Renderer {
 public:
  Renderer(const ir::Kernel& kernel, const Target& target)
      : k_(kernel),
        target_(target),
        t_(table(target.dialect)),
        vec_(target.dialect, target.vector_width),
        one_(target.dialect, 1),
        W_(std::to_string(target.vector_width)),
        L_(std::to_string(target.local_size)),
        I_(t_.index) {}

  std::string program() {
    std::string kernels;
    if (k_.has_reduction)
      kernels = reduce_partial() + "\n" + reduce_final() + "\n" + reduce_rows();
    else
      kernels = map();
    std::string head;
    if (target_.dialect == Dialect::OpenCL && uses_fp64())
      head = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    return head + std::string(t_.prelude) + "\n" + helpers_.definitions() + kernels;
  }

  bool uses_fp64() const {
    auto f64 = [](DType t) { return t == DType::Float64; };
    return std::any_of(k_.inputs.begin(), k_.inputs.end(), [&](auto& i) { return f64(i.dtype); }) ||
           std::any_of(k_.scalars.begin(), k_.scalars.end(), f64) ||
           std::any_of(k_.body.begin(), k_.body.end(), [&](auto& i) { return f64(i.dtype); });
  }

 private:
  std::string entry(std::string_view name, bool fixed_group) const {
    if (!fixed_group) return std::string(t_.kernel) + " " + std::string(name);
    std::string q(t_.kernel_fixed_group);
    q.replace(q.find('@'), 1, L_);
    return q + " " + std::string(name);
  }

  std::string pointer(DType t, bool is_const) const {
    return std::string(t_.global) + (is_const ? "const " : "") + one_.scalar_type(t) + "*";
  }

  // The inputs and scalars of codegen.hpp's ABI, after `rank, shape`.
  std::string operands() const {
    std::string s;
    for (std::size_t i = 0; i < k_.inputs.size(); ++i) {
      const std::string n = input_name(static_cast<int>(i));
      s += ", " + pointer(k_.inputs[i].dtype, true) + " " + n + ", " + I_ + " " + n + "_off";
      if (k_.inputs[i].layout == ir::Layout::Strided) s += ", sy_dims " + n + "_strides";
    }
    for (std::size_t j = 0; j < k_.scalars.size(); ++j)
      s += ", " + one_.scalar_type(k_.scalars[j]) + " " + scalar_name(static_cast<int>(j));
    return s;
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
      out += ind + s.vstore(value_name(k_.outputs[o].value), n + " + " + n + "_off + e") + ";\n";
    }
    return out;
  }

  std::string map() {
    std::string outs;
    for (std::size_t o = 0; o < k_.outputs.size(); ++o)
      outs += ", " + pointer(k_.outputs[o].dtype, false) + " out" + std::to_string(o) + ", " + I_ +
              " out" + std::to_string(o) + "_off";
    std::string s = entry(kMapEntry, false) + "(" + I_ + " n, int rank, sy_dims shape" +
                    operands() + outs + ") {\n";
    s += "  const " + I_ + " slot = " + std::string(t_.global_id) +
         ", slots = " + std::string(t_.global_size) + ";\n";
    s += chunk_counts("n", "  ") + chunk_range("  ");
    s += "  for (" + I_ + " c = begin; c < end; c += step) {\n    const " + I_ + " e = c * " + W_ +
         ";\n" + render_body(k_, vec_, helpers_, "e", "    ") + stores(vec_, "    ") + "  }\n";
    if (vec_.vector())
      s += "  if (full < total && (" + owns("full") + ")) {\n    for (" + I_ + " e = full * " + W_ +
           "; e < n; ++e) {\n" + render_body(k_, one_, helpers_, "e", "      ") +
           stores(one_, "      ") + "    }\n  }\n";
    return s + "}\n";
  }

  // The reduced value of a body, in the accumulator's dtype.
  std::string folded(const Spelling& s, const Fold& f) const {
    return s.convert(value_name(k_.outputs[0].value), f.value_dtype(), f.acc_dtype());
  }

  std::string tree_declare(const Fold& f) const {
    std::string s =
        "  " + std::string(t_.local) + one_.scalar_type(f.acc_dtype()) + " tree_v[" + L_ + "];\n";
    if (f.arg()) s += "  " + std::string(t_.local) + I_ + " tree_i[" + L_ + "];\n";
    return s;
  }

  // Pairwise tree over the work-group's states; tree_v[0] (tree_i[0]) holds the result.
  std::string tree(const Fold& f) const {
    std::string s = "  tree_v[lid] = " + f.value("") + ";\n";
    if (f.arg()) s += "  tree_i[lid] = idx;\n";
    s += "  " + std::string(t_.barrier) + ";\n  for (int stride = " + L_ +
         " / 2; stride > 0; stride >>= 1) {\n    if (lid < stride) {\n" +
         f.merge("tree_v[lid]", "tree_i[lid]", "tree_v[lid + stride]", "tree_i[lid + stride]",
                 "      ") +
         "    }\n    " + std::string(t_.barrier) + ";\n  }\n";
    return s;
  }

  std::string lane_indices() const {
    if (!vec_.vector()) return "k";
    std::string iota;
    for (int l = 0; l < target_.vector_width; ++l) iota += (l ? ", " : "") + std::to_string(l);
    return "(k + (" + vec_.index_type() + ")(" + iota + "))";
  }

  // Folds this item's lane states into the scalar state, lane by lane in index order.
  std::string fold_lanes(const Fold& f, const Fold& lanes) const {
    const std::string ind = "      ";
    if (!vec_.vector()) return f.add("", lanes.value("lane_"), "lane_idx", ind);
    std::string s = ind + one_.scalar_type(f.acc_dtype()) + " lane_v[" + W_ + "];\n" + ind +
                    vec_.vstore(lanes.value("lane_"), "lane_v") + ";\n";
    if (f.arg())
      s += ind + I_ + " lane_i[" + W_ + "];\n" + ind + vec_.vstore("lane_idx", "lane_i") + ";\n";
    return s + ind + "for (int l = 0; l < " + W_ + "; ++l) {\n" +
           f.add("", "lane_v[l]", "lane_i[l]", ind + "  ") + ind + "}\n";
  }

  std::string reduce_partial() {
    const Fold f(k_, one_, helpers_), lanes(k_, vec_, helpers_);
    std::string s = entry(kReducePartialEntry, true) + "(" + I_ + " rows, " + I_ + " row_len, " +
                    I_ + " parts, int rank, sy_dims shape" + operands() + ", " +
                    pointer(f.acc_dtype(), false) + " partials, " + I_ + " partials_off";
    if (f.arg())
      s += ", " + pointer(DType::Int64, false) + " partial_indices, " + I_ + " partial_indices_off";
    s += ") {\n" + tree_declare(f);
    s += "  const int lid = " + std::string(t_.local_id) + ";\n  const " + I_ +
         " group = " + std::string(t_.group_id) + ", row = group / parts;\n  const " + I_ +
         " slot = (group % parts) * " + L_ + " + lid, slots = parts * " + L_ + ";\n";
    s += chunk_counts("row_len", "  ") + chunk_range("  ") + f.declare("", "  ");
    s += "  {\n" + lanes.declare("lane_", "    ") + "    for (" + I_ +
         " c = begin; c < end; c += step) {\n      const " + I_ + " k = c * " + W_ +
         ", e = row * row_len + k;\n" + render_body(k_, vec_, helpers_, "e", "      ") +
         lanes.add_next("lane_", folded(vec_, lanes), lane_indices(), "c == begin", "      ") +
         "    }\n    if (begin < end) {\n" + fold_lanes(f, lanes) + "    }\n  }\n";
    if (vec_.vector())
      s += "  if (full < total && (" + owns("full") + ")) {\n    for (" + I_ + " k = full * " + W_ +
           "; k < row_len; ++k) {\n      const " + I_ + " e = row * row_len + k;\n" +
           render_body(k_, one_, helpers_, "e", "      ") +
           f.add("", folded(one_, f), "k", "      ") + "    }\n  }\n";
    s += tree(f) + "  if (lid == 0) {\n    partials[partials_off + group] = tree_v[0];\n";
    if (f.arg()) s += "    partial_indices[partial_indices_off + group] = tree_i[0];\n";
    return s + "  }\n}\n";
  }

  std::string reduce_final() {
    const Fold f(k_, one_, helpers_);
    std::string s = entry(kReduceFinalEntry, true) + "(" + I_ + " rows, " + I_ + " parts, " +
                    pointer(f.acc_dtype(), true) + " partials";
    if (f.arg()) s += ", " + pointer(DType::Int64, true) + " partial_indices";
    s +=
        ", " + pointer(f.result_dtype(), false) + " out, " + I_ + " out_off) {\n" + tree_declare(f);
    s += "  const int lid = " + std::string(t_.local_id) + ";\n  const " + I_ +
         " row = " + std::string(t_.group_id) + ";\n" + f.declare("", "  ");
    s += "  for (" + I_ + " p = lid; p < parts; p += " + L_ + ") {\n" +
         f.add("", "partials[row * parts + p]", f.arg() ? "partial_indices[row * parts + p]" : "",
               "    ") +
         "  }\n";
    return s + tree(f) +
           "  if (lid == 0) out[out_off + row] = " + (f.arg() ? "tree_i[0]" : "tree_v[0]") +
           ";\n}\n";
  }

  std::string reduce_rows() {
    const Fold f(k_, one_, helpers_);
    std::string s = entry(kReduceRowsEntry, false) + "(" + I_ + " rows, " + I_ +
                    " row_len, int rank, sy_dims shape" + operands() + ", " +
                    pointer(f.result_dtype(), false) + " out, " + I_ + " out_off) {\n";
    s += "  const " + I_ + " row = " + std::string(t_.global_id) +
         ";\n  if (row >= rows) return;\n" + f.declare("", "  ");
    s += "  for (" + I_ + " k = 0; k < row_len; ++k) {\n    const " + I_ +
         " e = row * row_len + k;\n" + render_body(k_, one_, helpers_, "e", "    ") +
         f.add("", folded(one_, f), "k", "    ") + "  }\n";
    return s + "  out[out_off + row] = " + (f.arg() ? std::string("idx") : f.value("")) + ";\n}\n";
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
  if (t.dialect == Dialect::Cuda && w != 1)
    throw ValueError(
        "codegen target: CUDA C has no vector types here, expected vector width 1, "
        "given " +
        std::to_string(w));
  if (t.local_size < 2 || t.local_size > 1024 || (t.local_size & (t.local_size - 1)))
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

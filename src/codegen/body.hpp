// The elementwise part of a kernel: the IR's instructions as statements at one width, with the
// exact semantics the IR header specifies, and the helper functions they call.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codegen/spelling.hpp"
#include "ir/kernel_ir.hpp"

namespace switchyard::codegen {

// Helper functions a program needs, each defined once, in first-use order.
class Helpers {
 public:
  bool has(std::string_view name) const;
  void add(std::string name, std::string definition);
  std::string definitions() const;

 private:
  std::vector<std::pair<std::string, std::string>> defs_;
};

// Argument names every entry point uses, so bodies and signatures agree.
std::string input_name(int i);   // in<i>, with in<i>_off and in<i>_strides
std::string scalar_name(int j);  // s<j>
std::string value_name(int k);   // v<k>: instruction k's value inside a body

// NaN-propagating min (op '<') or max (op '>'): a NaN operand gives NaN.
std::string min_max(const Spelling& s, DType t, const std::string& a, const std::string& b,
                    char op);

// How a body finds a strided input's element e. FromIndex: its offset from e, a division per
// axis per element. AlongRow: e * in<i>_step from in<i>_row, for elements of one row of the
// innermost axis; the caller declares both (strided_steps, strided_rows).
enum class StridedAccess { FromIndex, AlongRow };

// Statements declaring v0..vN for the element(s) [element, element + width). Loads read the
// arguments named above (and `rank`, `shape` for strided inputs). Throws DTypeError for an op
// the IR does not define on its dtype.
std::string render_body(const ir::Kernel& kernel, const Spelling& s, Helpers& helpers,
                        std::string_view element, std::string_view indent,
                        StridedAccess strided = StridedAccess::FromIndex);

// For AlongRow: `inner`, the innermost axis's length, and each strided input's in<i>_step, its
// stride along that axis (declared once per entry point).
std::string strided_steps(const ir::Kernel& kernel, const Spelling& s, std::string_view indent);
// For AlongRow: each strided input's in<i>_row, such that in<i>_row + e * in<i>_step is the
// offset of every element e in the row of `first`.
std::string strided_rows(const ir::Kernel& kernel, const Spelling& s, Helpers& helpers,
                         std::string_view first, std::string_view indent);

}  // namespace switchyard::codegen

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

// Statements declaring v0..vN for the element(s) [element, element + width). Loads read the
// arguments named above (and `rank`, `shape` for strided inputs). Throws DTypeError for an op
// the IR does not define on its dtype.
std::string render_body(const ir::Kernel& kernel, const Spelling& s, Helpers& helpers,
                        std::string_view element, std::string_view indent);

}  // namespace switchyard::codegen

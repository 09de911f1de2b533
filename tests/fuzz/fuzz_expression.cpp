// String expressions (include/switchyard/expr.hpp), from parse to result, on small float32
// arrays named a..z. Any switchyard::Error is a valid answer to a bad expression; a crash, a
// sanitizer report or any other exception is a bug, and so is an input array that changed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "switchyard/error.hpp"
#include "switchyard/expr.hpp"

namespace {

struct Inputs {
  switchyard::NamedArrays arrays;
  std::map<std::string, std::vector<float>, std::less<>> values;  // as made, on the host
};

const Inputs& inputs() {
  static const Inputs in = [] {
    Inputs made;
    for (char c = 'a'; c <= 'z'; ++c) {
      const std::string name(1, c);
      made.arrays[name] = switchyard::Array::uniform({5}, static_cast<std::uint64_t>(c), 0.5, 2.0);
      made.values[name] = made.arrays[name].to_vector<float>();
    }
    return made;
  }();
  return in;
}

void check_inputs_unchanged(const std::vector<std::string>& used) {
  for (const std::string& name : used) {
    const auto it = inputs().arrays.find(name);
    if (it != inputs().arrays.end() && it->second.to_vector<float>() != inputs().values.at(name))
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  switchyard::fuzz::quiet_cpu_runtime();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> used;
  try {
    const switchyard::Expression expression = switchyard::compile(text);
    if (expression.text() != text) std::abort();
    used = expression.variables();
    const switchyard::Array result = expression(inputs().arrays);
    if (result) (void)result.to_vector<double>();
  } catch (const switchyard::Error&) {
  }
  check_inputs_unchanged(used);
  return 0;
}

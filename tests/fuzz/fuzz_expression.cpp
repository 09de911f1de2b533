// The CLI's expression language (tools/switchyard/expression.cpp), from parse to result, on
// small arrays a..z. Any switchyard::Error is a valid answer to a bad expression; a crash, a
// sanitizer report or any other exception is a bug.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string_view>

#include "fuzz_support.hpp"
#include "switchyard/array.hpp"
#include "switchyard/error.hpp"
#include "tools/switchyard/expression.hpp"

namespace {

const std::map<char, switchyard::Array>& inputs() {
  static const std::map<char, switchyard::Array> values = [] {
    std::map<char, switchyard::Array> v;
    for (char name = 'a'; name <= 'z'; ++name)
      v[name] = switchyard::Array::uniform({5}, static_cast<std::uint64_t>(name), 0.5, 2.0);
    return v;
  }();
  return values;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  switchyard::fuzz::quiet_cpu_runtime();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)switchyard::cli::variables(text);
    const switchyard::Array result = switchyard::cli::evaluate(text, inputs());
    if (result) (void)result.to_vector<double>();
  } catch (const switchyard::Error&) {
  }
  return 0;
}

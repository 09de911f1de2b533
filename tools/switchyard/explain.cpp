// `switchyard explain --op "a*b+sin(c)" --n 1e6 [--resident opencl:0]`: runs the expression on
// float32 inputs of n elements and prints, for each kernel, every candidate's predicted cost,
// the choice and its reason, what happened, and advice.
#include <fmt/format.h>

#include "commands.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::cli {
namespace {

// This command makes its own inputs, float32 arrays named a to z; another name has nothing to
// bind to.
void require_single_letters(const Expression& expression) {
  for (const std::string& name : expression.variables())
    if (name.size() != 1 || name[0] < 'a' || name[0] > 'z')
      throw ParseError(fmt::format(
          "in expression '{}': unknown variable '{}'; explain makes float32 inputs named a to z",
          expression.text(), name));
}

}  // namespace

int explain(const std::string& op, double n_elements, const std::string& resident) {
  if (!(n_elements >= 1 && n_elements <= 4e9))
    throw ValueError(fmt::format("--n {}: expected a size between 1 and 4e9", n_elements));
  const auto n = static_cast<std::int64_t>(n_elements);
  const Expression expression = compile(op);
  require_single_letters(expression);
  NamedArrays values;
  std::uint64_t seed = 1;
  for (const std::string& name : expression.variables())
    values[name] = Array::uniform({n}, seed++, 0.5, 2.0);
  std::string inputs_on = "the host";
  if (!resident.empty()) {
    // A copy made there lives only there, as the result of earlier work on that device would.
    const std::string device = resident.find(':') == std::string::npos ? resident + ":0" : resident;
    DeviceScope scope(device);
    try {
      NamedArrays copies;
      for (const auto& [name, value] : values) {
        copies[name] = value.copy();
        eval(copies[name]);
      }
      values = std::move(copies);
      inputs_on = device;
    } catch (const Error& e) {
      // A failing device must not stop the explanation: the inputs stay on the host.
      fmt::print(stderr,
                 "switchyard: could not place the inputs on {} ({}); they stay on the host\n",
                 device, e.what());
    }
  }
  // Runs once unexplained so every kernel is compiled; the explained run shows steady state.
  eval(expression(values));
  Array result;
  const Explanation e = switchyard::explain([&] {
    result = expression(values);
    eval(result);
  });
  fmt::print("{} over {} float32 elements, inputs on {}\n\n", op, n, inputs_on);
  fmt::print("{}", e.to_string());
  if (result.size() == 1) fmt::print("\nresult: {}\n", result.item<double>());
  return 0;
}

}  // namespace switchyard::cli

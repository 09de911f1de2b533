// `switchyard explain --op "a*b+sin(c)" --n 1e6 [--resident opencl:0]`: runs the expression on
// float32 inputs of n elements and prints, for each kernel, every candidate's predicted cost,
// the choice and its reason, what happened, and advice.
#include <fmt/format.h>

#include <map>

#include "commands.hpp"
#include "expression.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::cli {

int explain(const std::string& op, double n_elements, const std::string& resident) {
  if (!(n_elements >= 1 && n_elements <= 4e9))
    throw ValueError(fmt::format("--n {}: expected a size between 1 and 4e9", n_elements));
  const auto n = static_cast<std::int64_t>(n_elements);
  std::map<char, Array> values;
  std::uint64_t seed = 1;
  for (char name : variables(op)) values[name] = Array::uniform({n}, seed++, 0.5, 2.0);
  std::string inputs_on = "the host";
  if (!resident.empty()) {
    // A copy made there lives only there, as the result of earlier work on that device would.
    const std::string device = resident.find(':') == std::string::npos ? resident + ":0" : resident;
    DeviceScope scope(device);
    try {
      std::map<char, Array> copies;
      for (const auto& [name, value] : values) copies[name] = value.copy();
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
  evaluate(op, values);
  Array result;
  const Explanation e = switchyard::explain([&] { result = evaluate(op, values); });
  fmt::print("{} over {} float32 elements, inputs on {}\n\n", op, n, inputs_on);
  fmt::print("{}", e.to_string());
  if (result.size() == 1) fmt::print("\nresult: {}\n", result.item<double>());
  return 0;
}

}  // namespace switchyard::cli

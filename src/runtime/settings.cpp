// switchyard::settings(): every SWITCHYARD_* variable checked by the same code that reads it at
// run time, collecting each ConfigError instead of raising the first.
#include <functional>

#include "backends/cpu/native/native_tier.hpp"
#include "backends/cpu/simd_target.hpp"
#include "backends/registry.hpp"
#include "core/config.hpp"
#include "core/log.hpp"
#include "runtime/fault_injection.hpp"
#include "switchyard/error.hpp"
#include "switchyard/fallback.hpp"
#include "switchyard/runtime.hpp"

namespace switchyard {

std::vector<Setting> settings() {
  std::vector<Setting> all;
  for (const EnvVariable& v : environment_variables()) {
    const char* value = env_value(v.name);
    all.push_back({std::string(v.name), value ? value : "", std::string(v.default_value),
                   std::string(v.meaning), ""});
  }
  const std::function<void()> checks[] = {
      [] { backend_settings(); },
      [] { memory_reserve_fraction(); },
      [] { exploration_enabled(); },
      [] { log_enabled(LogLevel::Error); },
      [] { fallback_enabled(); },
      [] { cpu::simd_cap(); },
      [] { cpu::native::mode(); },
      [] {
        if (const char* faults = env_value("SWITCHYARD_FAULT")) runtime::parse_fault_spec(faults);
      },
  };
  // A message names the variables it is about ("SWITCHYARD_BACKEND='x' is also in
  // SWITCHYARD_DISABLE"): each of them is marked with it.
  for (const auto& check : checks) {
    try {
      check();
    } catch (const ConfigError& e) {
      const std::string message = e.what();
      for (Setting& s : all)
        if (message.find(s.name) != std::string::npos && s.problem.empty()) s.problem = message;
    }
  }
  return all;
}

}  // namespace switchyard

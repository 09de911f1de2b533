#include "core/config.hpp"

#include <cstdlib>
#include <string>

#include "switchyard/error.hpp"

namespace switchyard {

std::span<const EnvVariable> environment_variables() {
  static constexpr EnvVariable kVariables[] = {
      {"SWITCHYARD_BACKEND",
       "run everything on one backend: auto, or a backend's name (listed above)", "auto"},
      {"SWITCHYARD_DISABLE", "comma list of backends never to use", ""},
      {"SWITCHYARD_CACHE_DIR", "kernel and profile cache directory", "$XDG_CACHE_HOME/switchyard"},
      {"SWITCHYARD_PROFILE", "calibration profile file", "<cache dir>/profile.json"},
      {"SWITCHYARD_MEMORY_RESERVE", "fraction of device memory kept free", "0.3"},
      {"SWITCHYARD_LOG", "log level: error|warn|info|debug", "warn"},
      {"SWITCHYARD_TRACE", "write a Chrome trace (Perfetto) to this file", ""},
      {"SWITCHYARD_FAULT", "inject faults: backend[:index]:compile|launch|oom|lost[:probability]",
       ""},
      {"SWITCHYARD_FALLBACK", "move failed work to the next device: on|off", "on"},
      {"SWITCHYARD_EXPLORE",
       "measure untried devices where it costs little (within 1.3x, or small runs paid by 5% of "
       "a kernel's run time): bounded|off",
       "bounded"},
      {"SWITCHYARD_SIMD", "cap the CPU's SIMD target: best|avx3|avx2|sse4 (Highway's names)",
       "best"},
      {"SWITCHYARD_NATIVE",
       "the CPU's compiled tier: on (kernels that have done enough work are compiled in the "
       "background)|off|eager (compiled before their first launch)",
       "on"},
      {"SWITCHYARD_CC", "the C compiler of the CPU's compiled tier", "cc"},
      {"SWITCHYARD_REQUIRE_BACKENDS",
       "comma list of backends that must be usable (tests fail instead of skipping)", ""},
  };
  return kVariables;
}

const char* env_value(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  return v && *v ? v : nullptr;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) items.emplace_back(item);
    start = end + 1;
  }
  return items;
}

double memory_reserve_fraction() {
  const char* text = env_value("SWITCHYARD_MEMORY_RESERVE");
  if (!text) return 0.3;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= 0 && v < 1))
    throw ConfigError(std::string("SWITCHYARD_MEMORY_RESERVE='") + text +
                      "': expected a fraction in [0, 1), e.g. 0.3");
  return v;
}

bool exploration_enabled() {
  const char* text = env_value("SWITCHYARD_EXPLORE");
  if (!text || std::string_view(text) == "bounded") return true;
  if (std::string_view(text) == "off") return false;
  throw ConfigError(std::string("SWITCHYARD_EXPLORE='") + text + "': expected bounded or off");
}

}  // namespace switchyard

#include "core/log.hpp"

#include <cstdio>
#include <string>

#include "core/config.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

constexpr std::string_view kNames[] = {"error", "warn", "info", "debug"};

LogLevel configured_level() {
  const char* text = env_value("SWITCHYARD_LOG");
  if (!text) return LogLevel::Warn;
  for (int i = 0; i < 4; ++i)
    if (kNames[i] == text) return static_cast<LogLevel>(i);
  throw ConfigError(std::string("SWITCHYARD_LOG='") + text +
                    "': expected one of error, warn, info, debug");
}

}  // namespace

bool log_enabled(LogLevel level) {
  static const LogLevel configured = configured_level();
  return level <= configured;
}

void log(LogLevel level, std::string_view message) {
  if (!log_enabled(level)) return;
  std::fprintf(stderr, "switchyard: %s: %.*s\n", kNames[static_cast<int>(level)].data(),
               static_cast<int>(message.size()), message.data());
}

}  // namespace switchyard

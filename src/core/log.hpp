// Log lines on stderr through one spdlog logger for the whole library, filtered by
// SWITCHYARD_LOG (error|warn|info|debug, default warn). Every distinct warning is printed once
// per process: a condition that repeats (a bad cache directory, a failing device) says so once.
//
// Check the level before building a message on a hot path:
//   if (log_enabled(LogLevel::Debug)) log(LogLevel::Debug, fmt::format(...));
// or use logf(), which does exactly that.
#pragma once

#include <fmt/format.h>

#include <string_view>
#include <utility>

namespace switchyard {

enum class LogLevel : int { Error = 0, Warn = 1, Info = 2, Debug = 3 };

// The configured level; throws ConfigError for a bad SWITCHYARD_LOG value.
LogLevel log_level();

// Whether lines of `level` are printed (one comparison once the level is known).
inline bool log_enabled(LogLevel level) {
  static const LogLevel configured = log_level();
  return level <= configured;
}

// Prints "switchyard: <level>: <message>" when the level is enabled; a warning whose text was
// printed before is dropped.
void log(LogLevel level, std::string_view message);

// Formats only when the level is enabled.
template <class... Args>
void logf(LogLevel level, fmt::format_string<Args...> format, Args&&... args) {
  if (log_enabled(level)) log(level, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace switchyard

// Log lines to stderr, filtered by SWITCHYARD_LOG (error|warn|info|debug, default warn).
#pragma once

#include <string_view>

namespace switchyard {

enum class LogLevel : int { Error = 0, Warn = 1, Info = 2, Debug = 3 };

// Whether lines of `level` are printed. Throws ConfigError for a bad SWITCHYARD_LOG value.
bool log_enabled(LogLevel level);

// Prints "switchyard: <level>: <message>" when the level is enabled.
void log(LogLevel level, std::string_view message);

}  // namespace switchyard

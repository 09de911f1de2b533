#include "core/log.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include "core/config.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

constexpr std::string_view kNames[] = {"error", "warn", "info", "debug"};
constexpr spdlog::level::level_enum kSpdlogLevels[] = {spdlog::level::err, spdlog::level::warn,
                                                       spdlog::level::info, spdlog::level::debug};

// Not in spdlog's global registry (a program using spdlog itself may name a logger anything),
// and never destroyed: work logging from a static destructor or an atexit handler still finds it.
struct Logger {
  std::shared_ptr<spdlog::logger> logger;
  std::mutex mutex;                        // guards warned
  std::unordered_set<std::string> warned;  // every warning text printed so far
};

Logger& logger() {
  static Logger* l = [] {
    auto* made = new Logger;
    made->logger = std::make_shared<spdlog::logger>(
        "switchyard", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    made->logger->set_pattern("switchyard: %v");
    made->logger->set_level(kSpdlogLevels[static_cast<int>(log_level())]);
    made->logger->flush_on(spdlog::level::trace);
    return made;
  }();
  return *l;
}

}  // namespace

LogLevel log_level() {
  const char* text = env_value("SWITCHYARD_LOG");
  if (!text) return LogLevel::Warn;
  for (int i = 0; i < 4; ++i)
    if (kNames[i] == text) return static_cast<LogLevel>(i);
  throw ConfigError(std::string("SWITCHYARD_LOG='") + text +
                    "': expected one of error, warn, info, debug");
}

void log(LogLevel level, std::string_view message) {
  if (!log_enabled(level)) return;
  Logger& l = logger();
  if (level == LogLevel::Warn) {
    std::lock_guard lock(l.mutex);
    if (!l.warned.emplace(message).second) return;
  }
  const int i = static_cast<int>(level);
  l.logger->log(kSpdlogLevels[i], "{}: {}", kNames[i], message);
}

}  // namespace switchyard

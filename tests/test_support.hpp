// Helpers that several test files need: scoped environment variables and temporary directories,
// checks on error messages, and whether a device is present and modelled by the scheduler.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/placement.hpp"
#include "scheduler/scheduler.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::testing_support {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- the process's surroundings

// Sets an environment variable (or unsets it, for a null value) for one scope and restores the
// previous value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh directory under the system's temporary directory, removed with everything in it at the
// end of the scope (also when an assertion returns early): what a test writes goes there, so
// that a run leaves nothing behind.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "switchyard-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;  // a destructor must not throw; nothing is left to do on failure
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Removes a path at the end of the scope, for a file whose name must be known before the scope
// starts (a death test's child, which runs the test body again, writes it).
class RemovedAtScopeEnd {
 public:
  explicit RemovedAtScopeEnd(std::filesystem::path path) : path_(std::move(path)) {}
  ~RemovedAtScopeEnd() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  RemovedAtScopeEnd(const RemovedAtScopeEnd&) = delete;
  RemovedAtScopeEnd& operator=(const RemovedAtScopeEnd&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// ---- errors

// Runs f, expects exception E, and returns its message; empty (with a test failure recorded)
// when f throws nothing or another std::exception.
template <class E, class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected another exception type, got: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

inline void expect_mentions(const std::string& message,
                            std::initializer_list<const char*> fragments) {
  for (const char* fragment : fragments)
    EXPECT_NE(message.find(fragment), std::string::npos)
        << "'" << fragment << "' missing from: " << message;
}

// ---- devices

inline std::optional<DeviceInfo> find_device(const std::string& id) {
  for (const auto& d : devices())
    if (d.id() == id) return d;
  return std::nullopt;
}

inline bool has_opencl() {
  return find_device("opencl:0").has_value();
}

inline std::vector<std::string> device_ids() {
  std::vector<std::string> ids;
  for (const auto& d : devices()) ids.push_back(d.id());
  return ids;
}

// The first device that is not the host, when there is one.
inline std::optional<std::string> device_besides_the_host() {
  for (const auto& id : device_ids())
    if (!id.starts_with("cpu:")) return id;
  return std::nullopt;
}

// The failures metrics count on one device since the last reset_metrics().
inline std::int64_t failures_on(const std::string& id) {
  for (const auto& d : metrics().devices)
    if (d.device == id) return d.failures;
  return 0;
}

// A SWITCHYARD_FAULT spec that fails `kind` ("launch", "oom", ...) on every device here.
inline std::string fault_on_every_device(const std::string& kind) {
  std::string spec;
  for (const auto& id : device_ids()) spec += (spec.empty() ? "" : ",") + id + ":" + kind;
  return spec;
}

// Whether the scheduler has a model of every device, waiting up to 120 s: without a saved
// profile, devices other than the host are calibrated in the background (one after another, and
// slowly on a loaded machine or under a sanitizer) and work stays on the host until then.
inline bool scheduler_knows_every_device() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  do {
    std::size_t known = 0;
    if (const scheduler::Scheduler* s = runtime::Placement::instance().scheduler())
      for (const auto& id : device_ids())
        for (const auto& m : s->models())
          if (m.name == id || m.name.rfind(id + "/", 0) == 0) {
            ++known;
            break;
          }
    if (known == device_ids().size()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < deadline);
  return false;
}

// Makes every candidate except those on `device` look slow, by measured history, for some
// kernels at one size while it lives, so auto picks `device` whatever else this machine has;
// then puts the process's history back as it was (so nothing fake is saved at exit).
class OnlyFastOn {
 public:
  OnlyFastOn(const std::vector<std::uint64_t>& signatures, std::int64_t elements,
             const std::string& device) {
    // Steering needs every device's model: on a fresh cache, devices besides the host are
    // calibrated in the background, and until then the host's models are the only ones.
    if (!scheduler_knows_every_device())
      throw std::runtime_error("OnlyFastOn: a device was not calibrated within 120 s");
    scheduler::Scheduler& s = *runtime::Placement::instance().scheduler();
    saved_ = s.history();
    for (const std::uint64_t signature : signatures)
      for (const auto& m : s.models())
        if (m.name != device && m.name.rfind(device + "/", 0) != 0)
          for (int i = 0; i < scheduler::History::kWindow; ++i)
            s.history().record({signature, scheduler::size_bucket(elements), m.name}, 10);
  }
  ~OnlyFastOn() { runtime::Placement::instance().scheduler()->history() = saved_; }
  OnlyFastOn(const OnlyFastOn&) = delete;
  OnlyFastOn& operator=(const OnlyFastOn&) = delete;

 private:
  scheduler::History saved_;
};

// The kernel signatures of the last `count` executions this process recorded.
inline std::vector<std::uint64_t> last_signatures(std::size_t count) {
  const Metrics m = metrics();
  if (m.recent.size() < count) throw std::runtime_error("fewer executions were recorded");
  std::vector<std::uint64_t> signatures;
  for (std::size_t i = m.recent.size() - count; i < m.recent.size(); ++i)
    signatures.push_back(std::stoull(m.recent[i].signature, nullptr, 16));
  return signatures;
}

inline std::uint64_t last_signature() {
  return last_signatures(1).front();
}

}  // namespace switchyard::testing_support

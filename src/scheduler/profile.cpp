#include "scheduler/profile.hpp"
#include "core/log.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "backends/registry.hpp"
#include "core/atomic_file.hpp"
#include "core/config.hpp"
#include "core/host_info.hpp"
#include "core/kernel_cache.hpp"
#include "switchyard/error.hpp"

namespace switchyard::scheduler {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void warn(const fs::path& path, const std::string& message) {
  log(LogLevel::Warn, "profile " + path.string() + ": " + message);
}

// Thrown inside load for every reason a file is not usable; its message is the one warning.
struct Unusable {
  std::string why;
};

// Field order is DeviceModel's; names carry their units.
json model_to_json(const DeviceModel& m) {
  return {{"name", m.name},
          {"host_addressable", m.host_addressable},
          {"launch_s", m.launch_s},
          {"h2d_latency_s", m.h2d_latency_s},
          {"h2d_bytes_per_s", m.h2d_bytes_per_s},
          {"d2h_latency_s", m.d2h_latency_s},
          {"d2h_bytes_per_s", m.d2h_bytes_per_s},
          {"memory_bytes_per_s", m.memory_bytes_per_s},
          {"arithmetic_per_s", m.arithmetic_per_s},
          {"transcendental_per_s", m.transcendental_per_s},
          {"flops_per_s", m.flops_per_s},
          {"compile_base_s", m.compile_base_s},
          {"compile_per_op_s", m.compile_per_op_s},
          {"free_memory_bytes", m.free_memory_bytes}};
}

// What a measurement can be; beyond, a number is damage, and would reach float-to-integer
// conversions downstream (break-even sizes) out of their range.
constexpr double kMaxSeconds = 3600;  // a launch, a latency, a compile
constexpr double kMinRate = 1;        // per second: bytes, operations, flops
constexpr double kMaxRate = 1e18;
constexpr std::uint64_t kMaxMemoryBytes = std::uint64_t{1} << 60;
constexpr std::size_t kMaxModels = 64;  // the scheduler's limit

// A time must be in [0, kMaxSeconds]; a rate in [kMinRate, kMaxRate] (the cost model divides by
// it). `unbounded` rates stand for "nothing to do" (a host-addressable device's transfers, set to
// the largest double) and may be any finite rate.
double read_number(const json& j, const char* field, bool rate, bool unbounded = false) {
  const json& value = j.at(field);
  const double v = value.is_number() ? value.get<double>() : NAN;
  const double max_rate = unbounded ? std::numeric_limits<double>::max() : kMaxRate;
  const bool ok = rate ? v >= kMinRate && v <= max_rate : v >= 0 && v <= kMaxSeconds;
  if (!ok)
    throw Unusable{std::string("model field ") + field + " = " + value.dump() +
                   (rate ? " is not a rate in [1, 1e18] per second"
                         : " is not a duration in [0, 3600] seconds")};
  return v;
}

std::uint64_t read_bytes(const json& j, const char* field) {
  const json& value = j.at(field);
  if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
    throw Unusable{std::string("model field ") + field + " = " + value.dump() +
                   " is not a byte count"};
  const auto v = value.get<std::uint64_t>();
  if (v > kMaxMemoryBytes)
    throw Unusable{std::string("model field ") + field + " = " + value.dump() +
                   " is beyond any device's memory"};
  return v;
}

DeviceModel model_from_json(const json& j) {
  DeviceModel m;
  m.name = j.at("name").get<std::string>();
  m.host_addressable = j.at("host_addressable").get<bool>();
  m.launch_s = read_number(j, "launch_s", false);
  m.h2d_latency_s = read_number(j, "h2d_latency_s", false);
  m.h2d_bytes_per_s = read_number(j, "h2d_bytes_per_s", true, m.host_addressable);
  m.d2h_latency_s = read_number(j, "d2h_latency_s", false);
  m.d2h_bytes_per_s = read_number(j, "d2h_bytes_per_s", true, m.host_addressable);
  m.memory_bytes_per_s = read_number(j, "memory_bytes_per_s", true);
  m.arithmetic_per_s = read_number(j, "arithmetic_per_s", true);
  m.transcendental_per_s = read_number(j, "transcendental_per_s", true);
  m.flops_per_s = read_number(j, "flops_per_s", true);
  m.compile_base_s = read_number(j, "compile_base_s", false);
  m.compile_per_op_s = read_number(j, "compile_per_op_s", false);
  m.free_memory_bytes = read_bytes(j, "free_memory_bytes");
  return m;
}

json identity_to_json(const MachineIdentity& id) {
  json devices = json::array();
  for (const DeviceIdentity& d : id.devices)
    devices.push_back({{"id", d.id}, {"name", d.name}, {"driver_version", d.driver_version}});
  return {{"cpu_model", id.cpu_model}, {"devices", devices}};
}

MachineIdentity identity_from_json(const json& j) {
  MachineIdentity id{j.at("cpu_model").get<std::string>(), {}};
  for (const json& d : j.at("devices").get_ref<const json::array_t&>())
    id.devices.push_back({d.at("id").get<std::string>(), d.at("name").get<std::string>(),
                          d.at("driver_version").get<std::string>()});
  return id;
}

const DeviceIdentity* find_device(const MachineIdentity& id, std::string_view device_id) {
  for (const DeviceIdentity& d : id.devices)
    if (d.id == device_id) return &d;
  return nullptr;
}

// Where a candidate is in the registry now; device -1 when its device is not among the usable.
CandidateId candidate_id(const std::string& candidate) {
  const auto devices = Registry::instance().devices();
  const std::string device = device_of(candidate);
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i]->info().id() == device)
      return {static_cast<int>(i), candidate.ends_with("/inline")};
  return {-1, false};
}

// Throws Unusable when the file was measured on other hardware or drivers.
void check_identity(const MachineIdentity& saved, const MachineIdentity& now) {
  if (saved.cpu_model != now.cpu_model)
    throw Unusable{"measured on CPU '" + saved.cpu_model + "', this machine has '" + now.cpu_model +
                   "'"};
  for (const DeviceIdentity& d : saved.devices) {
    const DeviceIdentity* current = find_device(now, d.id);
    if (current && *current != d)
      throw Unusable{"measured on " + d.id + " = " + d.name + " (driver " + d.driver_version +
                     "), now " + current->name + " (driver " + current->driver_version + ")"};
  }
}

// Drops models of devices that are gone, naming them in one warning.
void drop_vanished(const fs::path& path, std::vector<DeviceModel>& models,
                   const MachineIdentity& now) {
  std::string gone;
  std::erase_if(models, [&](const DeviceModel& m) {
    if (find_device(now, device_of(m.name))) return false;
    gone += (gone.empty() ? "" : ", ") + m.name;
    return true;
  });
  if (!gone.empty()) warn(path, "dropped models of devices no longer present: " + gone);
}

Profile parse(const std::string& text, const fs::path& path, const MachineIdentity& now) {
  const json j = json::parse(text);
  // Compared as JSON, not converted first: a version beyond int's range must not reach a cast.
  const json& version = j.at("format_version");
  if (version != json(kProfileFormatVersion))
    throw Unusable{"format version " + version.dump() + ", expected " +
                   std::to_string(kProfileFormatVersion)};
  check_identity(identity_from_json(j.at("identity")), now);
  Profile p;
  const auto& models = j.at("models").get_ref<const json::array_t&>();
  // What the scheduler would refuse is refused here, so a damaged file is recalibrated and
  // rewritten instead of failing every run.
  if (models.empty() || models.size() > kMaxModels)
    throw Unusable{"holds " + std::to_string(models.size()) + " device models, expected 1 to " +
                   std::to_string(kMaxModels)};
  for (const json& m : models) {
    p.models.push_back(model_from_json(m));
    for (std::size_t i = 0; i + 1 < p.models.size(); ++i)
      if (p.models[i].name == p.models.back().name)
        throw Unusable{"two device models are named '" + p.models.back().name + "'"};
  }
  p.history = History::from_json(j.at("history"));
  // A profile left without models would be saved, then refused at the next load.
  if (std::none_of(p.models.begin(), p.models.end(), [&](const DeviceModel& m) {
        return find_device(now, device_of(m.name)) != nullptr;
      }))
    throw Unusable{"holds no model of a device present here"};
  drop_vanished(path, p.models, now);
  for (DeviceModel& m : p.models) m.id = candidate_id(m.name);
  return p;
}

// Candidates of the registry's devices (what the scheduler will ask for) in `scope` that have no
// model.
std::vector<CandidateRef> uncalibrated(const std::vector<DeviceModel>& models,
                                       CalibrationScope scope) {
  std::vector<CandidateRef> missing;
  for (const CandidateRef& c : all_candidates()) {
    const bool host = c.device->info().host_addressable;
    if ((scope == CalibrationScope::HostOnly && !host) ||
        (scope == CalibrationScope::DevicesOnly && host))
      continue;
    const std::string name = candidate_name(c.device->info(), c.inline_cpu);
    if (std::none_of(models.begin(), models.end(),
                     [&](const DeviceModel& m) { return m.name == name; }))
      missing.push_back(c);
  }
  return missing;
}

// save_profile without the lock (its caller holds it).
void write_profile(const std::vector<DeviceModel>& models, const History& history,
                   const fs::path& path, const MachineIdentity& identity) {
  if (path.empty())
    throw ConfigError(
        "no place for the calibration profile: set SWITCHYARD_PROFILE or "
        "SWITCHYARD_CACHE_DIR");
  json models_json = json::array();
  for (const DeviceModel& m : models) models_json.push_back(model_to_json(m));
  const json j = {{"format_version", kProfileFormatVersion},
                  {"identity", identity_to_json(identity)},
                  {"models", models_json},
                  {"history", history.to_json()}};
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (const std::string error = write_file_atomically(path, {j.dump(2), "\n"}); !error.empty())
    throw Error("cannot write the calibration profile: " + error +
                "; check that its directory is writable, or set SWITCHYARD_PROFILE");
}

fs::path lock_path(const fs::path& path) {
  fs::path lock = path;
  lock += ".lock";
  return lock;
}

// Locks the profile's lock file, creating the directory for it.
FileLock lock_profile(const fs::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  return FileLock(lock_path(path));
}

}  // namespace

MachineIdentity current_identity() {
  MachineIdentity id{host_info().cpu_model, {}};
  for (const BackendStatus& s : Registry::instance().backends()) {
    if (!s.backend->available()) continue;
    for (Device* d : s.backend->devices())
      id.devices.push_back({d->info().id(), d->info().name, d->info().driver_version});
  }
  return id;
}

std::vector<DeviceModel> scheduler_models(const Profile& profile) {
  std::vector<DeviceModel> models;
  for (const DeviceModel& m : profile.models)
    if (m.id.device >= 0) models.push_back(m);
  return models;
}

fs::path profile_path() {
  if (const char* path = env_value("SWITCHYARD_PROFILE")) return path;
  const fs::path dir = cache_directory();
  return dir.empty() ? dir : dir / "profile.json";
}

void save_profile(const std::vector<DeviceModel>& models, const History& history,
                  const fs::path& path, const MachineIdentity& identity) {
  if (path.empty()) return write_profile(models, history, path, identity);  // throws
  const FileLock lock = lock_profile(path);
  write_profile(models, history, path, identity);
}

void merge_into_profile(const std::vector<DeviceModel>& models, const History& history,
                        const fs::path& path, const MachineIdentity& identity) {
  if (path.empty()) return;
  const FileLock lock = lock_profile(path);
  std::optional<Profile> saved = load_profile(path, identity);
  Profile merged;
  if (saved) {
    merged = std::move(*saved);
    merged.history.merge_measured(history);
  } else {
    merged.history = history;
  }
  for (const DeviceModel& m : models)
    if (std::none_of(merged.models.begin(), merged.models.end(),
                     [&](const DeviceModel& s) { return s.name == m.name; }))
      merged.models.push_back(m);
  if (merged.models.empty()) return;  // nothing measured: a file without models helps nobody
  write_profile(merged.models, merged.history, path, identity);
}

std::optional<Profile> load_profile(const fs::path& path, const MachineIdentity& identity) {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;  // no profile yet: nothing to warn about
  std::stringstream text;
  text << in.rdbuf();
  try {
    return parse(text.str(), path, identity);
  } catch (const Unusable& e) {
    warn(path, e.why + "; recalibrating");
  } catch (const std::exception& e) {  // nlohmann::json's parse, type and range errors
    warn(path, std::string("unreadable (") + e.what() + "); recalibrating");
  }
  return std::nullopt;
}

bool devices_uncalibrated(const Profile& profile) {
  return !uncalibrated(profile.models, CalibrationScope::DevicesOnly).empty();
}

Profile load_or_calibrate(CalibrationDepth depth, const CalibrationProgress& progress,
                          CalibrationScope scope) {
  const fs::path path = profile_path();
  std::optional<Profile> loaded = load_profile(path);
  Profile profile = loaded ? std::move(*loaded) : Profile{};
  const auto missing = uncalibrated(profile.models, scope);
  if (missing.empty()) return profile;
  auto measured = calibrate_candidates(missing, depth, progress);
  if (measured.empty()) return profile;  // every probe failed: nothing worth saving
  for (DeviceModel& m : measured) profile.models.push_back(std::move(m));
  try {
    // Merged under the lock: another process may have saved models or history meanwhile.
    merge_into_profile(profile.models, profile.history, path);
  } catch (const Error& e) {
    log(LogLevel::Warn, e.what());
  }
  return profile;
}

}  // namespace switchyard::scheduler

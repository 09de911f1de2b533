// The calibration profile: the measured device models and the execution history of this
// machine, persisted as versioned JSON so a process starts with a calibrated scheduler.
//
//   {"format_version": 1,
//    "identity": {"cpu_model": "...", "devices": [{"id", "name", "driver_version"}]},
//    "models": [{DeviceModel fields}], "history": History::to_json()}
//
// Saved atomically (core/atomic_file: a reader never sees half a file) to $SWITCHYARD_PROFILE
// or <cache directory>/profile.json, under an advisory lock on "<profile>.lock" so processes
// sharing a cache directory merge their history instead of overwriting each other's. A profile
// from another machine or driver, of another format version, unreadable, or holding what the
// scheduler would refuse (no models, two of one name, numbers out of range) is ignored with one
// warning, and recalibration overwrites it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scheduler/calibration.hpp"
#include "scheduler/device_model.hpp"
#include "scheduler/history.hpp"

namespace switchyard::scheduler {

inline constexpr int kProfileFormatVersion = 1;

struct DeviceIdentity {
  std::string id;  // "opencl:0"
  std::string name;
  std::string driver_version;
  bool operator==(const DeviceIdentity&) const = default;
};

// What the measurements hold for: the CPU and every device's name and driver.
struct MachineIdentity {
  std::string cpu_model;
  std::vector<DeviceIdentity> devices;
};

// This machine now: every device of every available backend, disabled or not (a model stays
// valid while SWITCHYARD_DISABLE or SWITCHYARD_BACKEND hide its device).
MachineIdentity current_identity();

// Models keep their CandidateId in the current registry (id.device indexes
// Registry::devices()); a model whose device exists but is hidden now (SWITCHYARD_DISABLE,
// SWITCHYARD_BACKEND) has id.device == -1: it is kept so saving does not lose it, and
// scheduler_models() leaves it out.
struct Profile {
  std::vector<DeviceModel> models;
  History history;
};

// The models the scheduler can use now: those of the registry's current devices.
std::vector<DeviceModel> scheduler_models(const Profile& profile);

// $SWITCHYARD_PROFILE, else <cache_directory()>/profile.json; empty when neither is set.
std::filesystem::path profile_path();

// Writes atomically, creating the directory. Throws switchyard::Error naming the path when the
// file cannot be written (no temp file is left behind).
void save_profile(const std::vector<DeviceModel>& models, const History& history,
                  const std::filesystem::path& path = profile_path(),
                  const MachineIdentity& identity = current_identity());

// Under the profile's lock: reads the saved profile, adds the history `history` measured in this
// process (History::merge_measured) and the models it lacks by name (saved models win: they may
// be newer, from `switchyard calibrate`), and writes the result. An unusable saved file is
// replaced by `models` and `history`. Writes nothing when there would be no model. Throws
// switchyard::Error when the file cannot be written.
void merge_into_profile(const std::vector<DeviceModel>& models, const History& history,
                        const std::filesystem::path& path = profile_path(),
                        const MachineIdentity& identity = current_identity());

// nullopt, silently, when there is no file; nullopt with one warning on stderr when it is
// corrupt, of another format version, or from another machine or driver. Models of a device
// that is gone are dropped with one warning. Never throws for a bad file.
std::optional<Profile> load_profile(const std::filesystem::path& path = profile_path(),
                                    const MachineIdentity& identity = current_identity());

// Which devices load_or_calibrate measures: all, only the host (cheap: nothing to compile), or
// only the others (whose first kernel build dominates a quick calibration).
enum class CalibrationScope { All, HostOnly, DevicesOnly };

// The profile, calibrating (at `depth`) whatever it lacks within `scope`: everything when there
// is no usable file, or only the candidates of devices added since. Merges what it measured into
// the saved profile (a write failure is one warning: the models still serve this process);
// saves nothing when every probe failed. Lets Cancelled (from `progress`) through.
Profile load_or_calibrate(CalibrationDepth depth, const CalibrationProgress& progress = {},
                          CalibrationScope scope = CalibrationScope::All);

// Whether the profile lacks a model for some usable device outside the host.
bool devices_uncalibrated(const Profile& profile);

}  // namespace switchyard::scheduler

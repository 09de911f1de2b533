// `switchyard info`: the host, the SIMD target chosen at run time, every backend (usable or not,
// and why), every device's capabilities, and every SWITCHYARD_* variable. It is the tool for
// diagnosing settings, so a bad one never stops it: each is shown with what is wrong, and the
// exit status is 1 when any is bad.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "backends/cpu/block_kernels.hpp"
#include "backends/cpu/native/native_tier.hpp"
#include "backends/cpu/simd_target.hpp"
#include "commands.hpp"
#include "core/config.hpp"
#include "core/host_info.hpp"
#include "switchyard/error.hpp"
#include "switchyard/runtime.hpp"

namespace switchyard::cli {
namespace {

std::string gib(std::uint64_t bytes) {
  return fmt::format("{:.1f} GiB", bytes / 1073741824.0);
}

std::string cache_size(std::uint64_t bytes) {
  return bytes >= (1u << 20) ? fmt::format("{} MiB", bytes >> 20)
                             : fmt::format("{} KiB", bytes >> 10);
}

nlohmann::json device_json(const DeviceInfo& d) {
  nlohmann::json j = {{"id", d.id()},
                      {"name", d.name},
                      {"vendor", d.vendor},
                      {"driver_version", d.driver_version},
                      {"kind", std::string(name(d.kind))},
                      {"compute_units", d.compute_units},
                      {"global_memory_bytes", d.global_memory_bytes},
                      {"max_allocation_bytes", d.max_allocation_bytes},
                      {"fp64", d.fp64},
                      {"fp16", d.fp16},
                      {"unified_memory", d.unified_memory},
                      {"library_ops", d.library_ops},
                      {"fft", d.fft},
                      {"dense_solvers", d.dense_solvers}};
  j["free_memory_bytes"] = d.free_memory_bytes ? nlohmann::json(*d.free_memory_bytes) : nullptr;
  return j;
}

nlohmann::json info_json() {
  const HostInfo& h = host_info();
  nlohmann::json j;
  j["host"] = {{"cpu_model", h.cpu_model},
               {"cpu_vendor", h.cpu_vendor},
               {"logical_cpus", h.logical_cpus},
               {"physical_cores", h.physical_cores},
               {"memory_bytes", h.memory_bytes},
               {"available_memory_bytes", h.available_memory_bytes},
               {"simd_target", cpu::simd_target_name()},
               {"simd_targets", cpu::simd_targets_supported()},
               {"simd_capped_by", nullptr},
               {"native_code", nullptr}};
  try {
    j["host"]["native_code"] = cpu::native::status();
  } catch (const ConfigError&) {
    // Shown with the settings.
  }
  try {
    if (cpu::simd_cap()) j["host"]["simd_capped_by"] = env_value("SWITCHYARD_SIMD");
  } catch (const ConfigError&) {
    // Shown with the settings, as every bad one is.
  }
  for (const auto& c : h.caches)
    j["host"]["caches"].push_back({{"level", c.level},
                                   {"type", c.type},
                                   {"bytes", c.bytes},
                                   {"shared_by_cpus", c.shared_by_cpus}});
  j["backends"] = nlohmann::json::array();
  j["detection_error"] = nullptr;
  try {
    for (const auto& b : backends()) {
      nlohmann::json jb = {{"name", b.name}, {"usable", b.usable}, {"reason", b.reason}};
      jb["devices"] = nlohmann::json::array();
      for (const auto& d : b.devices) jb["devices"].push_back(device_json(d));
      j["backends"].push_back(jb);
    }
  } catch (const Error& e) {
    j["detection_error"] = e.what();
  }
  for (Setting& s : settings()) {
    // A setting the machine cannot satisfy (a forced or required backend that is missing) is
    // found by detection, not by the syntax check.
    const auto& detection_error = j["detection_error"];
    if (s.problem.empty() && detection_error.is_string() &&
        detection_error.get<std::string>().find(s.name) != std::string::npos)
      s.problem = detection_error.get<std::string>();
    j["environment"][s.name] = {
        {"value", s.value.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.value)},
        {"default", s.default_value},
        {"meaning", s.meaning},
        {"problem", s.problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.problem)}};
  }
  return j;
}

void print_text(const nlohmann::json& j) {
  const auto& h = j["host"];
  fmt::print("Host\n");
  fmt::print("  CPU          {} ({} logical CPUs, {} cores)\n", h["cpu_model"].get<std::string>(),
             h["logical_cpus"].get<int>(), h["physical_cores"].get<int>());
  const std::string machine =
      fmt::format("{}", fmt::join(h["simd_targets"].get<std::vector<std::string>>(), ", "));
  if (h["simd_capped_by"].is_string())
    fmt::print("  SIMD target  {} (capped by SWITCHYARD_SIMD={}; this machine has {})\n",
               h["simd_target"].get<std::string>(), h["simd_capped_by"].get<std::string>(),
               machine);
  else
    fmt::print("  SIMD target  {} (the best of {} here)\n", h["simd_target"].get<std::string>(),
               machine);
  if (h["native_code"].is_string())
    fmt::print("  Native code  {}\n", h["native_code"].get<std::string>());
  for (const auto& c : h.value("caches", nlohmann::json::array()))
    fmt::print("  L{} {:<11} {} (shared by {} CPUs)\n", c["level"].get<int>(),
               c["type"].get<std::string>(), cache_size(c["bytes"]),
               c["shared_by_cpus"].get<int>());
  fmt::print("  Memory       {} total, {} available\n", gib(h["memory_bytes"]),
             gib(h["available_memory_bytes"]));
  fmt::print("\nBackends (highest priority first)\n");
  if (!j["detection_error"].is_null())
    fmt::print("  not detected: {}\n", j["detection_error"].get<std::string>());
  for (const auto& b : j["backends"]) {
    fmt::print(
        "  {:<8} {}\n", b["name"].get<std::string>(),
        b["usable"].get<bool>() ? "usable" : "unavailable: " + b["reason"].get<std::string>());
    for (const auto& d : b["devices"]) {
      fmt::print("    {:<10} {} [{}]\n", d["id"].get<std::string>(), d["name"].get<std::string>(),
                 d["kind"].get<std::string>());
      fmt::print("               vendor {}, driver {}, {} compute units\n",
                 d["vendor"].get<std::string>(), d["driver_version"].get<std::string>(),
                 d["compute_units"].get<int>());
      fmt::print("               memory {} (free {}), max allocation {}\n",
                 gib(d["global_memory_bytes"]),
                 d["free_memory_bytes"].is_null() ? "not reported" : gib(d["free_memory_bytes"]),
                 gib(d["max_allocation_bytes"]));
      fmt::print(
          "               fp64 {}, fp16 {}, unified memory {}, library ops {}, fft {}, dense "
          "solvers {}\n",
          d["fp64"].get<bool>() ? "yes" : "no", d["fp16"].get<bool>() ? "yes" : "no",
          d["unified_memory"].get<bool>() ? "yes" : "no",
          d["library_ops"].get<bool>() ? "yes" : "no", d["fft"].get<bool>() ? "yes" : "no",
          d["dense_solvers"].get<bool>() ? "yes" : "no");
    }
  }
  fmt::print("\nSettings\n");
  for (const auto& [name, v] : j["environment"].items()) {
    fmt::print("  {:<27} {:<14} {}\n", name,
               v["value"].is_null() ? "(unset)" : v["value"].get<std::string>(),
               v["meaning"].get<std::string>());
    if (!v["problem"].is_null())
      fmt::print("  {:<27} INVALID: {}\n", "", v["problem"].get<std::string>());
  }
}

bool any_setting_invalid(const nlohmann::json& j) {
  for (const auto& [name, v] : j["environment"].items())
    if (!v["problem"].is_null()) return true;
  return false;
}

}  // namespace

int info(bool json) {
  const nlohmann::json j = info_json();
  if (json)
    fmt::print("{}\n", j.dump(2));
  else
    print_text(j);
  return any_setting_invalid(j) ? 1 : 0;
}

}  // namespace switchyard::cli

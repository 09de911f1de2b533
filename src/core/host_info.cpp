#include "core/host_info.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace switchyard {
namespace {

std::string read_line(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::string s;
  std::getline(f, s);
  return s;
}

// "32K" / "1024K" / "32M" as in /sys/devices/system/cpu/cpu0/cache/index*/size.
std::uint64_t parse_size(const std::string& s) {
  if (s.empty()) return 0;
  std::uint64_t v = std::stoull(s);
  switch (s.back()) {
    case 'K':
      return v << 10;
    case 'M':
      return v << 20;
    case 'G':
      return v << 30;
    default:
      return v;
  }
}

std::uint64_t meminfo_kib(const std::string& key) {
  std::ifstream f("/proc/meminfo");
  std::string name;
  std::uint64_t kib = 0;
  std::string unit;
  while (f >> name >> kib >> unit)
    if (name == key + ":") return kib << 10;
  return 0;
}

void read_cpuinfo(HostInfo& h) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  std::string physical;
  while (std::getline(f, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
    std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (key == "model name" && h.cpu_model.empty())
      h.cpu_model = value;
    else if (key == "vendor_id" && h.cpu_vendor.empty())
      h.cpu_vendor = value;
    else if (key == "physical id")
      physical = value;
    else if (key == "core id")
      cores.emplace(physical, value);
  }
  h.physical_cores = static_cast<int>(cores.size());
}

HostInfo read_host_info() {
  HostInfo h;
  read_cpuinfo(h);
  cpu_set_t set;
  h.logical_cpus = sched_getaffinity(0, sizeof set, &set) == 0
                       ? CPU_COUNT(&set)
                       : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  if (h.physical_cores == 0 || h.physical_cores > h.logical_cpus) h.physical_cores = h.logical_cpus;
  const std::filesystem::path cache_dir = "/sys/devices/system/cpu/cpu0/cache";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(cache_dir, ec)) {
    if (entry.path().filename().string().rfind("index", 0) != 0) continue;
    CacheLevel c;
    c.level = std::atoi(read_line(entry.path() / "level").c_str());
    c.type = read_line(entry.path() / "type");
    c.bytes = parse_size(read_line(entry.path() / "size"));
    std::istringstream shared(read_line(entry.path() / "shared_cpu_list"));
    // shared_cpu_list is "0-3,8-11": count the CPUs it names.
    std::string range;
    while (std::getline(shared, range, ',')) {
      const auto dash = range.find('-');
      c.shared_by_cpus += dash == std::string::npos ? 1
                                                    : std::stoi(range.substr(dash + 1)) -
                                                          std::stoi(range.substr(0, dash)) + 1;
    }
    h.caches.push_back(c);
  }
  std::sort(h.caches.begin(), h.caches.end(), [](const CacheLevel& a, const CacheLevel& b) {
    return a.level != b.level ? a.level < b.level : a.type < b.type;
  });
  h.memory_bytes = meminfo_kib("MemTotal");
  h.available_memory_bytes = meminfo_kib("MemAvailable");
  return h;
}

}  // namespace

const HostInfo& host_info() {
  static const HostInfo info = read_host_info();
  return info;
}

std::uint64_t available_memory_bytes() {
  return meminfo_kib("MemAvailable");
}

}  // namespace switchyard

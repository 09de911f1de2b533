// Facts about the host machine, read from the OS once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace switchyard {

struct CacheLevel {
  int level = 0;
  std::string type;  // "Data", "Instruction", "Unified"
  std::uint64_t bytes = 0;
  int shared_by_cpus = 0;
};

struct HostInfo {
  std::string cpu_model;
  std::string cpu_vendor;
  int logical_cpus = 0;  // what this process may run on (affinity)
  int physical_cores = 0;
  std::vector<CacheLevel> caches;
  std::uint64_t memory_bytes = 0;
  std::uint64_t available_memory_bytes = 0;
};

const HostInfo& host_info();             // cached; available memory is read at first call
std::uint64_t available_memory_bytes();  // read now

}  // namespace switchyard

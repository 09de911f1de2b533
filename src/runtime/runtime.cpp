// The public view of the registry (include/switchyard/runtime.hpp).
#include "switchyard/runtime.hpp"

#include "backends/registry.hpp"
#include "runtime/executor.hpp"

namespace switchyard {

std::vector<BackendReport> backends() {
  std::vector<BackendReport> reports;
  for (const auto& status : Registry::instance().backends()) {
    BackendReport r{std::string(status.backend->name()), status.reason.empty(), status.reason, {}};
    if (status.backend->available())
      for (const Device* d : status.backend->devices()) r.devices.push_back(d->info());
    reports.push_back(std::move(r));
  }
  return reports;
}

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> infos;
  for (const Device* d : Registry::instance().devices()) infos.push_back(d->info());
  return infos;
}

DeviceScope::DeviceScope(std::string_view id) {
  const runtime::Candidate& previous = runtime::pinned_candidate();
  previous_device_ = previous.device;
  previous_parallelism_ = static_cast<unsigned char>(previous.parallelism);
  std::string valid;
  for (Device* d : Registry::instance().devices()) {
    const std::string device_id = d->info().id();
    std::vector<std::pair<std::string, Parallelism>> names = {{device_id, Parallelism::Auto}};
    if (d->info().host_addressable) {
      names.emplace_back(device_id + "/inline", Parallelism::Inline);
      names.emplace_back(device_id + "/parallel", Parallelism::Parallel);
    }
    for (const auto& [name, parallelism] : names) {
      valid += (valid.empty() ? "" : ", ") + name;
      if (name != id) continue;
      runtime::pin_candidate({d, parallelism, -1});
      return;
    }
  }
  throw BackendUnavailable("no usable device '" + std::string(id) + "': expected one of " + valid);
}

DeviceScope::~DeviceScope() {
  runtime::pin_candidate({static_cast<Device*>(previous_device_),
                          static_cast<Parallelism>(previous_parallelism_), -1});
}

void synchronize() {
  for (Device* d : Registry::instance().devices()) d->synchronize();
}

}  // namespace switchyard

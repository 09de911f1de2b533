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

DeviceScope::DeviceScope(std::string_view device_id) : previous_(runtime::pinned_device()) {
  std::string valid;
  for (Device* d : Registry::instance().devices()) {
    if (d->info().id() == device_id) {
      runtime::pin_device(d);
      return;
    }
    valid += (valid.empty() ? "" : ", ") + d->info().id();
  }
  throw BackendUnavailable("no usable device '" + std::string(device_id) + "': expected one of " +
                           valid);
}

DeviceScope::~DeviceScope() { runtime::pin_device(static_cast<Device*>(previous_)); }

void synchronize() {
  for (Device* d : Registry::instance().devices()) d->synchronize();
}

}  // namespace switchyard

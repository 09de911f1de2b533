// Fallback policy. By default a kernel whose device fails (compile error, launch error, out of
// memory, lost device) moves to the next-ranked device, and AllDevicesFailed lists every attempt
// when none succeeds. Strict mode raises the first device's own error instead, for users who
// must know where their work ran: SWITCHYARD_FALLBACK=off for the process, or a StrictScope.
#pragma once

namespace switchyard {

// While it lives, work this thread submits does not fall back: the first failure is raised as
// it is. Scopes nest.
class StrictScope {
 public:
  StrictScope();
  ~StrictScope();
  StrictScope(const StrictScope&) = delete;
  StrictScope& operator=(const StrictScope&) = delete;
};

// Whether work submitted by this thread now may fall back to another device: false inside a
// StrictScope or with SWITCHYARD_FALLBACK=off. Throws ConfigError for a value other than on|off.
bool fallback_enabled();

}  // namespace switchyard

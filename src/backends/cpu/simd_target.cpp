#include "backends/cpu/simd_target.hpp"

#include <hwy/targets.h>

#include <cctype>

#include "core/config.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu {
namespace {

// The SIMD targets compiled into the kernels (this file is compiled with their definitions),
// best first: lower bits are better targets. Not the portable baseline (HWY_SCALAR or
// HWY_EMU128): vqsort, the CPU's sort, has no implementation there.
std::vector<std::int64_t> compiled_targets() {
  std::vector<std::int64_t> targets;
  for (std::int64_t rest = HWY_TARGETS & ~(HWY_SCALAR | HWY_EMU128); rest != 0; rest &= rest - 1)
    targets.push_back(rest & -rest);
  return targets;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// What the machine supports, read before the cap changes what Highway reports.
std::int64_t machine_targets() {
  static const std::int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  return targets;
}

bool apply_once() {
  (void)machine_targets();
  std::int64_t cap = 0;
  try {
    cap = simd_cap();
  } catch (const ConfigError&) {
    return false;
  }
  // Every target better than the cap (a lower bit) is switched off; Highway then dispatches to
  // the best of the rest this machine supports.
  if (cap) hwy::DisableTargets(cap - 1);
  return true;
}

}  // namespace

std::vector<std::string> simd_setting_values() {
  std::vector<std::string> values = {"best"};
  for (const std::int64_t t : compiled_targets()) values.push_back(lower(hwy::TargetName(t)));
  return values;
}

std::int64_t simd_cap() {
  const char* text = env_value("SWITCHYARD_SIMD");
  if (!text || std::string(text) == "best") return 0;
  for (const std::int64_t t : compiled_targets())
    if (lower(hwy::TargetName(t)) == text) return t;
  std::string valid;
  for (const std::string& v : simd_setting_values()) valid += (valid.empty() ? "" : ", ") + v;
  throw ConfigError(std::string("SWITCHYARD_SIMD='") + text + "': expected one of " + valid +
                    " (Highway's targets, best first)");
}

void apply_simd_cap() {
  static const bool applied = apply_once();
  (void)applied;
}

std::vector<std::string> simd_targets_supported() {
  std::vector<std::string> names;
  for (const std::int64_t t : compiled_targets())
    if (machine_targets() & t) names.emplace_back(hwy::TargetName(t));
  return names;
}

SleefLevel sleef_level() {
  apply_simd_cap();
  const std::int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  const std::int64_t best = targets & -targets;
  if (best != 0 && best <= HWY_AVX2) return SleefLevel::Avx2;
  if (best == HWY_SSE4) return SleefLevel::Sse4;
  return SleefLevel::Sse2;
}

}  // namespace switchyard::cpu

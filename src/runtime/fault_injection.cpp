#include "runtime/fault_injection.hpp"

#include <charconv>
#include <cstdlib>

#include "backends/registry.hpp"
#include "core/config.hpp"
#include "switchyard/error.hpp"

namespace switchyard::runtime {
namespace {

std::string valid_forms() {
  std::string backends;
  for (const std::string_view name : known_backends())
    backends += (backends.empty() ? "" : "|") + std::string(name);
  return "expected a comma list of backend[:index]:kind[:probability] with backend " + backends +
         ", kind compile|launch|oom|lost and probability in (0, 1] (default 1), e.g. "
         "cpu:launch, cpu:oom, cpu:0:compile:0.5";
}

// What the device's driver would call the failure; the generic wording for backends made up by
// tests.
DriverErrorNames error_names(std::string_view backend) {
  const Backend* b = Registry::instance().find(backend);
  return b ? b->error_names() : DriverErrorNames{};
}

[[noreturn]] void bad_spec(std::string_view spec, std::string_view why) {
  throw ConfigError("SWITCHYARD_FAULT='" + std::string(spec) + "': " + std::string(why) + "; " +
                    valid_forms());
}

std::optional<FaultKind> parse_kind(std::string_view text) {
  if (text == "compile") return FaultKind::Compile;
  if (text == "launch") return FaultKind::Launch;
  if (text == "oom") return FaultKind::OutOfMemory;
  if (text == "lost") return FaultKind::Lost;
  return std::nullopt;
}

std::optional<int> parse_index(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::vector<std::string_view> split_fields(std::string_view item) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (std::size_t colon; (colon = item.find(':', start)) != std::string_view::npos;
       start = colon + 1)
    fields.push_back(item.substr(start, colon - start));
  fields.push_back(item.substr(start));
  return fields;
}

FaultRule parse_rule(std::string_view spec, std::string_view item) {
  const auto fields = split_fields(item);
  FaultRule rule;
  rule.backend = std::string(fields[0]);
  const auto known = known_backends();
  if (std::find(known.begin(), known.end(), rule.backend) == known.end())
    bad_spec(spec, "unknown backend '" + rule.backend + "'");
  std::size_t next = 1;
  if (next < fields.size() && !parse_kind(fields[next])) {
    rule.index = parse_index(fields[next]);
    if (!rule.index)
      bad_spec(spec, "'" + std::string(fields[next]) + "' is neither a kind nor a device index");
    ++next;
  }
  if (next >= fields.size()) bad_spec(spec, "'" + std::string(item) + "' names no kind");
  const auto kind = parse_kind(fields[next]);
  if (!kind) bad_spec(spec, "unknown kind '" + std::string(fields[next]) + "'");
  rule.kind = *kind;
  if (++next < fields.size()) {
    const std::string text(fields[next]);
    char* end = nullptr;
    rule.probability = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(rule.probability > 0 && rule.probability <= 1))
      bad_spec(spec, "probability '" + text + "' is not in (0, 1]");
    ++next;
  }
  if (next < fields.size()) bad_spec(spec, "'" + std::string(item) + "' has too many fields");
  return rule;
}

// splitmix64: a full-period bijective mix, so consecutive counters give independent draws.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool matches(const FaultRule& rule, const DeviceInfo& device) {
  return rule.backend == device.backend && (!rule.index || *rule.index == device.index);
}

bool kind_acts_at(FaultKind kind, FaultStage stage) {
  switch (kind) {
    case FaultKind::Compile:
      return stage == FaultStage::Compile;
    case FaultKind::Launch:
      return stage == FaultStage::Launch;
    case FaultKind::OutOfMemory:
      return stage == FaultStage::Allocate;
    case FaultKind::Lost:
      return true;
  }
  return false;
}

std::string where(const DeviceInfo& device) {
  return device.id() + " (" + device.name + ")";
}

[[noreturn]] void throw_fault(FaultKind kind, const DeviceInfo& device, std::size_t bytes) {
  const DriverErrorNames names = error_names(device.backend);
  switch (kind) {
    case FaultKind::Compile:
      throw CompileError(std::string(names.compile) + " (injected): the kernel did not build on " +
                         where(device) + "; build log:\ninjected by SWITCHYARD_FAULT");
    case FaultKind::Launch:
      throw DeviceError(std::string(names.launch) + " (injected) while launching a kernel on " +
                        where(device));
    case FaultKind::OutOfMemory:
      throw OutOfMemory(std::string(names.out_of_memory) + " (injected): cannot allocate " +
                        std::to_string(bytes) + " bytes on " + where(device));
    case FaultKind::Lost:
      throw DeviceError("device lost: " + where(device) + " no longer responds (" +
                        std::string(names.lost) + ", injected by SWITCHYARD_FAULT)");
  }
  throw DeviceError("unknown injected fault on " + where(device));
}

// The current injector. Replaced injectors stay owned until exit, so a thread that loaded the
// old pointer just before a replacement never reads freed memory.
struct Faults {
  std::atomic<const FaultInjector*> current{nullptr};
  std::mutex mutex;       // guards owned and replaced
  bool replaced = false;  // replace_faults ran: SWITCHYARD_FAULT no longer applies
  std::vector<std::unique_ptr<FaultInjector>> owned;

  void install(std::vector<FaultRule> rules) {
    auto injector = rules.empty() ? nullptr : std::make_unique<FaultInjector>(std::move(rules));
    current.store(injector.get(), std::memory_order_release);
    if (injector) owned.push_back(std::move(injector));
  }
};

Faults& faults() {
  static Faults* f = new Faults;  // never destroyed: work may outlive statics
  return *f;
}

bool install_from_environment() {
  const char* spec = env_value("SWITCHYARD_FAULT");
  auto rules = spec ? parse_fault_spec(spec) : std::vector<FaultRule>{};
  Faults& f = faults();
  std::lock_guard lock(f.mutex);
  if (!f.replaced) f.install(std::move(rules));
  return true;
}

}  // namespace

std::vector<FaultRule> parse_fault_spec(std::string_view spec) {
  std::vector<FaultRule> rules;
  for (const std::string& item : split_list(spec)) rules.push_back(parse_rule(spec, item));
  if (rules.empty()) bad_spec(spec, "no rule given");
  return rules;
}

FaultInjector::FaultInjector(std::vector<FaultRule> rules)
    : rules_(std::move(rules)), draws_(new std::atomic<std::uint64_t>[rules_.size()]()) {}

bool FaultInjector::fires(std::size_t rule) const {
  if (rules_[rule].probability >= 1) return true;
  const std::uint64_t n = draws_[rule].fetch_add(1, std::memory_order_relaxed);
  const double uniform = static_cast<double>(mix(n + rule * 0x100000001b3ull) >> 11) * 0x1p-53;
  return uniform < rules_[rule].probability;
}

void FaultInjector::inject(const DeviceInfo& device, FaultStage stage, std::size_t bytes) const {
  {
    std::lock_guard lock(lost_mutex_);
    if (lost_.count(device.id())) throw_fault(FaultKind::Lost, device, bytes);
  }
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    const FaultRule& rule = rules_[i];
    if (!matches(rule, device) || !kind_acts_at(rule.kind, stage) || !fires(i)) continue;
    if (rule.kind == FaultKind::Lost) {
      std::lock_guard lock(lost_mutex_);
      lost_.insert(device.id());
    }
    throw_fault(rule.kind, device, bytes);
  }
}

void maybe_inject(const DeviceInfo& device, FaultStage stage, std::size_t bytes) {
  // A malformed SWITCHYARD_FAULT throws here, and again on every call until it is fixed.
  [[maybe_unused]] static const bool read = install_from_environment();
  const FaultInjector* injector = faults().current.load(std::memory_order_acquire);
  if (injector) injector->inject(device, stage, bytes);
}

void replace_faults(std::string_view spec) {
  auto rules = spec.empty() ? std::vector<FaultRule>{} : parse_fault_spec(spec);
  Faults& f = faults();
  std::lock_guard lock(f.mutex);
  f.replaced = true;
  f.install(std::move(rules));
}

}  // namespace switchyard::runtime

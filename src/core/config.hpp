// SWITCHYARD_* environment variables, read and checked once per process.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard {

struct EnvVariable {
  std::string_view name;
  std::string_view meaning;
  std::string_view default_value;
};

// Every variable Switchyard reads, for `switchyard info` and the docs.
std::span<const EnvVariable> environment_variables();

// The variable's value, or nullptr when unset or empty.
const char* env_value(std::string_view name);

// Splits "a,b, c" into trimmed, non-empty items.
std::vector<std::string> split_list(std::string_view text);

// Fraction of device memory kept free (SWITCHYARD_MEMORY_RESERVE, default 0.3); throws
// ConfigError when not a number in [0, 1).
double memory_reserve_fraction();

// Whether the scheduler explores (SWITCHYARD_EXPLORE: bounded, the default, or off); throws
// ConfigError for any other value.
bool exploration_enabled();

}  // namespace switchyard

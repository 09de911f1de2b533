// The registry honours SWITCHYARD_BACKEND, SWITCHYARD_DISABLE and SWITCHYARD_REQUIRE_BACKENDS and
// rejects bad values.
#include <gtest/gtest.h>

#include <string>

#include "backends/registry.hpp"
#include "switchyard/error.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using testing_support::ScopedEnv;

TEST(Registry, ListsEveryBackendAndTheCpuIsUsable) {
  ScopedEnv backend("SWITCHYARD_BACKEND", "auto");
  Registry r;
  ASSERT_FALSE(r.backends().empty());
  ASSERT_NE(r.find("cpu"), nullptr);
  EXPECT_TRUE(r.find("cpu")->available());
  EXPECT_EQ(r.cpu().info().backend, "cpu");
  for (const auto& s : r.backends()) {
    if (!s.backend->available()) {
      EXPECT_FALSE(s.reason.empty()) << s.backend->name();
    }
  }
}

TEST(Registry, BadBackendNameListsTheValidOnes) {
  ScopedEnv backend("SWITCHYARD_BACKEND", "tpu");
  try {
    Registry r;
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("tpu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("auto"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cpu"), std::string::npos) << msg;
  }
}

TEST(Registry, BadDisableNameIsAnError) {
  ScopedEnv disable("SWITCHYARD_DISABLE", "cpu,quantum");
  EXPECT_THROW(Registry r, ConfigError);
}

TEST(Registry, DisabledBackendKeepsItsReason) {
  ScopedEnv disable("SWITCHYARD_DISABLE", " cpu ");
  ScopedEnv backend("SWITCHYARD_BACKEND", "auto");
  bool other_usable = false;
  {
    Registry all;
    for (const auto& s : all.backends())
      other_usable |= s.backend->name() != "cpu" && s.backend->available();
  }
  if (!other_usable) {
    EXPECT_THROW(Registry r, ConfigError) << "with only the CPU, disabling it leaves nothing";
    return;
  }
  Registry r;
  for (const auto& s : r.backends()) {
    if (s.backend->name() == "cpu") {
      EXPECT_NE(s.reason.find("SWITCHYARD_DISABLE"), std::string::npos);
    }
  }
  for (const Device* d : r.devices()) EXPECT_NE(d->info().backend, "cpu");
}

TEST(Registry, ForcedBackendSelectsOnlyItsDevices) {
  ScopedEnv backend("SWITCHYARD_BACKEND", "cpu");
  Registry r;
  ASSERT_FALSE(r.devices().empty());
  for (const Device* d : r.devices()) EXPECT_EQ(d->info().backend, "cpu");
}

TEST(Registry, ForcingADisabledBackendIsAnError) {
  ScopedEnv backend("SWITCHYARD_BACKEND", "cpu");
  ScopedEnv disable("SWITCHYARD_DISABLE", "cpu");
  EXPECT_THROW(Registry r, ConfigError);
}

}  // namespace
}  // namespace switchyard

namespace switchyard {
namespace {

using testing_support::ScopedEnv;

TEST(Registry, RequiredBackendsMustBeKnownNames) {
  ScopedEnv require("SWITCHYARD_REQUIRE_BACKENDS", "cpu,no-such-backend");
  testing_support::expect_mentions(testing_support::error_message<ConfigError>([] { Registry r; }),
                                   {"SWITCHYARD_REQUIRE_BACKENDS", "no-such-backend", "cpu"});
}

TEST(Registry, RequiringAnAvailableBackendChangesNothing) {
  ScopedEnv require("SWITCHYARD_REQUIRE_BACKENDS", "cpu");
  Registry r;
  EXPECT_TRUE(r.find("cpu")->available());
}

TEST(Registry, RequiringAMissingBackendFailsNamingWhyItIsMissing) {
  Registry all;
  const Backend* missing = nullptr;
  for (const auto& s : all.backends())
    if (!s.backend->available()) missing = s.backend;
  if (!missing) GTEST_SKIP() << "every backend this build knows is usable here";
  const std::string name(missing->name());
  ScopedEnv require("SWITCHYARD_REQUIRE_BACKENDS", name.c_str());
  testing_support::expect_mentions(
      testing_support::error_message<BackendUnavailable>([] { Registry r; }),
      {"SWITCHYARD_REQUIRE_BACKENDS", name.c_str(), missing->unavailable_reason().c_str()});
}

TEST(Registry, BadMemoryReserveIsAnErrorNamingTheRange) {
  ScopedEnv reserve("SWITCHYARD_MEMORY_RESERVE", "1.5");
  try {
    Registry r;
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("[0, 1)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace switchyard

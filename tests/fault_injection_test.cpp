// Fault injection (SWITCHYARD_FAULT) and the fallback bookkeeping built on it: every fault kind
// throws the typed error its backend would, draws are reproducible, a device that keeps failing
// is disabled with one log line, and AllDevicesFailed lists every attempt.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "backends/registry.hpp"
#include "runtime/attempts.hpp"
#include "runtime/fault_injection.hpp"
#include "switchyard/error.hpp"
#include "switchyard/fallback.hpp"
#include "test_support.hpp"

namespace switchyard::runtime {
namespace {

DeviceInfo device(std::string backend, int index = 0) {
  DeviceInfo d;
  d.backend = std::move(backend);
  d.index = index;
  d.name = "test " + d.backend + " device";
  return d;
}

using testing_support::error_message;
using testing_support::expect_mentions;

TEST(FaultSpec, ParsesEveryValidForm) {
  const auto one = parse_fault_spec("opencl:launch");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].backend, "opencl");
  EXPECT_FALSE(one[0].index);
  EXPECT_EQ(one[0].kind, FaultKind::Launch);
  EXPECT_EQ(one[0].probability, 1.0);

  const auto many = parse_fault_spec("cpu:oom, opencl:0:compile:0.5,cpu:lost:1");
  ASSERT_EQ(many.size(), 3u);
  EXPECT_EQ(many[0].kind, FaultKind::OutOfMemory);
  EXPECT_EQ(many[1].index, 0);
  EXPECT_EQ(many[1].kind, FaultKind::Compile);
  EXPECT_EQ(many[1].probability, 0.5);
  EXPECT_EQ(many[2].backend, "cpu");
  EXPECT_EQ(many[2].kind, FaultKind::Lost);
}

// Whether this build knows the backend (the registry lists it, usable or not).
bool built_with(std::string_view backend) {
  const auto known = known_backends();
  return std::find(known.begin(), known.end(), backend) != known.end();
}

TEST(FaultSpec, BadSpecIsConfigErrorNamingTheValidForms) {
  std::string backends;  // every backend this build knows, as the registry lists them
  for (const std::string_view name : known_backends())
    backends += (backends.empty() ? "" : "|") + std::string(name);
  ASSERT_NE(backends.find("cpu"), std::string::npos);
  for (const char* spec :
       {"gpu:launch", "opencl", "opencl:explode", "opencl:launch:0", "opencl:launch:1.5",
        "opencl:launch:abc", "opencl:-1:launch", "opencl:0", "opencl:0:launch:0.5:x", ","}) {
    const std::string message = error_message<ConfigError>([&] { parse_fault_spec(spec); });
    expect_mentions(message, {"SWITCHYARD_FAULT", spec, "backend[:index]:kind[:probability]",
                              backends.c_str(), "compile|launch|oom|lost", "(0, 1]"});
  }
}

TEST(FaultInjector, CompileFaultIsCompileErrorWithABuildLog) {
  const FaultInjector faults(parse_fault_spec("opencl:compile"));
  const DeviceInfo cl = device("opencl");
  faults.inject(cl, FaultStage::Launch, 0);  // a compile fault acts at compile time only
  faults.inject(cl, FaultStage::Allocate, 64);
  const std::string message =
      error_message<CompileError>([&] { faults.inject(cl, FaultStage::Compile, 0); });
  expect_mentions(message, {"CL_BUILD_PROGRAM_FAILURE", "opencl:0", "build log",
                            "injected by SWITCHYARD_FAULT"});
}

TEST(FaultInjector, LaunchFaultIsDeviceErrorWithTheBackendsName) {
  std::vector<std::pair<std::string, std::string>> cases;  // the backends this build has
  std::string spec;
  for (const auto& [backend, name] : {std::pair{"opencl", "CL_OUT_OF_RESOURCES (injected)"},
                                      std::pair{"cuda", "CUDA_ERROR_LAUNCH_FAILED (injected)"},
                                      std::pair{"cpu", "launch failed (injected)"}})
    if (built_with(backend)) {
      cases.emplace_back(backend, name);
      spec += (spec.empty() ? "" : ",") + std::string(backend) + ":launch";
    }
  const FaultInjector faults(parse_fault_spec(spec));
  for (const auto& [backend, name] : cases) {
    const DeviceInfo d = device(backend);
    faults.inject(d, FaultStage::Compile, 0);
    const std::string message =
        error_message<DeviceError>([&] { faults.inject(d, FaultStage::Launch, 0); });
    expect_mentions(message, {name.c_str(), d.id().c_str()});
  }
}

TEST(FaultInjector, OomFaultIsOutOfMemoryNamingDeviceAndSize) {
  if (!built_with("cuda")) GTEST_SKIP() << "this build has no CUDA backend";
  const FaultInjector faults(parse_fault_spec("cuda:oom"));
  const DeviceInfo gpu = device("cuda");
  faults.inject(gpu, FaultStage::Launch, 0);
  const std::string message =
      error_message<OutOfMemory>([&] { faults.inject(gpu, FaultStage::Allocate, 4096); });
  expect_mentions(message, {"CUDA_ERROR_OUT_OF_MEMORY", "cuda:0", "4096 bytes"});
}

TEST(FaultInjector, LostDeviceKeepsFailingAtEveryStage) {
  const FaultInjector faults(parse_fault_spec("opencl:0:lost:0.5"));
  const DeviceInfo cl = device("opencl");
  int calls_before_loss = 0;
  for (;; ++calls_before_loss) {
    try {
      faults.inject(cl, FaultStage::Launch, 0);
    } catch (const DeviceError& e) {
      expect_mentions(e.what(), {"device lost", "opencl:0", "CL_DEVICE_NOT_AVAILABLE"});
      break;
    }
    ASSERT_LT(calls_before_loss, 100) << "a 0.5 fault never fired";
  }
  for (FaultStage stage : {FaultStage::Compile, FaultStage::Allocate, FaultStage::Launch})
    for (int i = 0; i < 10; ++i) EXPECT_THROW(faults.inject(cl, stage, 0), DeviceError);
  faults.inject(device("opencl", 1), FaultStage::Compile, 0);  // only opencl:0 was lost
}

TEST(FaultInjector, TargetsOneDeviceByIndex) {
  const FaultInjector faults(parse_fault_spec("opencl:1:launch"));
  faults.inject(device("opencl", 0), FaultStage::Launch, 0);
  faults.inject(device("cuda", 1), FaultStage::Launch, 0);
  EXPECT_THROW(faults.inject(device("opencl", 1), FaultStage::Launch, 0), DeviceError);
}

std::vector<bool> draws(const FaultInjector& faults, const DeviceInfo& d, int n) {
  std::vector<bool> fired;
  for (int i = 0; i < n; ++i) {
    try {
      faults.inject(d, FaultStage::Launch, 0);
      fired.push_back(false);
    } catch (const DeviceError&) {
      fired.push_back(true);
    }
  }
  return fired;
}

TEST(FaultInjector, ProbabilityIsReproducibleAndAboutRight) {
  const std::string spec = "opencl:launch:0.25";
  const auto first = draws(FaultInjector(parse_fault_spec(spec)), device("opencl"), 2000);
  const auto again = draws(FaultInjector(parse_fault_spec(spec)), device("opencl"), 2000);
  EXPECT_EQ(first, again);
  const auto fired = std::count(first.begin(), first.end(), true);
  EXPECT_GT(fired, 400);  // 500 expected; the bounds are > 5 standard deviations wide
  EXPECT_LT(fired, 600);
}

TEST(FaultInjector, ProcessWideRulesCanBeReplaced) {
  const DeviceInfo cpu = device("cpu");
  replace_faults("cpu:launch");
  EXPECT_THROW(maybe_inject(cpu, FaultStage::Launch), DeviceError);
  maybe_inject(cpu, FaultStage::Compile);
  replace_faults("");
  maybe_inject(cpu, FaultStage::Launch);
  EXPECT_THROW(replace_faults("cpu:melt"), ConfigError);
}

// Environment variables are read once per process: these run in a fresh child process.
class FreshProcess : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(FreshProcess, MalformedFaultVariableIsConfigError) {
  EXPECT_EXIT(
      {
        setenv("SWITCHYARD_FAULT", "opencl:sometimes", 1);
        try {
          maybe_inject(device("opencl"), FaultStage::Launch);
        } catch (const ConfigError& e) {
          std::exit(std::string(e.what()).find("compile|launch|oom|lost") != std::string::npos ? 0
                                                                                               : 2);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(FreshProcess, FaultVariableInjects) {
  EXPECT_EXIT(
      {
        setenv("SWITCHYARD_FAULT", "opencl:0:oom", 1);
        maybe_inject(device("opencl", 1), FaultStage::Allocate, 8);
        try {
          maybe_inject(device("opencl", 0), FaultStage::Allocate, 8);
        } catch (const OutOfMemory&) {
          std::exit(0);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(FreshProcess, FallbackVariableOffMakesStrictAndBadValueIsConfigError) {
  EXPECT_EXIT(
      {
        setenv("SWITCHYARD_FALLBACK", "off", 1);
        std::exit(fallback_enabled() ? 1 : 0);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(
      {
        setenv("SWITCHYARD_FALLBACK", "maybe", 1);
        try {
          fallback_enabled();
        } catch (const ConfigError& e) {
          std::exit(std::string(e.what()).find("'maybe'") != std::string::npos ? 0 : 2);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Fallback, StrictScopeTurnsFallbackOffForThisThreadOnly) {
  ASSERT_TRUE(fallback_enabled()) << "run without SWITCHYARD_FALLBACK set";
  {
    StrictScope strict;
    EXPECT_FALSE(fallback_enabled());
    {
      StrictScope nested;
      EXPECT_FALSE(fallback_enabled());
    }
    EXPECT_FALSE(fallback_enabled());
    bool other_thread = false;
    std::thread([&] { other_thread = fallback_enabled(); }).join();
    EXPECT_TRUE(other_thread);
  }
  EXPECT_TRUE(fallback_enabled());
}

TEST(Attempts, ErrorTypesAreNamed) {
  EXPECT_EQ(make_attempt("cpu:0", "compile", CompileError("x")).error_type, "CompileError");
  EXPECT_EQ(make_attempt("cpu:0", "allocate", OutOfMemory("x")).error_type, "OutOfMemory");
  EXPECT_EQ(make_attempt("cpu:0", "launch", DeviceError("x")).error_type, "DeviceError");
  EXPECT_EQ(make_attempt("cpu:0", "launch", std::runtime_error("x")).error_type, "std::exception");
  const Attempt a = make_attempt("opencl:0", "launch", DeviceError("CL_OUT_OF_RESOURCES"));
  EXPECT_EQ(a.device, "opencl:0");
  EXPECT_EQ(a.stage, "launch");
  EXPECT_EQ(a.message, "CL_OUT_OF_RESOURCES");
}

TEST(Attempts, AllDevicesFailedListsEveryAttemptInOrder) {
  const std::vector<Attempt> attempts = {
      make_attempt("cuda:0", "allocate", OutOfMemory("CUDA_ERROR_OUT_OF_MEMORY: 4096 bytes")),
      make_attempt("opencl:0", "launch", DeviceError("CL_OUT_OF_RESOURCES (injected)")),
      make_attempt("cpu:0", "compile", CompileError("build failed (injected)")),
  };
  const std::string message =
      error_message<AllDevicesFailed>([&] { throw_all_failed(attempts, "add f32"); });
  expect_mentions(message, {"add f32", "3 attempts",
                            "1. cuda:0 at allocate: OutOfMemory: CUDA_ERROR_OUT_OF_MEMORY",
                            "2. opencl:0 at launch: DeviceError: CL_OUT_OF_RESOURCES (injected)",
                            "3. cpu:0 at compile: CompileError: build failed (injected)"});
  EXPECT_LT(message.find("cuda:0"), message.find("opencl:0"));

  expect_mentions(error_message<AllDevicesFailed>([] { throw_all_failed({}, "sum f64"); }),
                  {"sum f64", "expected at least one usable device"});
}

TEST(Attempts, FallbackMessageNamesBothDevicesAndTheCause) {
  const Attempt a = make_attempt("opencl:0", "launch", DeviceError("CL_OUT_OF_RESOURCES"));
  EXPECT_EQ(fallback_message(a, "add f32", "cpu:0"),
            "add f32 failed on opencl:0 at launch (DeviceError: CL_OUT_OF_RESOURCES); "
            "trying cpu:0");
}

TEST(DeviceHealth, DisablesAfterThreeConsecutiveFailuresWithOneLogLine) {
  std::vector<std::string> lines;
  DeviceHealth health(3, [&](std::string_view line) { lines.emplace_back(line); });
  const DeviceError error("CL_OUT_OF_RESOURCES (injected)");

  EXPECT_FALSE(health.record_failure("opencl:0", error));
  EXPECT_FALSE(health.record_failure("opencl:0", error));
  health.record_success("opencl:0");  // a success breaks the run of failures
  EXPECT_FALSE(health.record_failure("opencl:0", error));
  EXPECT_FALSE(health.record_failure("opencl:0", error));
  EXPECT_FALSE(health.disabled("opencl:0"));
  EXPECT_TRUE(health.record_failure("opencl:0", error));
  EXPECT_TRUE(health.disabled("opencl:0"));
  EXPECT_FALSE(health.disabled("cpu:0"));
  EXPECT_FALSE(health.record_failure("opencl:0", error));  // already disabled: no second line

  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "disabling opencl:0 for this process after 3 failures: "
            "CL_OUT_OF_RESOURCES (injected)");
  EXPECT_EQ(health.disabled_devices(), std::vector<std::string>{"opencl:0"});

  health.reset();
  EXPECT_FALSE(health.disabled("opencl:0"));
}

TEST(DeviceHealth, OutOfMemoryDoesNotDisable) {
  std::vector<std::string> lines;
  DeviceHealth health(3, [&](std::string_view line) { lines.emplace_back(line); });
  for (int i = 0; i < 10; ++i) health.record_failure("cuda:0", OutOfMemory("too big"));
  EXPECT_FALSE(health.disabled("cuda:0"));
  EXPECT_TRUE(lines.empty());
}

}  // namespace
}  // namespace switchyard::runtime

// What happens around the work rather than in it, checked on real child processes: exit with
// background work still running, logging, and processes sharing one cache directory.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "switchyard/runtime.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::Child;
using testing::ChildResult;
using testing_support::has_opencl;
using testing_support::TempDir;

ChildResult run(const std::vector<std::string>& args, const fs::path& cache,
                std::map<std::string, std::string> env = {}) {
  env["SWITCHYARD_CACHE_DIR"] = cache.string();
  env.emplace("SWITCHYARD_PROFILE", "");
  std::vector<std::string> argv{SWITCHYARD_LIFECYCLE_CHILD};
  argv.insert(argv.end(), args.begin(), args.end());
  return Child(argv, env, cache / "child").wait();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

void write_json(const fs::path& path, const json& j) {
  std::ofstream(path) << j.dump(2);
}

// (signature, bucket) of every history entry: what a run of some work leaves in the profile.
std::set<std::pair<std::string, int>> history_keys(const fs::path& profile) {
  std::set<std::pair<std::string, int>> keys;
  const json j = read_json(profile);
  for (const json& e : j.at("history"))
    keys.emplace(e.at("signature").get<std::string>(), e.at("bucket").get<int>());
  return keys;
}

// What the scheduler needs of a profile: at least one model, unique names, sane numbers.
void expect_valid_profile(const fs::path& path) {
  const json j = read_json(path);
  const auto& models = j.at("models");
  ASSERT_FALSE(models.empty());
  std::set<std::string> names;
  for (const json& m : models) {
    EXPECT_TRUE(names.insert(m.at("name").get<std::string>()).second) << m.at("name");
    EXPECT_LE(m.at("launch_s").get<double>(), 3600);
  }
}

const std::map<std::string, std::string> kCpuOnly{{"SWITCHYARD_BACKEND", "cpu"}};

TEST(Shutdown, FiftyOpenClProgramsExitCleanly) {
  if (!has_opencl()) GTEST_SKIP() << "no OpenCL device in the registry";
  constexpr int kRuns = 50, kBatch = 5;
  const auto start = std::chrono::steady_clock::now();
  int clean = 0;
  for (int first = 0; first < kRuns; first += kBatch) {
    std::vector<TempDir> dirs(kBatch);  // a fresh cache each: nothing calibrated
    std::vector<Child> children;
    for (const TempDir& dir : dirs) {
      const std::map<std::string, std::string> env{{"SWITCHYARD_CACHE_DIR", dir.path().string()},
                                                   {"SWITCHYARD_PROFILE", ""}};
      children.emplace_back(std::vector<std::string>{SWITCHYARD_LIFECYCLE_CHILD, "opencl"}, env,
                            dir.path() / "child");
    }
    for (int i = 0; i < kBatch; ++i) {
      const ChildResult r = children[i].wait();
      const bool ok = r.status == 0 && r.out == "result 3 5 7 9\n";
      clean += ok;
      EXPECT_TRUE(ok) << "run " << first + i << ": status " << r.status << ", stdout '" << r.out
                      << "', stderr:\n"
                      << r.err;
    }
  }
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << clean << " of " << kRuns << " runs exited cleanly in " << wall_s << " s\n";
  EXPECT_EQ(clean, kRuns);
}

// A program that ends within its first seconds leaves the devices uncalibrated (a calibration
// it began would be abandoned at exit, after a compile that exit waits for): here, a program
// with a fresh cache whose work runs on the host.
TEST(Shutdown, AProgramEndingAtOnceCalibratesNoDevice) {
  const TempDir dir;
  const ChildResult r = run({"host"}, dir.path(), {{"SWITCHYARD_LOG", "info"}});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "result 3 5 7 9\n");
  EXPECT_NE(r.err.find("calibration: measuring cpu:0/inline"), std::string::npos) << r.err;
  for (const DeviceInfo& d : devices())
    if (!d.host_addressable)
      EXPECT_EQ(r.err.find("calibration: measuring " + d.id()), std::string::npos) << r.err;
}

// A program that runs a while begins calibrating the devices in the background, and exits
// cleanly in the middle of it (PoCL's calibration takes seconds).
TEST(Shutdown, ProgramsExitCleanlyWhileTheDevicesAreBeingCalibrated) {
  if (!has_opencl()) GTEST_SKIP() << "no OpenCL device in the registry";
  constexpr int kRuns = 4;
  std::vector<TempDir> dirs(kRuns);
  std::vector<Child> children;
  for (const TempDir& dir : dirs)
    children.emplace_back(
        std::vector<std::string>{SWITCHYARD_LIFECYCLE_CHILD, "opencl", "3"},
        std::map<std::string, std::string>{{"SWITCHYARD_CACHE_DIR", dir.path().string()},
                                           {"SWITCHYARD_PROFILE", ""},
                                           {"SWITCHYARD_LOG", "info"}},
        dir.path() / "child");
  for (int i = 0; i < kRuns; ++i) {
    const ChildResult r = children[i].wait();
    EXPECT_TRUE(r.status == 0 && r.out == "result 3 5 7 9\n")
        << "run " << i << ": status " << r.status << ", stdout '" << r.out << "', stderr:\n"
        << r.err;
    EXPECT_NE(r.err.find("calibration: measuring opencl:0"), std::string::npos) << r.err;
  }
}

// Threads a program left running (detached here; daemon threads in Python) are still compiling
// and launching when main returns: exit waits for the driver calls in flight and parks the
// threads at their next one, before the drivers' statics are destroyed.
TEST(Shutdown, ThreadsStillRunningDeviceWorkWhenMainReturns) {
  std::vector<std::string> ids;
  for (const DeviceInfo& d : devices()) ids.push_back(d.id());
  // Three threads on the first device (OpenCL where there is one: its compiles are slow and its
  // driver's statics are the ones exit destroys), one on the host.
  const std::string threads =
      ids.front() + "," + ids.front() + "," + ids.front() + "," + ids.back();
  constexpr int kRuns = 8;
  int clean = 0;
  for (int i = 0; i < kRuns; ++i) {
    // main returns at different points of the threads' work, from their first compiles on.
    const std::string seconds = std::to_string(0.05 + 0.1 * i);
    TempDir dir;
    const ChildResult r = run({"threads", threads, seconds}, dir.path());
    const bool ok = r.status == 0 && r.out == "main returns\n" && r.err.empty();
    clean += ok;
    EXPECT_TRUE(ok) << "threads " << threads << " for " << seconds << " s: status " << r.status
                    << ", stdout '" << r.out << "', stderr:\n"
                    << r.err;
  }
  std::cout << clean << " of " << kRuns << " runs exited cleanly\n";
}

// A program's files go to its cache directory (PoCL's build cache under ours, unless the user
// placed it), none to the temporary directory.
TEST(Cache, PoclCacheGoesUnderOursAndNothingToTheTemporaryDirectory) {
  if (!has_opencl()) GTEST_SKIP() << "no OpenCL device in the registry";
  TempDir dir;
  const fs::path tmp = dir.path() / "tmp";
  fs::create_directory(tmp);
  // An empty POCL_CACHE_DIR counts as unset (this process may have set one for itself).
  const ChildResult r =
      run({"opencl"}, dir.path(), {{"TMPDIR", tmp.string()}, {"POCL_CACHE_DIR", ""}});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_empty(tmp));
  int programs = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir.path() / "pocl"))
    programs += e.path().filename() == "program.bc";
  EXPECT_GE(programs, 1) << "PoCL built nothing under " << dir.path() / "pocl";
}

TEST(Logging, DebugShowsDetectionCompilesDecisionsAndEachWarningOnce) {
  TempDir dir;
  ASSERT_EQ(run({"work", "0"}, dir.path(), kCpuOnly).status, 0);
  // Two models of one name: the scheduler would refuse the file on every run.
  const fs::path profile = dir.path() / "profile.json";
  json j = read_json(profile);
  j["models"].push_back(j["models"][0]);
  write_json(profile, j);

  auto env = kCpuOnly;
  env["SWITCHYARD_LOG"] = "debug";
  const ChildResult r = run({"work", "0"}, dir.path(), env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("switchyard: info: detect: cpu: 1 device"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("detect: opencl: unavailable"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("switchyard: info: compile: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("switchyard: debug: decision: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("calibration: measuring cpu:0/inline"), std::string::npos) << r.err;
  // The profile is read at start and again under the lock at each save: one warning.
  EXPECT_EQ(count(r.err, "two device models are named"), 1) << r.err;
  expect_valid_profile(profile);

  const ChildResult quiet = run({"work", "0"}, dir.path(), kCpuOnly);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.err, "") << "the rewritten profile is used without complaint";
}

TEST(Profile, OutOfRangeNumbersAreRecalibratedAndRewritten) {
  TempDir dir;
  ASSERT_EQ(run({"work", "1"}, dir.path(), kCpuOnly).status, 0);
  const fs::path profile = dir.path() / "profile.json";
  for (const char* field : {"launch_s", "memory_bytes_per_s", "free_memory_bytes"}) {
    json j = read_json(profile);
    j["models"][0][field] = 1e300;
    write_json(profile, j);
    const ChildResult r = run({"work", "1"}, dir.path(), kCpuOnly);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count(r.err, "switchyard: warn:"), 1) << r.err;
    EXPECT_NE(r.err.find(field), std::string::npos) << r.err;
    expect_valid_profile(profile);
    EXPECT_LT(read_json(profile)["models"][0][field].get<double>(), 1e300);
  }
}

TEST(Profile, ConcurrentProcessesMergeTheirHistory) {
  // What each kind of work leaves in a profile of its own.
  TempDir alone1, alone2, shared;
  ASSERT_EQ(run({"work", "1"}, alone1.path(), kCpuOnly).status, 0);
  ASSERT_EQ(run({"work", "2"}, alone2.path(), kCpuOnly).status, 0);
  const auto keys1 = history_keys(alone1.path() / "profile.json");
  const auto keys2 = history_keys(alone2.path() / "profile.json");
  ASSERT_FALSE(keys1.empty());
  ASSERT_FALSE(keys2.empty());

  // Both start from one saved profile and save at exit: without merging, the last one to exit
  // would replace what the other measured.
  ASSERT_EQ(run({"work", "0"}, shared.path(), kCpuOnly).status, 0);
  std::map<std::string, std::string> env = kCpuOnly;
  env["SWITCHYARD_CACHE_DIR"] = shared.path().string();
  env["SWITCHYARD_PROFILE"] = "";
  Child one({SWITCHYARD_LIFECYCLE_CHILD, "work", "1"}, env, shared.path() / "one");
  Child two({SWITCHYARD_LIFECYCLE_CHILD, "work", "2"}, env, shared.path() / "two");
  const ChildResult r1 = one.wait(), r2 = two.wait();
  ASSERT_EQ(r1.status, 0) << r1.err;
  ASSERT_EQ(r2.status, 0) << r2.err;

  const auto merged = history_keys(shared.path() / "profile.json");
  for (const auto& k : keys1) EXPECT_TRUE(merged.count(k)) << "lost " << k.first << " of work 1";
  for (const auto& k : keys2) EXPECT_TRUE(merged.count(k)) << "lost " << k.first << " of work 2";
  expect_valid_profile(shared.path() / "profile.json");
  for (const auto& e : fs::directory_iterator(shared.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

}  // namespace
}  // namespace switchyard

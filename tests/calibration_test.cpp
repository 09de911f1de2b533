#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <optional>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/registry.hpp"
#include "scheduler/calibration.hpp"
#include "scheduler/profile.hpp"
#include "switchyard/error.hpp"
#include "test_support.hpp"

namespace switchyard::scheduler {
namespace {

namespace fs = std::filesystem;

using testing_support::ScopedEnv;
using testing_support::TempDir;

// ---- calibration of the real devices

const DeviceModel* find(const std::vector<DeviceModel>& models, std::string_view name) {
  for (const DeviceModel& m : models)
    if (m.name == name) return &m;
  return nullptr;
}

// One Quick calibration of every device, shared by the tests below (it is what the first auto
// decision of a process runs).
class QuickCalibration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto start = std::chrono::steady_clock::now();
    models_ = new std::vector<DeviceModel>(calibrate_all(CalibrationDepth::Quick));
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("quick calibration of %zu candidates: %.3f s\n", models_->size(), s);
  }
  static void TearDownTestSuite() { delete models_; }
  static const std::vector<DeviceModel>& models() { return *models_; }

 private:
  static inline std::vector<DeviceModel>* models_ = nullptr;
};

void expect_plausible(const DeviceModel& m) {
  SCOPED_TRACE(m.name);
  EXPECT_GT(m.launch_s, 0);
  EXPECT_LT(m.launch_s, 10e-3);
  EXPECT_GT(m.memory_bytes_per_s, 0.1e9);
  EXPECT_LT(m.memory_bytes_per_s, 1000e9);
  EXPECT_GT(m.arithmetic_per_s, 1e8);
  EXPECT_GT(m.transcendental_per_s, 1e7);
  EXPECT_LT(m.transcendental_per_s, m.arithmetic_per_s);
  EXPECT_GT(m.flops_per_s, 1e8);
  EXPECT_GE(m.compile_base_s, 0);
  EXPECT_GE(m.compile_per_op_s, 0);
}

TEST_F(QuickCalibration, CpuGivesInlineAndParallelCandidates) {
  const DeviceModel* inline_cpu = find(models(), "cpu:0/inline");
  const DeviceModel* parallel = find(models(), "cpu:0/parallel");
  ASSERT_NE(inline_cpu, nullptr);
  ASSERT_NE(parallel, nullptr);
  expect_plausible(*inline_cpu);
  expect_plausible(*parallel);
  EXPECT_LT(inline_cpu->launch_s, 1e-3);
  // Inline skips waking the thread pool; this is why the CPU is two candidates.
  EXPECT_LT(inline_cpu->launch_s, parallel->launch_s);
  for (const DeviceModel* m : {inline_cpu, parallel}) {
    EXPECT_TRUE(m->host_addressable);
    EXPECT_EQ(m->h2d_latency_s, 0);
    EXPECT_EQ(m->d2h_latency_s, 0);
    EXPECT_GT(m->free_memory_bytes, 0u);
    EXPECT_EQ(Registry::instance().devices()[m->id.device]->info().backend, "cpu");
  }
  EXPECT_TRUE(inline_cpu->id.inline_cpu);
  EXPECT_FALSE(parallel->id.inline_cpu);
}

// Every device besides the host (OpenCL, CUDA, Vulkan: whatever this machine has) is one
// candidate with its own links to the host and a compiler run at run time.
TEST_F(QuickCalibration, EveryDeviceBesidesTheHostIsACandidate) {
  int others = 0;
  for (const Device* d : Registry::instance().devices()) {
    if (d->info().host_addressable) continue;
    ++others;
    const DeviceModel* m = find(models(), d->info().id());
    ASSERT_NE(m, nullptr) << d->info().id() << " was not calibrated";
    SCOPED_TRACE(m->name);
    expect_plausible(*m);
    EXPECT_FALSE(m->host_addressable);
    EXPECT_EQ(Registry::instance().devices()[m->id.device], d);
    for (double bytes_per_s : {m->h2d_bytes_per_s, m->d2h_bytes_per_s}) {
      EXPECT_GT(bytes_per_s, 0.1e9);
      EXPECT_LT(bytes_per_s, 1000e9);
    }
    EXPECT_GT(m->h2d_latency_s, 0);
    EXPECT_GT(m->d2h_latency_s, 0);
    EXPECT_GT(m->compile_base_s, 0);
  }
  if (others == 0) GTEST_SKIP() << "no device besides the host";
}

TEST(Calibration, RestoresTheCpuParallelThreshold) {
  const std::int64_t before = cpu::parallel_threshold();
  calibrate(Registry::instance().cpu(), true, CalibrationDepth::Quick);
  EXPECT_EQ(cpu::parallel_threshold(), before);
}

TEST(Calibration, ReportsProgressForEveryStep) {
  std::vector<std::string> steps;
  calibrate(Registry::instance().cpu(), false, CalibrationDepth::Quick,
            [&](std::string_view candidate, std::string_view step, double fraction) {
              EXPECT_EQ(candidate, "cpu:0/parallel");
              EXPECT_GE(fraction, 0);
              EXPECT_LT(fraction, 1);
              steps.emplace_back(step);
            });
  EXPECT_GE(steps.size(), 7u);
}

// ---- the profile file

MachineIdentity identity() {
  return {"Test CPU 9000", {{"cpu:0", "Test CPU 9000", "SIMD AVX3"}, {"opencl:0", "pocl", "3.1"}}};
}

DeviceModel model(const std::string& name, double launch_s) {
  DeviceModel m;
  m.name = name;
  m.launch_s = launch_s;
  m.h2d_latency_s = 2e-5;
  m.h2d_bytes_per_s = 2e10;
  m.memory_bytes_per_s = 3e10;
  m.arithmetic_per_s = 1e10;
  m.transcendental_per_s = 1e9;
  m.flops_per_s = 1e11;
  m.compile_base_s = 0.08;
  m.compile_per_op_s = 2e-3;
  m.free_memory_bytes = std::uint64_t{1} << 33;
  return m;
}

std::vector<DeviceModel> models() {
  return {model("cpu:0/inline", 1e-7), model("cpu:0/parallel", 2e-6), model("opencl:0", 4e-5)};
}

History history() {
  History h;
  for (double s : {1e-3, 1.1e-3, 0.9e-3}) h.record({0xabcdef, 3, "opencl:0"}, s);
  return h;
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(Profile, RoundTrip) {
  TempDir dir;
  const fs::path path = dir.path() / "profile.json";
  save_profile(models(), history(), path, identity());
  const std::optional<Profile> p = load_profile(path, identity());
  ASSERT_TRUE(p);
  const std::vector<DeviceModel> saved = models();
  ASSERT_EQ(p->models.size(), saved.size());
  for (std::size_t i = 0; i < saved.size(); ++i) {
    const DeviceModel& a = saved[i];
    const DeviceModel& b = p->models[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.launch_s, b.launch_s);
    EXPECT_EQ(a.h2d_bytes_per_s, b.h2d_bytes_per_s);
    EXPECT_EQ(a.memory_bytes_per_s, b.memory_bytes_per_s);
    EXPECT_EQ(a.transcendental_per_s, b.transcendental_per_s);
    EXPECT_EQ(a.compile_per_op_s, b.compile_per_op_s);
    EXPECT_EQ(a.free_memory_bytes, b.free_memory_bytes);
  }
  EXPECT_EQ(p->history.estimate({0xabcdef, 3, "opencl:0"}),
            history().estimate({0xabcdef, 3, "opencl:0"}));
}

TEST(Profile, HostAddressableTransfersSurviveTheRoundTrip) {
  TempDir dir;
  DeviceModel cpu = model("cpu:0/inline", 1e-7);
  cpu.host_addressable = true;
  cpu.h2d_bytes_per_s = cpu.d2h_bytes_per_s = std::numeric_limits<double>::max();
  save_profile({cpu}, History{}, dir.path() / "p.json", identity());
  const auto p = load_profile(dir.path() / "p.json", identity());
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->models[0].host_addressable);
  EXPECT_EQ(p->models[0].h2d_bytes_per_s, std::numeric_limits<double>::max());
}

TEST(Profile, MissingFileIsSilent) {
  TempDir dir;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(load_profile(dir.path() / "none.json", identity()));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// Each bad file is ignored with exactly one warning line, and never throws.
void expect_rejected(const std::string& text, const std::string& reason_part) {
  SCOPED_TRACE(reason_part);
  TempDir dir;
  const fs::path path = dir.path() / "profile.json";
  write(path, text);
  testing::internal::CaptureStderr();
  std::optional<Profile> p;
  EXPECT_NO_THROW(p = load_profile(path, identity()));
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(p);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find(reason_part), std::string::npos) << err;
}

std::string valid_text() {
  TempDir dir;
  save_profile(models(), history(), dir.path() / "p.json", identity());
  return read(dir.path() / "p.json");
}

TEST(Profile, CorruptOrForeignFilesAreIgnoredWithOneWarning) {
  const std::string good = valid_text();
  expect_rejected(
      "\x7f"
      "ELF garbage \x01\x02",
      "unreadable");
  expect_rejected(good.substr(0, good.size() / 2), "unreadable");
  expect_rejected("", "unreadable");
  expect_rejected("[1, 2, 3]", "unreadable");

  nlohmann::json j = nlohmann::json::parse(good);
  j["format_version"] = kProfileFormatVersion + 1;
  expect_rejected(j.dump(), "format version");
  j["format_version"] = 2.4e37;  // beyond int: compared, never converted
  expect_rejected(j.dump(), "format version");
  j["format_version"] = "1";
  expect_rejected(j.dump(), "format version");

  j = nlohmann::json::parse(good);
  j["identity"]["cpu_model"] = "Another CPU";
  expect_rejected(j.dump(), "Another CPU");

  j = nlohmann::json::parse(good);
  j["identity"]["devices"][1]["driver_version"] = "2.0";
  expect_rejected(j.dump(), "driver 2.0");

  j = nlohmann::json::parse(good);
  j["models"][0]["memory_bytes_per_s"] = -5;
  expect_rejected(j.dump(), "memory_bytes_per_s");

  j = nlohmann::json::parse(good);
  j["models"][0].erase("launch_s");
  expect_rejected(j.dump(), "unreadable");

  j = nlohmann::json::parse(good);
  j["history"] = "not a history";
  expect_rejected(j.dump(), "unreadable");

  j = nlohmann::json::parse(good);
  for (auto& m : j["models"]) m["name"] = "vulkan:" + m["name"].get<std::string>();
  expect_rejected(j.dump(), "no model of a device present here");
}

TEST(Profile, DropsModelsOfVanishedDevicesWithOneWarning) {
  TempDir dir;
  const fs::path path = dir.path() / "profile.json";
  save_profile(models(), history(), path, identity());
  MachineIdentity now = identity();
  now.devices.pop_back();  // opencl:0 is gone
  testing::internal::CaptureStderr();
  const auto p = load_profile(path, now);
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(p);
  ASSERT_EQ(p->models.size(), 2u);
  EXPECT_EQ(p->models[1].name, "cpu:0/parallel");
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("opencl:0"), std::string::npos) << err;
}

TEST(Profile, AtomicWriteLeavesNoTempFiles) {
  TempDir dir;
  const fs::path path = dir.path() / "profile.json";
  for (int i = 0; i < 3; ++i) save_profile(models(), history(), path, identity());
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir.path()))
    if (e.path().filename() != "profile.json.lock") files.push_back(e.path().filename());
  EXPECT_EQ(files, std::vector<fs::path>{"profile.json"});
}

TEST(Profile, UnwritablePlaceThrowsAndLeavesNothing) {
  TempDir dir;
  write(dir.path() / "file", "a file, not a directory");
  EXPECT_THROW(save_profile(models(), history(), dir.path() / "file" / "profile.json", identity()),
               Error);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir.path())) files.push_back(e.path().filename());
  EXPECT_EQ(files, std::vector<fs::path>{"file"});
}

TEST(Profile, HonoursSwitchyardProfile) {
  TempDir dir;
  const fs::path path = dir.path() / "mine.json";
  ScopedEnv env("SWITCHYARD_PROFILE", path.c_str());
  EXPECT_EQ(profile_path(), path);
  save_profile(models(), history());
  EXPECT_TRUE(fs::exists(path));
  EXPECT_TRUE(load_profile());
}

TEST(Profile, DefaultsToTheCacheDirectory) {
  TempDir dir;
  ScopedEnv profile("SWITCHYARD_PROFILE", nullptr);
  ScopedEnv cache("SWITCHYARD_CACHE_DIR", dir.path().c_str());
  EXPECT_EQ(profile_path(), dir.path() / "profile.json");
}

TEST(Profile, LoadOrCalibrateCalibratesOnceThenLoads) {
  TempDir dir;
  ScopedEnv env("SWITCHYARD_PROFILE", (dir.path() / "profile.json").c_str());
  int steps = 0;
  const Profile first = load_or_calibrate(
      CalibrationDepth::Quick, [&](std::string_view, std::string_view, double) { ++steps; });
  EXPECT_GT(steps, 0);
  EXPECT_EQ(scheduler_models(first).size(), first.models.size());
  EXPECT_TRUE(fs::exists(dir.path() / "profile.json"));

  steps = 0;
  const Profile second = load_or_calibrate(
      CalibrationDepth::Quick, [&](std::string_view, std::string_view, double) { ++steps; });
  EXPECT_EQ(steps, 0);
  ASSERT_EQ(second.models.size(), first.models.size());
  for (std::size_t i = 0; i < first.models.size(); ++i) {
    EXPECT_EQ(second.models[i].name, first.models[i].name);
    EXPECT_EQ(second.models[i].launch_s, first.models[i].launch_s);
    EXPECT_EQ(second.models[i].id, first.models[i].id);
  }
}

}  // namespace
}  // namespace switchyard::scheduler

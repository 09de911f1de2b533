// The switchyard program as a user runs it: `info` shows every setting with each bad one marked
// (and exits 1) instead of stopping at the first, and bad input to `explain` is a typed error
// with exit status 2, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "switchyard/runtime.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

testing::ChildResult run_cli(const std::vector<std::string>& arguments,
                             const std::map<std::string, std::string>& env = {}) {
  const testing_support::TempDir dir;
  std::vector<std::string> command = {SWITCHYARD_CLI};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return testing::Child(command, env, dir.path() / "switchyard").wait();
}

// A ratio as the demo's table prints it: "1.07x".
std::string fmt_ratio(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", ratio);
  return text;
}

TEST(Info, MarksEveryBadSettingAndStillShowsTheMachine) {
  const std::map<std::string, std::string> bad = {
      {"SWITCHYARD_BACKEND", "tpu"},      {"SWITCHYARD_LOG", "loud"},
      {"SWITCHYARD_MEMORY_RESERVE", "2"}, {"SWITCHYARD_FAULT", "opencl:explode"},
      {"SWITCHYARD_FALLBACK", "maybe"},   {"SWITCHYARD_SIMD", "avx512"},
      {"SWITCHYARD_EXPLORE", "always"}};
  const auto r = run_cli({"info", "--json"}, bad);
  EXPECT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["host"]["cpu_model"].get<std::string>().empty());
  EXPECT_TRUE(j["detection_error"].is_string()) << "SWITCHYARD_BACKEND=tpu cannot be detected";
  for (const auto& [name, setting] : j["environment"].items()) {
    SCOPED_TRACE(name);
    if (bad.count(name)) {
      ASSERT_TRUE(setting["problem"].is_string());
      const std::string problem = setting["problem"];
      EXPECT_NE(problem.find(name), std::string::npos) << problem;
      EXPECT_NE(problem.find(bad.at(name)), std::string::npos) << problem;
      EXPECT_EQ(setting["value"], bad.at(name));
    } else {
      EXPECT_TRUE(setting["problem"].is_null()) << setting["problem"];
    }
  }
  const auto text = run_cli({"info"}, bad);
  EXPECT_EQ(text.status, 1);
  for (const auto& [name, value] : bad)
    EXPECT_NE(text.out.find("INVALID: " + name), std::string::npos) << text.out;
  // A setting with a few valid values lists them.
  const std::string explore = j["environment"]["SWITCHYARD_EXPLORE"]["problem"];
  EXPECT_NE(explore.find("bounded or off"), std::string::npos) << explore;
}

TEST(Info, GoodSettingsExitZeroWithEveryBackend) {
  const auto r = run_cli({"info", "--json"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["detection_error"].is_null());
  EXPECT_EQ(j["backends"].size(), backends().size());
  for (const auto& [name, setting] : j["environment"].items())
    EXPECT_TRUE(setting["problem"].is_null()) << name << ": " << setting["problem"];
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// SWITCHYARD_SIMD=<target> runs the CPU at that target wherever the machine has it, and says so;
// a cap above the machine's best leaves its best.
TEST(Info, SimdCapRunsTheCpuAtEachTargetTheMachineHas) {
  const auto best = nlohmann::json::parse(run_cli({"info", "--json"}).out)["host"];
  const auto targets = best["simd_targets"].get<std::vector<std::string>>();
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(best["simd_target"], targets.front());
  EXPECT_TRUE(best["simd_capped_by"].is_null());
  for (const std::string& target : targets) {
    const auto r = run_cli({"info", "--json"}, {{"SWITCHYARD_SIMD", lower(target)}});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["host"]["simd_target"], target);
    EXPECT_EQ(j["host"]["simd_capped_by"], lower(target));
    for (const auto& b : j["backends"])
      for (const auto& d : b["devices"]) {
        if (d["id"] == "cpu:0") {
          EXPECT_EQ(d["driver_version"], "SIMD " + target);
        }
      }
    const auto text = run_cli({"info"}, {{"SWITCHYARD_SIMD", lower(target)}});
    EXPECT_NE(text.out.find("SIMD target  " + target + " (capped by SWITCHYARD_SIMD="),
              std::string::npos)
        << text.out;
  }
  if (targets.front() != "AVX3") {
    const auto above = run_cli({"info", "--json"}, {{"SWITCHYARD_SIMD", "avx3"}});
    EXPECT_EQ(nlohmann::json::parse(above.out)["host"]["simd_target"], targets.front());
  }
}

TEST(Explain, DeeplyNestedExpressionIsAParseErrorNotACrash) {
  const std::string nested = std::string(20'000, '(') + "a" + std::string(20'000, ')');
  const auto r = run_cli({"explain", "--op", nested, "--n", "10"});
  EXPECT_EQ(r.status, 2) << r.err.substr(0, 500);
  EXPECT_NE(r.err.find("nest"), std::string::npos) << r.err.substr(0, 500);
}

TEST(Explain, NamesOtherThanAToZAreAParseErrorSayingWhichExist) {
  const auto r = run_cli({"explain", "--op", "sum(a * rate)", "--n", "10"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("unknown variable 'rate'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("named a to z"), std::string::npos) << r.err;
}

TEST(Demo, OneWorkloadAtOneSizeOnEveryDeviceAndAutoInTheTableAndTheJson) {
  const testing_support::TempDir dir;
  const std::string json = (dir.path() / "demo.json").string();
  const auto r =
      run_cli({"demo", "--workload", "query", "--n", "1000", "--json", json, "--explain"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  std::vector<std::string> ids;
  for (const DeviceInfo& d : devices()) ids.push_back(d.id());
  EXPECT_EQ(j["devices"].get<std::vector<std::string>>(), ids);
  ASSERT_EQ(j["rows"].size(), 1u) << j.dump(2);
  const auto& row = j["rows"][0];
  EXPECT_EQ(row["workload"], "query");
  EXPECT_EQ(row["n"], 1000);
  for (const std::string& id : ids) {
    ASSERT_TRUE(row["devices"][id]["seconds"].is_number()) << id << ": " << row.dump(2);
    EXPECT_GT(row["devices"][id]["seconds"].get<double>(), 0);
  }
  EXPECT_GT(row["auto"]["seconds"].get<double>(), 0);
  // Auto's time over the fastest device's, as the row's own times give it.
  double best_s = std::numeric_limits<double>::infinity();
  for (const std::string& id : ids)
    best_s = std::min(best_s, row["devices"][id]["seconds"].get<double>());
  EXPECT_DOUBLE_EQ(row["auto"]["over_best_pinned"].get<double>(),
                   row["auto"]["seconds"].get<double>() / best_s);
  EXPECT_NE(r.out.find(fmt_ratio(row["auto"]["over_best_pinned"].get<double>())), std::string::npos)
      << r.out;
  // What exploring cost: a part of the time auto's kernels ran.
  const auto& exploring = j["exploring"];
  EXPECT_GE(exploring["seconds"].get<double>(), 0) << exploring;
  EXPECT_LE(exploring["seconds"].get<double>(), exploring["auto_work_s"].get<double>());
  EXPECT_GT(exploring["auto_work_s"].get<double>(), 0);
  EXPECT_NE(r.out.find("ran on a device placed there to measure it"), std::string::npos) << r.out;
  // ... and what those runs took over the best known device's expected time: a part of theirs.
  EXPECT_GE(exploring["over_best_s"].get<double>(), 0) << exploring;
  EXPECT_LE(exploring["over_best_s"].get<double>(), exploring["seconds"].get<double>());
  EXPECT_NE(r.out.find("over the best known device's expected time"), std::string::npos) << r.out;
  // --explain: explain's report of auto's run follows the table exactly when auto was more
  // than 10% slower than the best device.
  const bool over = row["auto"]["over_best_pinned"].get<double>() > 1.1;
  EXPECT_EQ(r.out.find("as explain reports it") != std::string::npos, over) << r.out;
  if (over) {
    EXPECT_NE(r.out.find("chosen: "), std::string::npos) << r.out;
  }
  // auto's choice is one of the candidates: a device, or the CPU inline or parallel.
  const std::string choice = row["auto"]["choice"];
  EXPECT_TRUE(std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
    return choice.rfind(id, 0) == 0;
  })) << choice;
  EXPECT_FALSE(row["auto"]["reason"].get<std::string>().empty());
  // The table shows the same row; with no terminal, progress is plain lines on stderr.
  EXPECT_NE(r.out.find("query"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(choice + " ("), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("[" + std::to_string(ids.size() + 1) + "/" + std::to_string(ids.size() + 1) +
                       "] query n=1000 on auto: "),
            std::string::npos)
      << r.err;
}

// With fallback off, work the host cannot do fails where it runs, the making of the inputs
// included: those cells say "failed" and why, the rest of the table still runs and prints, and
// the exit status is 1 since auto did not run everything.
TEST(Demo, FailedWorkWithFallbackOffMarksItsCellsAndTheTableStillPrints) {
  const std::map<std::string, std::string> env = {{"SWITCHYARD_FAULT", "cpu:oom"},
                                                  {"SWITCHYARD_FALLBACK", "off"}};
  std::vector<std::string> ids;
  for (const DeviceInfo& d : devices()) ids.push_back(d.id());
  for (const std::string workload : {"mlp", "field"}) {
    SCOPED_TRACE(workload);
    const testing_support::TempDir dir;
    const std::string json = (dir.path() / "demo.json").string();
    const auto r = run_cli({"demo", "--workload", workload, "--n", "32", "--json", json}, env);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("  " + workload + " "), std::string::npos) << "no table row:\n" << r.out;
    std::ifstream in(json);
    const auto row = nlohmann::json::parse(in)["rows"].at(0);
    const auto& cpu = row["devices"]["cpu:0"];
    ASSERT_TRUE(cpu["seconds"].is_null()) << row.dump(2);
    const std::string error = cpu["error"];
    EXPECT_NE(error.find("injected"), std::string::npos) << error;
    EXPECT_NE(r.out.find(workload + " on cpu:0 failed: " + error), std::string::npos) << r.out;
    for (const std::string& id : ids) {
      const auto& cell = row["devices"][id];
      EXPECT_TRUE(cell["seconds"].is_number() || !cell["error"].get<std::string>().empty())
          << id << ": " << cell.dump();
    }
  }
}

TEST(Demo, AnUnknownWorkloadOrSizeIsAnErrorNamingWhatIsValid) {
  const auto unknown = run_cli({"demo", "--workload", "weather"});
  EXPECT_EQ(unknown.status, 2) << unknown.err;
  EXPECT_NE(unknown.err.find("no workload named 'weather'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("oscillators"), std::string::npos) << unknown.err;
  const auto negative = run_cli({"demo", "--workload", "field", "--n", "-3"});
  EXPECT_EQ(negative.status, 2) << negative.err;
  EXPECT_NE(negative.err.find("given -3"), std::string::npos) << negative.err;
}

}  // namespace
}  // namespace switchyard

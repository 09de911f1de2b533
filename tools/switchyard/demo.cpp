// `switchyard demo`: the machine (as `switchyard info` shows it), then every workload of apps/ at
// a small and a large size on every device and on auto, in one table: each device's time, auto's
// time, the device auto chose and explain's reason for it. A progress bar (plain lines when not
// on a terminal) shows where it is; the same data goes to a JSON file. Work that fails, even the
// making of a workload's inputs (with fallback off), fails its cells only: each shows "failed"
// and, below the table, why; the rest of the table runs. The exit status is 0 while any device
// works and auto ran everything, 1 otherwise (after the whole table), 2 for bad arguments.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.hpp"
#include "demo_workloads.hpp"
#include "progress.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One cell of the table: a median time, or the error that stopped the work there.
struct Cell {
  std::optional<double> seconds;
  std::string error;
};

// The first line of an error, short enough for a table cell.
std::string first_line(const Error& e) {
  std::string line(e.what());
  return line.substr(0, line.find('\n'));
}

// The median of up to `runs` timed runs after one untimed warm-up (which compiles what the work
// needs there); stops early once `budget_s` is spent, so a slow device costs a bounded time.
Cell time_work(const std::function<void()>& work, int runs, double budget_s) {
  try {
    const auto start = Clock::now();
    work();
    std::vector<double> times;
    while (static_cast<int>(times.size()) < runs &&
           (times.empty() || seconds_since(start) < budget_s)) {
      const auto t0 = Clock::now();
      work();
      times.push_back(seconds_since(t0));
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    return {times[times.size() / 2], ""};
  } catch (const Error& e) {
    return {std::nullopt, first_line(e)};
  }
}

// Where auto ran the work (the device that ran the largest share of its time) and why.
struct AutoChoice {
  std::string device;
  double share = 0;
  std::string reason;
};

AutoChoice auto_choice(const Explanation& e) {
  std::map<std::string, double> time_on;
  const KernelReport* longest = nullptr;
  double total = 0;
  for (const KernelReport& k : e.kernels) {
    time_on[k.ran_on] += k.actual_s;
    total += k.actual_s;
    if (!longest || k.actual_s > longest->actual_s) longest = &k;
  }
  if (!longest) return {"-", 0, "no kernel ran"};
  const auto top =
      std::max_element(time_on.begin(), time_on.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  std::string reason = longest->kernel + ": " + longest->reason;
  if (longest->fallbacks)
    reason +=
        fmt::format(" (ran after {} fallback(s) from {})", longest->fallbacks, longest->chosen);
  return {top->first, total > 0 ? top->second / total : 1, reason};
}

std::string duration(double s) {
  if (s < 1e-3) return fmt::format("{:.1f} us", s * 1e6);
  if (s < 1) return fmt::format("{:.2f} ms", s * 1e3);
  return fmt::format("{:.2f} s", s);
}

std::string cell_text(const Cell& c) {
  return c.seconds ? duration(*c.seconds) : "failed";
}

struct Row {
  std::string workload, what;
  std::int64_t n = 0;
  std::vector<Cell> devices;  // one per device id, in order
  Cell automatic;
  AutoChoice choice;
  std::string report;  // explain's, of auto's run
  // Over every run on auto (warm-up and explain's included): the work's time, the time of the
  // runs placed on a device to measure it, and what those took over the best known device's
  // expected time (what exploring cost).
  double auto_work_s = 0, explored_s = 0, explored_over_best_s = 0;

  // Auto's time over the fastest pinned device's: what choosing automatically cost (or saved).
  std::optional<double> regret() const {
    std::optional<double> best;
    for (const Cell& c : devices)
      if (c.seconds && (!best || *c.seconds < *best)) best = c.seconds;
    if (!best || !automatic.seconds || !(*best > 0)) return std::nullopt;
    return *automatic.seconds / *best;
  }
};

nlohmann::json cell_json(const Cell& c) {
  return c.seconds ? nlohmann::json{{"seconds", *c.seconds}}
                   : nlohmann::json{{"seconds", nullptr}, {"error", c.error}};
}

nlohmann::json rows_json(const std::vector<std::string>& ids, const std::vector<Row>& rows,
                         double total_s) {
  nlohmann::json j = {{"devices", ids}, {"seconds", total_s}, {"rows", nlohmann::json::array()}};
  for (const Row& r : rows) {
    nlohmann::json row = {{"workload", r.workload}, {"n", r.n}, {"what", r.what}};
    for (std::size_t i = 0; i < ids.size(); ++i) row["devices"][ids[i]] = cell_json(r.devices[i]);
    row["auto"] = cell_json(r.automatic);
    row["auto"]["choice"] = r.choice.device;
    row["auto"]["share"] = r.choice.share;
    row["auto"]["reason"] = r.choice.reason;
    const std::optional<double> regret = r.regret();
    row["auto"]["over_best_pinned"] = regret ? nlohmann::json(*regret) : nlohmann::json(nullptr);
    row["auto"]["work_s"] = r.auto_work_s;
    row["auto"]["explored_s"] = r.explored_s;
    row["auto"]["explored_over_best_s"] = r.explored_over_best_s;
    j["rows"].push_back(row);
  }
  return j;
}

void print_table(const std::vector<std::string>& ids, const std::vector<Row>& rows) {
  std::string header = fmt::format("  {:<12} {:>9}", "workload", "n");
  for (const auto& id : ids) header += fmt::format(" {:>11}", id);
  fmt::print("\n{} {:>11} {:>6}  {}\n", header, "auto", "/best", "auto's choice: explain's reason");
  for (const Row& r : rows) {
    std::string line = fmt::format("  {:<12} {:>9}", r.workload, r.n);
    for (const Cell& c : r.devices) line += fmt::format(" {:>11}", cell_text(c));
    const std::optional<double> regret = r.regret();
    line += fmt::format(" {:>11} {:>6}  ", cell_text(r.automatic),
                        regret ? fmt::format("{:.2f}x", *regret) : "-");
    line += r.automatic.seconds ? fmt::format("{} ({:.0f}% of its time): {}", r.choice.device,
                                              r.choice.share * 100, r.choice.reason)
                                : "failed: " + r.automatic.error;
    fmt::print("{}\n", line);
  }
  fmt::print("\n  What each size runs:\n");
  for (const Row& r : rows) fmt::print("    {:<12} n = {:<9} {}\n", r.workload, r.n, r.what);
  for (const Row& r : rows)
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (!r.devices[i].seconds)
        fmt::print("  {} on {} failed: {}\n", r.workload, ids[i], r.devices[i].error);
}

// Times one workload at size n on every device and on auto. When its inputs cannot be made,
// every cell of the row fails with that error.
Row run_row(const DemoWorkload& w, std::int64_t n, const std::vector<std::string>& ids, int runs,
            double budget_s, Progress& progress) {
  Row row{w.name, w.describe(n), n, {}, {}, {}, {}};
  std::function<void()> work;
  Cell unprepared;
  try {
    work = w.prepare(n);
  } catch (const Error& e) {
    unprepared = {std::nullopt, "making its inputs: " + first_line(e)};
  }
  const auto measure = [&](std::string_view where, const std::function<Cell()>& run) {
    progress.step(fmt::format("{} n={} on {}", w.name, n, where));
    const Cell cell = work ? run() : unprepared;
    progress.finished(cell.seconds ? duration(*cell.seconds) : "failed: " + cell.error);
    return cell;
  };
  for (const std::string& id : ids)
    row.devices.push_back(measure(id, [&] {
      const DeviceScope scope(id);
      return time_work(work, runs, budget_s);
    }));
  reset_metrics();
  row.automatic = measure("auto", [&] {
    Cell cell = time_work(work, runs, budget_s);
    if (cell.seconds) {
      try {
        const Explanation explained = switchyard::explain(work);
        row.choice = auto_choice(explained);
        row.report = explained.to_string();
      } catch (const Error& e) {
        cell = {std::nullopt, first_line(e)};
      }
    }
    return cell;
  });
  const MetricsTotals totals = metrics().totals;
  row.auto_work_s = totals.total_s;
  row.explored_s = totals.explored_s;
  row.explored_over_best_s = totals.explored_over_best_s;
  return row;
}

}  // namespace

int demo(const DemoOptions& options) {
  const auto start = Clock::now();
  std::vector<DemoWorkload> chosen;
  for (DemoWorkload& w : demo_workloads())
    if (options.workload.empty() || w.name == options.workload) chosen.push_back(std::move(w));
  if (chosen.empty()) {
    std::string known;
    for (const DemoWorkload& w : demo_workloads()) known += (known.empty() ? "" : ", ") + w.name;
    throw ValueError("demo --workload: no workload named '" + options.workload +
                     "'; expected one of " + known);
  }
  if (options.n && *options.n <= 0)
    throw ValueError("demo --n: expected a positive size, given " + std::to_string(*options.n));
  info(false);

  std::vector<std::string> ids;
  for (const DeviceInfo& d : devices()) ids.push_back(d.id());
  const int runs = options.quick ? 1 : 5;
  const double budget_s = options.quick ? 0 : 1.5;

  std::vector<std::pair<const DemoWorkload*, std::int64_t>> jobs;
  for (const DemoWorkload& w : chosen) {
    if (options.n)
      jobs.emplace_back(&w, *options.n);
    else if (options.quick)
      jobs.emplace_back(&w, w.small);
    else
      for (const std::int64_t n : {w.small, w.large}) jobs.emplace_back(&w, n);
  }
  Progress progress(static_cast<int>(jobs.size() * (ids.size() + 1)));
  std::vector<Row> rows;
  for (const auto& [w, n] : jobs) rows.push_back(run_row(*w, n, ids, runs, budget_s, progress));

  print_table(ids, rows);
  if (options.explain)
    for (const Row& r : rows)
      if (r.regret() && *r.regret() > 1.1)
        fmt::print("\n  auto on {} n={} ({:.2f}x the best device), as explain reports it:\n{}",
                   r.workload, r.n, *r.regret(), r.report);
  const double total_s = seconds_since(start);
  double auto_work_s = 0, explored_s = 0, over_best_s = 0;
  for (const Row& r : rows)
    auto_work_s += r.auto_work_s, explored_s += r.explored_s, over_best_s += r.explored_over_best_s;
  const auto share = [&](double s) { return auto_work_s > 0 ? s / auto_work_s : 0; };
  nlohmann::json json = rows_json(ids, rows, total_s);
  json["exploring"] = {{"seconds", explored_s},
                       {"over_best_s", over_best_s},
                       {"auto_work_s", auto_work_s},
                       {"share", share(explored_s)},
                       {"cost_share", share(over_best_s)}};
  std::ofstream(options.json_path) << json.dump(2) << '\n';
  fmt::print(
      "\n  Times are medians of up to {} runs after a warm-up (which compiles), each run\n"
      "  end to end with its result read back; /best is auto's time over the fastest device's.\n"
      "  Exploring: {} of auto's {} of work ({:.1f}%) ran on a device placed there to measure it;\n"
      "  it cost {} ({:.1f}%) over the best known device's expected time.\n"
      "  {} written; took {}.\n",
      runs, duration(explored_s), duration(auto_work_s), 100 * share(explored_s),
      duration(over_best_s), 100 * share(over_best_s), options.json_path, duration(total_s));

  const bool any_device_works = std::any_of(rows.begin(), rows.end(), [](const Row& r) {
    return std::any_of(r.devices.begin(), r.devices.end(),
                       [](const Cell& c) { return c.seconds.has_value(); });
  });
  const bool auto_ran_everything = std::all_of(
      rows.begin(), rows.end(), [](const Row& r) { return r.automatic.seconds.has_value(); });
  return any_device_works && auto_ran_everything ? 0 : 1;
}

}  // namespace switchyard::cli

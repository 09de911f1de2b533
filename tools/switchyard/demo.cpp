// `switchyard demo`: the machine (as `switchyard info` shows it), one computation on every usable
// device with its result and time, and then the scheduler at work: for a few kernels at a small
// and a large size, every candidate's measured time beside auto's choice and its reason. A device
// that fails shows its error in the tables while auto's work falls back; the exit status is 0
// while any device still works.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

#include "commands.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::cli {
namespace {

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Median of `runs` timed runs after one untimed warm-up (which compiles what it needs).
double median_seconds(const std::function<void()>& work, int runs = 7) {
  work();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) times.push_back(seconds_of(work));
  std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
  return times[runs / 2];
}

// The first line of an error, short enough for a table cell.
std::string failure(const Error& e, std::size_t width) {
  std::string line(e.what());
  line = line.substr(0, line.find('\n'));
  if (line.size() > width) line = line.substr(0, width - 3) + "...";
  return line;
}

std::string duration(double s) {
  return s < 1e-3 ? fmt::format("{:.1f} us", s * 1e6) : fmt::format("{:.2f} ms", s * 1e3);
}

// Every candidate the scheduler weighs: devices, and the CPU both inline and parallel.
std::vector<std::string> candidates() {
  std::vector<std::string> names;
  for (const DeviceInfo& d : devices()) {
    if (d.kind == DeviceKind::CPU && d.backend == "cpu") {
      names.push_back(d.id() + "/inline");
      names.push_back(d.id() + "/parallel");
    } else {
      names.push_back(d.id());
    }
  }
  return names;
}

// Runs one computation on every device; returns how many succeeded.
int every_device() {
  constexpr std::int64_t n = 1'000'000;
  const Array a = Array::uniform({n}, 1), b = Array::uniform({n}, 2), c = Array::uniform({n}, 3);
  fmt::print("\nsum(a*b + sin(c)) over {} float32 elements, inputs on the host\n", n);
  fmt::print("  {:<10} {:>16} {:>12} {:>12}\n", "device", "result", "first run", "median");
  int working = 0;
  for (const DeviceInfo& d : devices()) {
    DeviceScope scope(d.id());
    try {
      double result = 0;
      const double first = seconds_of([&] { result = sum(a * b + sin(c)).item<double>(); });
      const double median = median_seconds([&] { sum(a * b + sin(c)).item<double>(); }, 5);
      fmt::print("  {:<10} {:>16.6f} {:>12} {:>12}\n", d.id(), result, duration(first),
                 duration(median));
      ++working;
    } catch (const Error& e) {
      fmt::print("  {:<10} failed: {}\n", d.id(), failure(e, 100));
    }
  }
  fmt::print("  (the first run includes compiling the kernels for that device)\n");
  return working;
}

struct Workload {
  std::string name;
  std::function<void(std::int64_t n)> prepare;  // makes the inputs
  std::function<void()> run;                    // one kernel, result read on the host
};

// Returns whether auto ran every workload (falling back where a device failed).
bool scheduler_table() {
  Array a, b, m, x;
  const std::vector<Workload> workloads = {
      {"a + b", [&](std::int64_t n) { a = Array::uniform({n}, 1), b = Array::uniform({n}, 2); },
       [&] { (a + b).to_vector<float>(); }},
      {"sin(a)", [&](std::int64_t n) { a = Array::uniform({n}, 1); },
       [&] { sin(a).to_vector<float>(); }},
      {"sum(a)", [&](std::int64_t n) { a = Array::uniform({n}, 1); },
       [&] { sum(a).item<double>(); }},
      {"matmul(M, x)",
       [&](std::int64_t n) {
         const auto side = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
         m = Array::uniform({side, side}, 1), x = Array::uniform({side}, 2);
       },
       [&] { matmul(m, x).to_vector<float>(); }},
  };
  const auto names = candidates();
  fmt::print(
      "\nThe scheduler: each kernel's measured median on every candidate, and auto's choice\n");
  std::string header = fmt::format("  {:<14} {:>9}", "kernel", "elements");
  for (const auto& c : names) header += fmt::format(" {:>15}", c);
  fmt::print("{} {:>11}  {}\n", header, "auto", "auto's choice and reason");
  bool auto_ran_everything = true;
  for (const auto& w : workloads) {
    for (const std::int64_t n : {1'000, 4'000'000}) {
      w.prepare(n);
      std::string row = fmt::format("  {:<14} {:>9}", w.name, n);
      for (const auto& c : names) {
        DeviceScope scope(c);
        try {
          row += fmt::format(" {:>15}", duration(median_seconds(w.run)));
        } catch (const Error&) {
          row += fmt::format(" {:>15}", "failed");
        }
      }
      try {
        const double auto_s = median_seconds(w.run);
        const Explanation e = switchyard::explain(w.run);
        const KernelReport& k = e.kernels.front();
        const std::string fell_back =
            k.fallbacks ? fmt::format(" (after {} fallback(s) from {})", k.fallbacks, k.chosen)
                        : "";
        fmt::print("{} {:>11}  {}{}: {}\n", row, duration(auto_s), k.ran_on, fell_back, k.reason);
      } catch (const Error& e) {
        fmt::print("{} {:>11}  {}\n", row, "failed", failure(e, 100));
        auto_ran_everything = false;
      }
    }
  }
  fmt::print(
      "  (times include reading the result back to the host; `switchyard explain` shows the\n"
      "   predicted breakdown behind each choice)\n");
  return auto_ran_everything;
}

}  // namespace

int demo() {
  info(false);
  const int working = every_device();
  const bool auto_ran_everything = scheduler_table();
  return working > 0 && auto_ran_everything ? 0 : 1;
}

}  // namespace switchyard::cli

// `switchyard calibrate`: measures every candidate's device model, shows the table and saves
// the profile that the scheduler loads at start-up.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "backends/registry.hpp"
#include "commands.hpp"
#include "switchyard/calibration.hpp"

namespace switchyard::cli {
namespace {

int candidate_count() {
  int n = 0;
  for (const Device* d : Registry::instance().devices()) n += d->info().backend == "cpu" ? 2 : 1;
  return n;
}

// One stderr line redrawn with \r: the bar covers all candidates, the text names the step.
class ProgressBar {
 public:
  explicit ProgressBar(int candidates) : candidates_(candidates) {}

  void update(std::string_view candidate, std::string_view step, double fraction) {
    if (candidate != current_) {
      if (!current_.empty()) ++done_;
      current_ = candidate;
    }
    constexpr int kWidth = 30;
    const double overall = (done_ + fraction) / candidates_;
    const int filled = static_cast<int>(overall * kWidth);
    const std::string text =
        fmt::format("\r[{}{}] {:3.0f}%  {} {}", std::string(filled, '#'),
                    std::string(kWidth - filled, '.'), overall * 100, candidate, step);
    // Pads over the remains of a longer previous line.
    std::fprintf(stderr, "%-70s", text.c_str());
    std::fflush(stderr);
  }
  void finish() { std::fprintf(stderr, "\r%-70s\r", ""); }

 private:
  int candidates_;
  int done_ = 0;
  std::string current_;
};

std::string transfer(double latency_s, double bytes_per_s, bool host_addressable) {
  if (host_addressable) return "in place";
  return fmt::format("{:.0f} µs, {:.1f} GB/s", latency_s * 1e6, bytes_per_s / 1e9);
}

void print_table(const std::vector<CandidateModel>& models) {
  fmt::print("  {:<16} {:>9} {:>19} {:>19} {:>8} {:>8} {:>8} {:>8} {:>18} {:>8}\n", "candidate",
             "launch", "host->device", "device->host", "memory", "arith", "transc", "gemm",
             "compile", "free");
  fmt::print("  {:<16} {:>9} {:>19} {:>19} {:>8} {:>8} {:>8} {:>8} {:>18} {:>8}\n", "", "µs",
             "latency, rate", "latency, rate", "GB/s", "Gop/s", "Gop/s", "GFLOP/s", "ms + ms/op",
             "GiB");
  for (const CandidateModel& m : models)
    fmt::print(
        "  {:<16} {:>9.2f} {:>19} {:>19} {:>8.1f} {:>8.2f} {:>8.3f} {:>8.1f} {:>18} {:>8.1f}\n",
        m.name, m.launch_s * 1e6, transfer(m.h2d_latency_s, m.h2d_bytes_per_s, m.host_addressable),
        transfer(m.d2h_latency_s, m.d2h_bytes_per_s, m.host_addressable),
        m.memory_bytes_per_s / 1e9, m.arithmetic_per_s / 1e9, m.transcendental_per_s / 1e9,
        m.flops_per_s / 1e9,
        fmt::format("{:.1f} + {:.3f}", m.compile_base_s * 1e3, m.compile_per_op_s * 1e3),
        double(m.free_memory_bytes) / (1 << 30));
}

}  // namespace

int calibrate(bool quick) {
  ProgressBar bar(candidate_count());
  const Calibration result = switchyard::calibrate(
      quick, [&](std::string_view c, std::string_view s, double f) { bar.update(c, s, f); });
  bar.finish();
  fmt::print("Calibration ({}) of {} candidates\n", quick ? "quick" : "full",
             result.candidates.size());
  print_table(result.candidates);
  if (!result.profile_path.empty())
    fmt::print("\nSaved {} ({:.2f} s)\n", result.profile_path, result.seconds);
  return result.candidates.empty() ? 1 : 0;
}

}  // namespace switchyard::cli

// Break-even search: the size nearest to a workload's at which the scheduler's choice changes,
// for explain's advice ("below N elements this runs on the CPU").
#include <cmath>

#include "scheduler/scheduler.hpp"

namespace switchyard::scheduler {
namespace {

constexpr double kMaxFactor = 1e4;   // searched each way from the workload's size
constexpr double kPrecision = 1.05;  // bisection stops when the bracket is this narrow

}  // namespace

std::optional<std::int64_t> Scheduler::break_even(const Workload& w,
                                                  const std::vector<bool>& compiled) const {
  if (w.elements < 1) return std::nullopt;
  // The best candidate, not the one a decision explores: exploring is not where work belongs.
  const auto best = [&](const Workload& at) {
    return decide(at, compiled).ranking.front().candidate;
  };
  const int base = best(w);
  const auto flips = [&](double factor) { return best(scaled(w, factor)) != base; };
  // Geometric bisection between a factor that keeps the choice and one that changes it; the
  // answer is the changed side, within kPrecision of the boundary.
  const auto bisect = [&](double same, double changed) {
    while (std::max(same, changed) / std::min(same, changed) > kPrecision) {
      const double mid = std::sqrt(same * changed);
      (flips(mid) ? changed : same) = mid;
    }
    return std::llround(static_cast<double>(w.elements) * changed);
  };
  double same_up = 1, same_down = 1;
  for (double factor = 2;; factor = std::min(2 * factor, kMaxFactor)) {
    if (flips(factor)) return bisect(same_up, factor);
    same_up = factor;
    const double down = 1 / factor;
    if (static_cast<double>(w.elements) * down >= 1) {
      if (flips(down)) return bisect(same_down, down);
      same_down = down;
    }
    if (factor == kMaxFactor) return std::nullopt;
  }
}

}  // namespace switchyard::scheduler

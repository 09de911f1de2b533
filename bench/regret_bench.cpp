// Regret of the scheduler: over a sweep of workloads × sizes × where the
// inputs live, the time of `auto` (no device scope) beside every fixed candidate (a DeviceScope
// per candidate). Prints one row per case (medians, auto's choice, auto / best fixed), then the
// summary the target is judged by: the share of cases where auto is within 10% of the best fixed
// candidate, the worst ratio, and the total time across the sweep of auto and of each fixed one.
//
// Method, the same for every candidate and for auto:
//  - One untimed warm-up run first, so kernel compiles are excluded for all. Every run, forced
//    or not, also teaches the scheduler's history (the executor records pinned runs too), so
//    auto decides with measurements of every candidate, as it would in a long-running program.
//  - --fresh times auto first, alone (its warm-up, then its rounds), before any fixed candidate
//    has run the case: what a program that never pins anything gets, exploration included. Run
//    it with an empty SWITCHYARD_CACHE_DIR for a fresh cache (no saved history either).
//  - Then rounds that run each candidate once in turn (interleaved, so load on this shared
//    machine hits all alike; the order is shuffled each round, since a run right after an
//    OpenCL one pays ~0.5 us more while PoCL's threads wind down) until the case's time budget is
//    spent: at least 5 rounds, more for small sizes. Each time is the median over the rounds.
//  - A timed run is the operation itself plus switchyard::synchronize() (so asynchronous work is
//    counted); reading the result back to the host is not timed.
//  - Residency is restored before every run, untimed: host-resident inputs are valid on the host
//    only, device-resident inputs only on that device (made there by x + 0 under its scope).
//    Otherwise a run on another device would leave a copy behind and change the next run's case.
//
// Usage: regret_bench [--only add|chain10|sum|gemv|gemm] [--max-size N] [--budget-s S] [--fresh]
//                     [--verbose]
// --verbose prints auto's explain report (every candidate's prediction) for cases over 1.10x.
// "auto ran on" is what explain reports for one more, untimed auto run after the timed ones.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ir/kernel_ir.hpp"
#include "runtime/executor.hpp"
#include "switchyard/switchyard.hpp"

namespace sy = switchyard;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string only;
  double max_size = 1e8;
  double budget_s = 0.4;  // per case, every candidate together
  bool fresh = false;
  bool verbose = false;
};

struct Workload {
  std::string name;
  double max_size;  // elements of the largest input; larger sizes are skipped
  // Host inputs for `size` elements (the matrix's, for gemm and gemv).
  std::function<std::vector<sy::Array>(double size)> make;
  std::function<sy::Array(const std::vector<sy::Array>&)> op;
  std::function<std::string(double size)> shape;
};

std::int64_t side(double matrix_elements) {
  return std::max<std::int64_t>(1, std::llround(std::sqrt(matrix_elements)));
}

// Ten operations, four of them transcendental, over two inputs: fused into one kernel.
sy::Array chain(const sy::Array& x, const sy::Array& y) {
  return (sy::tanh(sy::cos(sy::exp(sy::sin(x * y) + x) - y) * x) + y) * x;
}

std::vector<Workload> workloads() {
  auto vector_of = [](int count) {
    return [count](double size) {
      std::vector<sy::Array> v;
      for (int i = 0; i < count; ++i)
        v.push_back(sy::Array::uniform({static_cast<std::int64_t>(size)}, i + 1));
      return v;
    };
  };
  auto elements = [](double size) { return std::to_string(static_cast<std::int64_t>(size)); };
  return {
      {"add", 1e8, vector_of(2), [](const auto& in) { return in[0] + in[1]; }, elements},
      {"chain10", 1e8, vector_of(2), [](const auto& in) { return chain(in[0], in[1]); }, elements},
      {"sum", 1e8, vector_of(1), [](const auto& in) { return sy::sum(in[0]); }, elements},
      {"gemv", 1e8,
       [](double size) {
         const std::int64_t m = side(size);
         return std::vector<sy::Array>{sy::Array::uniform({m, m}, 1), sy::Array::uniform({m}, 2)};
       },
       [](const auto& in) { return sy::matmul(in[0], in[1]); },
       [](double size) {
         const auto m = std::to_string(side(size));
         return m + "x" + m + "·" + m;
       }},
      {"gemm", 1e6,
       [](double size) {
         const std::int64_t n = side(size);
         return std::vector<sy::Array>{sy::Array::uniform({n, n}, 1),
                                       sy::Array::uniform({n, n}, 2)};
       },
       [](const auto& in) { return sy::matmul(in[0], in[1]); },
       [](double size) {
         const auto n = std::to_string(side(size));
         return n + "x" + n + "·" + n + "x" + n;
       }},
  };
}

// A way to run: a fixed candidate (its DeviceScope id) or auto (empty id).
struct Runner {
  std::string id;
  std::string label() const { return id.empty() ? "auto" : id; }
};

// The inputs of one case, kept valid only where the case says (`home`: a device id, or "host").
class Inputs {
 public:
  Inputs(std::vector<sy::Array> host, std::string home, std::string host_scope)
      : home_(std::move(home)), host_scope_(std::move(host_scope)) {
    for (auto& a : host) arrays_.push_back(home_ == "host" ? a : moved_home(a));
  }
  // Restores residency where a run left copies elsewhere; untimed.
  const std::vector<sy::Array>& restored() {
    for (auto& a : arrays_)
      if (a.locations() != std::vector<std::string>{home_}) a = moved_home(a);
    sy::synchronize();
    return arrays_;
  }

 private:
  // A new buffer whose only valid copy is on home_: x + 0 computed there, now (left pending, it
  // would be computed inside the next timed run, fused into it or not depending on the runner).
  sy::Array moved_home(const sy::Array& a) const {
    sy::DeviceScope scope(home_ == "host" ? host_scope_ : home_);
    sy::Array moved = a + 0;
    sy::eval(moved);
    return moved;
  }
  std::string home_, host_scope_;
  std::vector<sy::Array> arrays_;
};

// Medians of fewer runs swing with one stray spike on a loaded machine.
constexpr int kMinRounds = 5;

double time_once(const Workload& w, const Runner& r, Inputs& inputs) {
  const auto& in = inputs.restored();
  std::optional<sy::DeviceScope> scope;
  if (!r.id.empty()) scope.emplace(r.id);
  const auto start = Clock::now();
  const sy::Array out = w.op(in);
  sy::eval(out);
  sy::synchronize();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

std::string format_s(double s) {
  char text[32];
  if (s < 1e-3)
    std::snprintf(text, sizeof text, "%.1f us", s * 1e6);
  else if (s < 1)
    std::snprintf(text, sizeof text, "%.2f ms", s * 1e3);
  else
    std::snprintf(text, sizeof text, "%.2f s", s);
  return text;
}

// What auto chose for this case now, as explain reports it (one more untimed run).
std::string auto_choice(const Workload& w, Inputs& inputs, bool print_report) {
  const auto& in = inputs.restored();
  const sy::Explanation e = sy::explain([&] { sy::eval(w.op(in)); });
  if (e.kernels.empty()) return "?";
  if (print_report) std::printf("%s", e.to_string().c_str());
  return e.kernels.back().ran_on;
}

// The 1-minute load average: timings on a shared machine mean little without it.
double load_average() {
  double load[1] = {0};
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

struct CaseResult {
  std::vector<double> fixed_s;  // per fixed runner
  double auto_s = 0;
};

CaseResult run_case(const Workload& w, double size, const std::string& home,
                    const std::vector<Runner>& runners, const Options& options,
                    const std::string& host_scope) {
  Inputs inputs(w.make(size), home, host_scope);
  // Each runner's times, in rounds that run `which` runners once each in a shuffled order, until
  // the budget is spent (and at least kMinRounds); after one untimed warm-up run of each.
  std::vector<std::vector<double>> times(runners.size());
  std::mt19937 shuffle(42);  // fixed seed: the same orders in every run
  const auto rounds = [&](std::vector<std::size_t> which, double budget_s) {
    for (std::size_t i : which) time_once(w, runners[i], inputs);
    const auto start = Clock::now();
    for (int round = 0;; ++round) {
      const double elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
      if (round >= kMinRounds && (elapsed_s >= budget_s || round >= 1000)) break;
      std::shuffle(which.begin(), which.end(), shuffle);
      for (std::size_t i : which) times[i].push_back(time_once(w, runners[i], inputs));
    }
  };
  std::vector<std::size_t> all(runners.size());
  std::iota(all.begin(), all.end(), 0);
  if (options.fresh) {
    const std::size_t auto_index = runners.size() - 1;
    rounds({auto_index}, options.budget_s / static_cast<double>(runners.size()));
    all.pop_back();
  }
  rounds(all, options.budget_s);
  CaseResult result;
  for (std::size_t i = 0; i + 1 < runners.size(); ++i) result.fixed_s.push_back(median(times[i]));
  result.auto_s = median(times.back());
  const double best_s = *std::min_element(result.fixed_s.begin(), result.fixed_s.end());
  const double ratio = result.auto_s / best_s;
  const std::string choice = auto_choice(w, inputs, options.verbose && ratio > 1.10);

  std::printf("%-8s %-22s %-9s", w.name.c_str(), w.shape(size).c_str(), home.c_str());
  for (std::size_t i = 0; i < result.fixed_s.size(); ++i)
    std::printf(" %15s%s", format_s(result.fixed_s[i]).c_str(),
                result.fixed_s[i] == best_s ? "*" : " ");
  std::printf(" %12s  %-15s %6.2f%s  (%zu runs)\n", format_s(result.auto_s).c_str(), choice.c_str(),
              ratio, ratio > 1.10 ? " MISS" : "", times.back().size());
  std::fflush(stdout);
  return result;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--only" && has_value) {
      o.only = argv[++i];
    } else if (arg == "--max-size" && has_value) {
      o.max_size = std::atof(argv[++i]);
    } else if (arg == "--budget-s" && has_value) {
      o.budget_s = std::atof(argv[++i]);
    } else if (arg == "--fresh") {
      o.fresh = true;
    } else if (arg == "--verbose") {
      o.verbose = true;
    } else {
      std::fprintf(stderr,
                   "usage: regret_bench [--only add|chain10|sum|gemv|gemm] [--max-size N] "
                   "[--budget-s S] [--fresh] [--verbose]\n");
      std::exit(2);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);

  // Candidates: the CPU inline and parallel, and every other usable device; inputs live on the
  // host or on each such device. Without PoCL (or CUDA) those simply do not appear.
  std::vector<Runner> runners;
  std::vector<std::string> homes = {"host"};
  std::string host_scope;
  for (const auto& d : sy::devices()) {
    if (d.host_addressable) {
      runners.push_back({d.id() + "/inline"});
      runners.push_back({d.id() + "/parallel"});
      if (host_scope.empty()) host_scope = d.id() + "/parallel";
    } else {
      runners.push_back({d.id()});
      homes.push_back(d.id());
    }
  }
  const std::size_t fixed = runners.size();
  runners.push_back({""});  // auto

  std::printf(
      "Regret: auto vs every fixed candidate; medians, * = best fixed, ratio = auto / best "
      "(load average %.2f on %u cores)\n",
      load_average(), std::thread::hardware_concurrency());
  std::printf("%-8s %-22s %-9s", "workload", "size", "inputs");
  for (std::size_t i = 0; i < fixed; ++i) std::printf(" %16s", runners[i].label().c_str());
  std::printf(" %12s  %-15s %6s\n", "auto", "auto ran on", "ratio");

  std::vector<double> fixed_total_s(fixed, 0);
  double auto_total_s = 0, best_total_s = 0, worst_ratio = 0;
  std::string worst_case;
  int cases = 0, within = 0, over_130 = 0;
  for (const Workload& w : workloads()) {
    if (!options.only.empty() && options.only != w.name) continue;
    for (double size = 1e2; size <= std::min(w.max_size, options.max_size) * 1.0001; size *= 10) {
      for (const std::string& home : homes) {
        const CaseResult r = run_case(w, size, home, runners, options, host_scope);
        const double best_s = *std::min_element(r.fixed_s.begin(), r.fixed_s.end());
        const double ratio = r.auto_s / best_s;
        ++cases;
        within += ratio <= 1.10;
        over_130 += ratio > 1.3;
        best_total_s += best_s;
        if (ratio > worst_ratio) {
          worst_ratio = ratio;
          worst_case = w.name + " " + w.shape(size) + " on " + home;
        }
        for (std::size_t i = 0; i < fixed; ++i) fixed_total_s[i] += r.fixed_s[i];
        auto_total_s += r.auto_s;
      }
    }
  }
  if (cases == 0) return 0;

  std::printf(
      "\nSummary over %d cases (compile time excluded for every candidate: one warm-up "
      "run each; load average now %.2f)\n",
      cases, load_average());
  std::printf("  auto within 10%% of the best fixed: %d/%d = %.0f%% (target >= 90%%)\n", within,
              cases, 100.0 * within / cases);
  std::printf("  worst ratio: %.2fx, %s (target <= 1.3x; %d cases over)\n", worst_ratio,
              worst_case.c_str(), over_130);
  std::printf("  total time across the sweep (sum of medians):\n");
  std::printf("    %-16s %12s\n", "auto", format_s(auto_total_s).c_str());
  std::printf("    %-16s %12s  (auto / this = %.2f, target <= 1.05)\n", "best per case",
              format_s(best_total_s).c_str(), auto_total_s / best_total_s);
  for (std::size_t i = 0; i < fixed; ++i) {
    std::printf("    %-16s %12s  (auto / this = %.2f)\n", runners[i].label().c_str(),
                format_s(fixed_total_s[i]).c_str(), auto_total_s / fixed_total_s[i]);
  }
  const bool pass =
      within * 10 >= cases * 9 && worst_ratio <= 1.3 && auto_total_s <= 1.05 * best_total_s;
  std::printf("  targets: %s\n", pass ? "met" : "MISSED");
  return 0;
}

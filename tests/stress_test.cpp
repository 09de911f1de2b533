// Many threads, every device, mixed work, injected faults: every result is checked against a host
// reference. Run it under ThreadSanitizer as well (select with --gtest_filter='*Stress*').
#include <gtest/gtest.h>

#include <cmath>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "runtime/fault_injection.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard {
namespace {

constexpr int kThreads = 8;
constexpr int kIterations = 24;

std::vector<float> random_values(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

bool close(double got, double want, double tolerance) {
  return std::abs(got - want) <= tolerance * (1 + std::abs(want));
}

// Faults stay injected for the test and are cleared whatever happens.
struct InjectedFaults {
  explicit InjectedFaults(const char* spec) { runtime::replace_faults(spec); }
  ~InjectedFaults() { runtime::replace_faults(""); }
};

class Failures {
 public:
  void add(std::string what) {
    std::lock_guard lock(mutex_);
    if (list_.size() < 20) list_.push_back(std::move(what));
    ++count_;
  }
  int count() const { return count_; }
  std::string text() const {
    std::string s;
    for (const auto& f : list_) s += f + "\n";
    return s;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> list_;
  int count_ = 0;
};

// One operation on `where` ("" = auto): returns what went wrong, or nullopt.
std::optional<std::string> run_one(int op, std::mt19937& rng, int size) {
  const auto n = static_cast<std::int64_t>(size);
  if (op == 0) {  // an elementwise chain (fused into one kernel)
    const auto a = random_values(rng, size), b = random_values(rng, size);
    const auto r =
        (sin(Array::from_vector(a)) * 2 + Array::from_vector(b) * Array::from_vector(b) - 1)
            .to_vector<float>();
    for (std::int64_t i = 0; i < n; ++i) {
      const double want = std::sin(double(a[i])) * 2 + double(b[i]) * b[i] - 1;
      if (!close(r[i], want, 1e-4))
        return "chain[" + std::to_string(i) + "] = " + std::to_string(r[i]) + ", expected " +
               std::to_string(want);
    }
  } else if (op == 1) {  // a reduction of a product
    const auto a = random_values(rng, size), b = random_values(rng, size);
    const double got = sum(Array::from_vector(a) * Array::from_vector(b)).item<float>();
    double want = 0;
    for (std::int64_t i = 0; i < n; ++i) want += double(a[i]) * b[i];
    if (!close(got, want, 1e-3 * std::sqrt(double(n))))
      return "sum = " + std::to_string(got) + ", expected " + std::to_string(want);
  } else {  // a matrix product
    const std::int64_t m = 8 + size % 17, k = 16, p = 8;
    const auto a = random_values(rng, m * k), b = random_values(rng, k * p);
    const auto c = matmul(Array::from_vector(a, Shape{m, k}), Array::from_vector(b, Shape{k, p}))
                       .to_vector<float>();
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < p; ++j) {
        double want = 0;
        for (std::int64_t l = 0; l < k; ++l) want += double(a[i * k + l]) * b[l * p + j];
        if (!close(c[i * p + j], want, 1e-4))
          return "matmul[" + std::to_string(i) + "," + std::to_string(j) +
                 "] = " + std::to_string(c[i * p + j]) + ", expected " + std::to_string(want);
      }
  }
  return std::nullopt;
}

TEST(Stress, ThreadsOnEveryDeviceWithInjectedFaults) {
  std::vector<std::string> targets{""};  // auto, then every device pinned
  for (const DeviceInfo& d : devices()) targets.push_back(d.id());
  InjectedFaults faults("opencl:launch:0.3");
  Failures wrong, unexpected_errors;
  std::atomic<int> checked{0}, injected{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const std::string where = targets[t % targets.size()];
      std::optional<DeviceScope> scope;
      if (!where.empty()) scope.emplace(where);
      std::mt19937 rng(1234 + t);
      for (int i = 0; i < kIterations; ++i) {
        const int op = (t + i) % 3;
        const int size = 1 + (i * 997 + t * 131) % 5000;
        try {
          if (auto what = run_one(op, rng, size))
            wrong.add((where.empty() ? "auto" : where) + ": " + *what);
          ++checked;
        } catch (const Error& e) {
          // A fault on pinned OpenCL work has nowhere else to go; anything else is a bug.
          if (where.rfind("opencl", 0) == 0)
            ++injected;
          else
            unexpected_errors.add((where.empty() ? "auto" : where) + ": " + e.what());
        }
      }
    });
  for (auto& th : threads) th.join();
  synchronize();
  EXPECT_EQ(wrong.count(), 0) << wrong.text();
  EXPECT_EQ(unexpected_errors.count(), 0) << unexpected_errors.text();
  EXPECT_EQ(checked + injected, kThreads * kIterations);
  std::printf(
      "%d results checked, %d injected faults surfaced on pinned OpenCL work, %zu targets\n",
      checked.load(), injected.load(), targets.size());
}

}  // namespace
}  // namespace switchyard

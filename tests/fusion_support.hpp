// What the fusion tests share: a fixture pinned to cpu:0, and reading explain's report of the
// kernels some work became.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard::testing_support {

// Pinned to cpu:0: kernel counts and values do not depend on the scheduler's choices.
class Fusion : public ::testing::Test {
 protected:
  DeviceScope on_host_{"cpu:0"};
};

// Evaluates the arrays together under explain.
template <class... Arrays>
Explanation evaluated(const Arrays&... arrays) {
  return explain([&] { eval(arrays...); });
}

inline int count(const KernelReport& k, const std::string& op) {
  return static_cast<int>(std::count(k.operators.begin(), k.operators.end(), op));
}

// A kernel's operators sorted, without the casts dtype promotion inserts: what the calls that
// built it asked for, whatever order the pass emitted them in.
inline std::vector<std::string> requested(const KernelReport& k) {
  std::vector<std::string> ops;
  for (const auto& op : k.operators)
    if (op != "cast") ops.push_back(op);
  std::sort(ops.begin(), ops.end());
  return ops;
}

inline std::vector<std::string> sorted(std::vector<std::string> ops) {
  std::sort(ops.begin(), ops.end());
  return ops;
}

inline bool stopped_for(const Explanation& e, const std::string& reason) {
  return std::any_of(e.fusion_stops.begin(), e.fusion_stops.end(),
                     [&](const std::string& s) { return s.rfind(reason + ":", 0) == 0; });
}

}  // namespace switchyard::testing_support

// The conformance suite: written once, run on every usable device (each test is instantiated per
// device id and pins its work there with a DeviceScope), compared with float64 host references.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard::conformance {

// Ids of every usable device ("cpu:0", "opencl:0", ...), for INSTANTIATE_TEST_SUITE_P.
std::vector<std::string> device_ids();

class OnEveryDevice : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<DeviceScope>(GetParam()); }
  void TearDown() override { scope_.reset(); }
  DeviceInfo device_info() const;  // the parameter's
  bool device_has_fp64() const { return device_info().fp64; }
  bool device_has_fft() const { return device_info().fft; }  // an FFT routine

 private:
  std::unique_ptr<DeviceScope> scope_;
};

std::string device_name(const ::testing::TestParamInfo<std::string>& info);

#define SWITCHYARD_ON_EVERY_DEVICE(suite)                                                \
  INSTANTIATE_TEST_SUITE_P(AllDevices, suite,                                            \
                           ::testing::ValuesIn(::switchyard::conformance::device_ids()), \
                           ::switchyard::conformance::device_name)

// Sizes that break naive code: empty, one element, odd, a little over a work-group multiple, and
// large with a ragged tail.
inline const std::vector<std::int64_t> kSizes = {0, 1, 7, 1023, (1 << 20) + 3};
inline const std::vector<std::int64_t> kSmallSizes = {0, 1, 7, 1023};

inline const std::vector<DType> kAllDTypes = {DType::Bool, DType::Int32, DType::Int64,
                                              DType::Float32, DType::Float64};

// Seeded values made on the host, exactly representable in `dtype`: bools about half true,
// integers in [lo, hi), floats uniform in [lo, hi).
std::vector<double> random_values(std::int64_t n, DType dtype, std::uint64_t seed, double lo = -4,
                                  double hi = 4);

// An array of `dtype` holding `values` (C order).
Array host_array(const std::vector<double>& values, const Shape& shape, DType dtype);

// Relative+absolute tolerance for comparing a result of dtype t with a float64 reference.
double tolerance(DType t, bool transcendental);

// Checks every element of `actual` against `expected` (already in the result's dtype semantics),
// NaN matching NaN, printing the first few mismatches with their index.
void expect_close(const Array& actual, const std::vector<double>& expected, bool transcendental,
                  const std::string& what);

// Absolute tolerance for a sum of `terms` (float64 host values) computed in dtype t, each term
// good to tolerance(t, transcendental): the terms' own errors, of either sign, grow like their
// L2 norm, and the summation adds at most sum_error_bound (reference.hpp) of its own.
double sum_tolerance(DType t, bool transcendental, const std::vector<double>& terms);

// The same with an absolute tolerance per element, for results whose error a host model bounds
// element by element (fused expressions, reductions).
void expect_within(const Array& actual, const std::vector<double>& expected,
                   const std::vector<double>& tolerances, const std::string& what);

}  // namespace switchyard::conformance

// NumPy's answers at the edges, on every device: reductions over no axes and over empty axes,
// axis arguments out of range, integer rounding, exact sin and cos at zero, fill values an
// integer dtype cannot hold and contracted axes that must not broadcast. Each case is one that
// once gave a wrong value without an error.
#include <cmath>
#include <functional>
#include <limits>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

namespace switchyard::conformance {
namespace {

class Edges : public OnEveryDevice {
 protected:
  std::vector<DType> dtypes() const {
    std::vector<DType> out = {DType::Bool, DType::Int32, DType::Int64, DType::Float32};
    if (device_has_fp64()) out.push_back(DType::Float64);
    return out;
  }
};

// NumPy: the dtype of sum and prod (integers and bools accumulate in int64), of mean, var and
// std (integers and bools in float64), of min and max (the input's) and of any and all (bool).
DType sum_dtype(DType t) {
  return is_floating(t) ? t : DType::Int64;
}
DType mean_dtype(DType t) {
  return is_floating(t) ? t : DType::Float64;
}

// axis=() reduces nothing: each result is its input after the dtype rule, a new array of the
// input's shape (NumPy's np.sum(x, axis=()) is x.astype(...)), with or without keepdims.
TEST_P(Edges, ReductionsOverNoAxesGiveTheInputInTheResultDType) {
  const std::vector<int> none;
  for (const DType t : dtypes()) {
    const auto v = random_values(12, t, 5, -3, 3);
    const Array x = host_array(v, {3, 4}, t);
    std::vector<double> truth(v.size()), zeros(v.size(), 0.0);
    for (std::size_t i = 0; i < v.size(); ++i) truth[i] = v[i] != 0;
    struct Case {
      const char* name;
      std::function<Array(bool)> fn;
      DType dtype;
      const std::vector<double>& expected;
    };
    const Case cases[] = {
        {"sum", [&](bool k) { return sum(x, none, k); }, sum_dtype(t), v},
        {"prod", [&](bool k) { return prod(x, none, k); }, sum_dtype(t), v},
        {"min", [&](bool k) { return min(x, none, k); }, t, v},
        {"max", [&](bool k) { return max(x, none, k); }, t, v},
        {"mean", [&](bool k) { return mean(x, none, k); }, mean_dtype(t), v},
        {"var", [&](bool k) { return var(x, none, k); }, mean_dtype(t), zeros},
        {"std", [&](bool k) { return stddev(x, none, k); }, mean_dtype(t), zeros},
        {"any", [&](bool k) { return any(x, none, k); }, DType::Bool, truth},
        {"all", [&](bool k) { return all(x, none, k); }, DType::Bool, truth},
    };
    for (const Case& c : cases)
      for (const bool keepdims : {false, true}) {
        const std::string what = std::string(c.name) + "(" + std::string(name(t)) +
                                 ", axis=(), keepdims=" + (keepdims ? "true" : "false") + ")";
        const Array r = c.fn(keepdims);
        ASSERT_EQ(r.shape(), x.shape()) << what;
        ASSERT_EQ(r.dtype(), c.dtype) << what;
        expect_close(r, c.expected, false, what);
      }
  }
}

// A 0-d array has no axes to reduce: every reduction gives its one element back, argmax 0.
TEST_P(Edges, ReductionsOfAZeroDimensionalArray) {
  const Array x = Array::full({}, 2.5, DType::Float32);
  EXPECT_EQ(sum(x).item<float>(), 2.5f);
  EXPECT_EQ(max(x, std::vector<int>{}).item<float>(), 2.5f);
  EXPECT_EQ(argmax(x).item<std::int64_t>(), 0);
  EXPECT_EQ(argmin(x).dtype(), DType::Int64);
  EXPECT_THROW(sum(x, 0), AxisError);
}

// min, max, argmin and argmax of an empty axis have no value (NumPy's ValueError); over a
// non-empty axis of an array that is empty elsewhere they give an empty result; sum, prod,
// any and all of nothing give their identities.
TEST_P(Edges, ReductionsOverEmptyAxes) {
  const Array empty = Array::zeros({0, 3}, DType::Float32);
  for (const auto& fn : std::vector<std::function<Array(std::optional<int>)>>{
           [&](auto a) { return min(empty, a); }, [&](auto a) { return max(empty, a); },
           [&](auto a) { return argmin(empty, a); }, [&](auto a) { return argmax(empty, a); }}) {
    EXPECT_THROW(fn(std::nullopt), ValueError);
    EXPECT_THROW(fn(0), ValueError);
    const Array along_full_axis = fn(1);
    EXPECT_EQ(along_full_axis.shape(), Shape{0});
  }
  EXPECT_EQ(sum(empty, 0).to_vector<float>(), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(prod(empty, 0).to_vector<float>(), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(any(empty, 0).to_vector<bool>(), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(all(empty, 0).to_vector<bool>(), (std::vector<bool>{true, true, true}));
  EXPECT_TRUE(std::isnan(mean(empty).item<float>()));
}

// Every function that takes an axis rejects one outside [-ndim, ndim) with AxisError (NumPy's,
// both an IndexError and a ValueError); none wraps it around.
TEST_P(Edges, AxesOutOfRangeAreAxisErrors) {
  const Array v = Array::arange(0.0, 6.0).reshape({2, 3});
  const Array i = Array::from_vector(std::vector<std::int64_t>{0});
  const std::vector<std::pair<const char*, std::function<void()>>> calls = {
      {"sum", [&] { sum(v, 2); }},
      {"sum(-3)", [&] { sum(v, -3); }},
      {"sum({0, 2})",
       [&] {
         sum(v, {0, 2});
       }},
      {"argmax", [&] { argmax(v, 4); }},
      {"var", [&] { var(v, 2); }},
      {"cumsum", [&] { cumsum(v, 2); }},
      {"sort", [&] { sort(v, 2); }},
      {"argsort", [&] { argsort(v, -3); }},
      {"top_k", [&] { top_k(v, 1, 2); }},
      {"take", [&] { take(v, i, 2); }},
      {"concatenate",
       [&] {
         concatenate({v, v}, 2);
       }},
      {"stack",
       [&] {
         stack({v, v}, 3);
       }},
      {"expand_dims", [&] { v.expand_dims(3); }},
      {"squeeze", [&] { v.squeeze(2); }},
      {"slice", [&] { v.slice(2, 0, 1); }},
      {"permute",
       [&] {
         v.permute({0, 2});
       }},
  };
  for (const auto& [what, call] : calls) {
    EXPECT_THROW(call(), AxisError) << what;
    try {
      call();
    } catch (const IndexError&) {  // an AxisError is an IndexError too
    } catch (...) {
      ADD_FAILURE() << what << " threw something other than an IndexError";
    }
  }
  EXPECT_THROW(sum(v, {0, -2}), ValueError);  // the same axis twice
}

// NumPy 2: floor, ceil, trunc and round of integers and bools keep the dtype and the values.
TEST_P(Edges, RoundingIntegersKeepsTheirDType) {
  for (const DType t : {DType::Bool, DType::Int32, DType::Int64}) {
    const auto v = random_values(33, t, 9, -1000, 1000);
    const Array x = host_array(v, {33}, t);
    for (const auto& [fn_name, fn] : std::vector<std::pair<const char*, Array (*)(const Array&)>>{
             {"floor", floor}, {"ceil", ceil}, {"trunc", trunc}, {"round", round}}) {
      const Array r = fn(x);
      const std::string what = std::string(fn_name) + "(" + std::string(name(t)) + ")";
      ASSERT_EQ(r.dtype(), t) << what;
      expect_close(r, v, false, what);
    }
  }
}

// sin(±0) is ±0 and cos(±0) is exactly 1, also for the tiny arguments where the series'
// next term is below half an ulp, at every position of a vector (main loop and tail) and when
// fused with other work.
TEST_P(Edges, SinAndCosAreExactAtZero) {
  std::vector<DType> floats = {DType::Float32};
  if (device_has_fp64()) floats.push_back(DType::Float64);
  for (const DType t : floats) {
    const double tiny = t == DType::Float32 ? 1e-5 : 1e-10;
    const std::vector<double> kinds = {0.0, -0.0, tiny, -tiny, 1e-30, -1e-30};
    for (const std::int64_t n : {1, 6, 37, 1031}) {
      std::vector<double> v(static_cast<std::size_t>(n));
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = as_dtype(kinds[i % kinds.size()], t);
      const Array x = host_array(v, {n}, t);
      const auto s = sin(x).to_vector<double>(), c = cos(x).to_vector<double>();
      const auto fused = (cos(x) * 2.0 + sin(x)).to_vector<double>();
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string what =
            std::string(name(t)) + " n=" + std::to_string(n) + " x=" + std::to_string(v[i]);
        EXPECT_EQ(s[i], v[i]) << "sin " << what;
        EXPECT_EQ(std::signbit(s[i]), std::signbit(v[i])) << "sin " << what;
        EXPECT_EQ(c[i], 1.0) << "cos " << what;
        EXPECT_EQ(fused[i], as_dtype(2.0 + v[i], t)) << "2 cos + sin " << what;
      }
    }
  }
}

// A fill value an integer dtype cannot hold is NumPy's "cannot convert float NaN to integer"
// (a ValueError), not x86's INT_MIN; a fraction truncates, as NumPy's conversion does.
TEST_P(Edges, FullOfIntegersRejectsValuesTheyCannotHold) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const DType t : {DType::Int32, DType::Int64}) {
    EXPECT_THROW(Array::full({3}, nan, t), ValueError) << name(t);
    EXPECT_THROW(Array::full({3}, inf, t), ValueError) << name(t);
    EXPECT_THROW(Array::full({3}, -inf, t), ValueError) << name(t);
    EXPECT_THROW(Array::full({3}, 1e19, t), ValueError) << name(t);
    EXPECT_EQ(Array::full({2}, -2.7, t).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{-2, -2}));
  }
  EXPECT_THROW(Array::full({1}, 3e9, DType::Int32), ValueError);
  EXPECT_EQ(Array::full({1}, 3e9, DType::Int64).item<std::int64_t>(), 3000000000);
  EXPECT_TRUE(Array::full({1}, nan, DType::Bool).item<bool>());  // NaN is truthy
  // fill and assign of a scalar follow the same rule, leaving the array as it was.
  const Array x = Array::full({3}, 5, DType::Int32);
  EXPECT_THROW(x.fill(nan), ValueError);
  EXPECT_THROW(x.slice(0, 1, 2).assign(inf), ValueError);
  EXPECT_EQ(x.to_vector<std::int64_t>(), (std::vector<std::int64_t>{5, 5, 5}));
}

// Contracted axes never broadcast: matmul's inner extents must be equal, also when one is 1.
TEST_P(Edges, MatmulInnerExtentsMustMatch) {
  const Array a = Array::ones({2, 3}, DType::Float32);
  EXPECT_THROW(matmul(a, Array::ones({1, 2}, DType::Float32)), ShapeError);
  EXPECT_THROW(matmul(a, Array::ones({1}, DType::Float32)), ShapeError);
  EXPECT_THROW(matmul(Array::ones({1}, DType::Int32), Array::ones({3}, DType::Int32)), ShapeError);
}

// a[mask] with a mask of another shape: NumPy's IndexError, never a broadcast of the mask.
TEST_P(Edges, BooleanMaskOfAnotherShapeIsAnIndexError) {
  const Array x = Array::arange(0.0, 10.0);
  EXPECT_THROW(x[Array::full({1}, 1, DType::Bool)], IndexError);
  EXPECT_THROW(compress(x, Array::full({2, 5}, 1, DType::Bool)), IndexError);
}

SWITCHYARD_ON_EVERY_DEVICE(Edges);

}  // namespace
}  // namespace switchyard::conformance

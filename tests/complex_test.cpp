// Complex dtypes: names, NumPy promotion, storage, views of the parts sharing that storage, the
// operations complex arrays take (and the typed error for those they do not), DLPack.
#include <gtest/gtest.h>

#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "switchyard/dlpack_types.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard {
namespace {

using C64 = std::complex<float>;
using C128 = std::complex<double>;

TEST(ComplexDType, NamesSizesAndPromotionFollowNumPy) {
  EXPECT_EQ(size_of(DType::Complex64), 8u);
  EXPECT_EQ(size_of(DType::Complex128), 16u);
  EXPECT_EQ(name(DType::Complex64), "complex64");
  EXPECT_EQ(parse_dtype("complex128"), DType::Complex128);
  EXPECT_EQ(parse_dtype("complex64"), DType::Complex64);
  EXPECT_TRUE(is_complex(DType::Complex64));
  EXPECT_FALSE(is_complex(DType::Float64));
  EXPECT_EQ(dtype_of<C64>(), DType::Complex64);
  EXPECT_EQ(dtype_of<C128>(), DType::Complex128);
  // numpy.result_type, NumPy 2.
  EXPECT_EQ(promote_types(DType::Float32, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::Float64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Int32, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Int64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Bool, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::Complex64, DType::Complex128), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Float32, DType::Complex128), DType::Complex128);
  EXPECT_EQ(promote_with_scalar(DType::Complex64, ScalarKind::Float), DType::Complex64);
}

TEST(ComplexArray, HostRoundTripAndViews) {
  const std::vector<C128> values = {{1, 2}, {3, -4}, {-5, 6}, {7, 8}, {9, -10}, {11, 12}};
  const Array a = Array::from_vector(values, {2, 3});
  EXPECT_EQ(a.dtype(), DType::Complex128);
  EXPECT_EQ(a.to_vector<C128>(), values);
  // Transposed and reversed views read through the same storage.
  const auto t = a.transpose().to_vector<C128>();
  EXPECT_EQ(t, (std::vector<C128>{{1, 2}, {7, 8}, {3, -4}, {9, -10}, {-5, 6}, {11, 12}}));
  const auto r = a[1].slice(0, std::nullopt, std::nullopt, -1).to_vector<C128>();
  EXPECT_EQ(r, (std::vector<C128>{{11, 12}, {9, -10}, {7, 8}}));
  // Narrowing to complex64 keeps both parts.
  const auto narrow = a.astype(DType::Complex64).to_vector<C64>();
  for (std::size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(narrow[i],
              C64(static_cast<float>(values[i].real()), static_cast<float>(values[i].imag())));
}

TEST(ComplexArray, RealAndImagAreViewsOfTheSameStorage) {
  const Array a = Array::from_vector(std::vector<C64>{{1, 2}, {3, 4}, {5, 6}});
  const Array re = real(a), im = imag(a);
  EXPECT_EQ(re.dtype(), DType::Float32);
  EXPECT_EQ(re.buffer(), a.buffer());
  EXPECT_EQ(im.buffer(), a.buffer());
  EXPECT_EQ(re.to_vector<float>(), (std::vector<float>{1, 3, 5}));
  EXPECT_EQ(im.to_vector<float>(), (std::vector<float>{2, 4, 6}));
  im.assign(Array::from_vector(std::vector<float>{-1, -2, -3}));
  EXPECT_EQ(a.to_vector<C64>(), (std::vector<C64>{{1, -1}, {3, -2}, {5, -3}}));
  // Of a real array: the array itself, and zeros.
  const Array x = Array::from_vector(std::vector<double>{1, 2});
  EXPECT_EQ(real(x).buffer(), x.buffer());
  EXPECT_EQ(imag(x).to_vector<double>(), (std::vector<double>{0, 0}));
}

TEST(ComplexArray, ConjAbsMultiplyAndComplexFrom) {
  const std::vector<C128> av = {{3, 4}, {-1, 2}, {0, -5}}, bv = {{2, -1}, {0.5, 0.25}, {-3, 3}};
  const Array a = Array::from_vector(av), b = Array::from_vector(bv);
  const auto conj_a = conj(a).to_vector<C128>();
  const auto product = (a * b).to_vector<C128>();
  const auto magnitude = abs(a).to_vector<double>();
  const auto scaled = (a * 2.0).to_vector<C128>();
  const auto mixed =
      multiply(a, Array::from_vector(std::vector<double>{2, -1, 0.5})).to_vector<C128>();
  for (std::size_t i = 0; i < av.size(); ++i) {
    EXPECT_EQ(conj_a[i], std::conj(av[i]));
    EXPECT_NEAR(std::abs(product[i] - av[i] * bv[i]), 0, 1e-12);
    EXPECT_NEAR(magnitude[i], std::abs(av[i]), 1e-12);
    EXPECT_EQ(scaled[i], av[i] * 2.0);
  }
  EXPECT_EQ(mixed, (std::vector<C128>{{6, 8}, {1, -2}, {0, -2.5}}));
  EXPECT_EQ(abs(a).dtype(), DType::Float64);
  // Parts broadcast and promote: float32 parts give complex64, int parts complex128.
  const Array z = complex_from(Array::from_vector(std::vector<float>{1, 2, 3}),
                               Array::full({}, -1, DType::Float32));
  EXPECT_EQ(z.dtype(), DType::Complex64);
  EXPECT_EQ(z.to_vector<C64>(), (std::vector<C64>{{1, -1}, {2, -1}, {3, -1}}));
  EXPECT_EQ(complex_from(Array::arange(0, 2), Array::arange(0, 2)).dtype(), DType::Complex128);
  EXPECT_EQ(Array::full({2}, 1.5, DType::Complex64).to_vector<C64>(),
            (std::vector<C64>{{1.5, 0}, {1.5, 0}}));
  EXPECT_EQ(
      Array::from_vector(std::vector<double>{1, 2}).astype(DType::Complex128).to_vector<C128>(),
      (std::vector<C128>{{1, 0}, {2, 0}}));
  // To real dtypes as NumPy: the real part, and bool is "either part non-zero".
  const Array w = Array::from_vector(std::vector<C64>{{0, 0}, {0, 2}, {-3.5, 0}});
  EXPECT_EQ(w.astype(DType::Float64).to_vector<double>(), (std::vector<double>{0, 0, -3.5}));
  EXPECT_EQ(w.astype(DType::Bool).to_vector<bool>(), (std::vector<bool>{false, true, true}));
}

TEST(ComplexArray, AssignWritesBothParts) {
  const Array a = Array::zeros({4}, DType::Complex128);
  a.slice(0, 1, 3).assign(Array::from_vector(std::vector<C128>{{1, 2}, {3, 4}}));
  EXPECT_EQ(a.to_vector<C128>(), (std::vector<C128>{{0, 0}, {1, 2}, {3, 4}, {0, 0}}));
  a.slice(0, 3, 4).fill(7.0);
  EXPECT_EQ(a.to_vector<C128>()[3], C128(7, 0));
}

// A sum or product over no axes folds each element alone: the values themselves, complex as
// they were (NumPy's sum(x, axis=()) of a complex array).
TEST(ComplexArray, ReductionsOverNoAxesKeepTheValues) {
  const std::vector<C64> values{{0, 2}, {1, -1}};
  const Array a = Array::from_vector(values);
  for (const Array& r : {sum(a, std::span<const int>{}), prod(a, std::span<const int>{})}) {
    EXPECT_EQ(r.dtype(), DType::Complex64);
    EXPECT_EQ(r.to_vector<C64>(), values);
  }
}

// Gathers move whole elements: both parts of each, on every device (take, integer indexing).
TEST(ComplexArray, TakeMovesBothParts) {
  const Array a =
      Array::from_vector(std::vector<C64>{{0.5, 1}, {2, -3}, {4, 0}, {0, -1}}).reshape({2, 2});
  const Array picks = Array::from_vector(std::vector<std::int64_t>{1, 0, 1});
  for (const auto& device : devices()) {
    const DeviceScope scope(device.id());
    EXPECT_EQ(take(a, picks, 1).to_vector<C64>(),
              (std::vector<C64>{{2, -3}, {0.5, 1}, {2, -3}, {0, -1}, {4, 0}, {0, -1}}))
        << device.id();
    EXPECT_EQ(a[Array::from_vector(std::vector<std::int64_t>{1})].to_vector<C64>(),
              (std::vector<C64>{{4, 0}, {0, -1}}))
        << device.id();
  }
}

// Complex arithmetic against std::complex, on every device (python/tests/test_complex_arithmetic.py
// compares with NumPy, infinities and NaNs included).
TEST(ComplexArray, ArithmeticComparisonsWhereAndSums) {
  const std::vector<C128> av = {{3, 4}, {-1, 2}, {0, -5}}, bv = {{2, -1}, {0.5, 0.25}, {-3, 3}};
  const Array a = Array::from_vector(av), b = Array::from_vector(bv);
  const Array real_b = Array::from_vector(std::vector<double>{2, -1, 0.5});
  const double eps = std::numeric_limits<double>::epsilon();
  for (const auto& device : devices()) {
    const DeviceScope scope(device.id());
    const auto sums = (a + b).to_vector<C128>(), differences = (a - real_b).to_vector<C128>();
    const auto quotients = (a / b).to_vector<C128>();
    const auto equal =
        (a == Array::from_vector(std::vector<C128>{{3, 4}, {-1, -2}, {1, -5}})).to_vector<bool>();
    for (std::size_t i = 0; i < av.size(); ++i) {
      EXPECT_EQ(sums[i], av[i] + bv[i]) << device.id();
      EXPECT_EQ(differences[i], av[i] - real_b.to_vector<double>()[i]) << device.id();
      EXPECT_LE(std::abs(quotients[i] - av[i] / bv[i]), 8 * eps * std::abs(av[i] / bv[i]))
          << device.id();
    }
    EXPECT_EQ(equal, (std::vector<bool>{true, false, false})) << device.id();
    EXPECT_EQ((-a).to_vector<C128>()[1], C128(1, -2)) << device.id();
    const Array picked =
        where(Array::from_vector(std::vector<std::int32_t>{1, 0, 1}) != 0, a, real_b);
    EXPECT_EQ(picked.to_vector<C128>(), (std::vector<C128>{{3, 4}, {-1, 0}, {0, -5}}))
        << device.id();
    const C128 total = sum(a).item<C128>();
    EXPECT_EQ(total, av[0] + av[1] + av[2]) << device.id();
    EXPECT_EQ(mean(a).dtype(), DType::Complex128) << device.id();
  }
}

TEST(ComplexArray, OtherOperationsAreDTypeErrorsNamingWhatWorks) {
  const Array a = Array::from_vector(std::vector<C64>{{1, 2}});
  EXPECT_THROW(floor(a), DTypeError);
  EXPECT_THROW(max(a), DTypeError);
  EXPECT_THROW(a < a, DTypeError);
  EXPECT_THROW(complex_from(a, a), DTypeError);
  try {
    min(a);
    ADD_FAILURE() << "min of a complex array did not throw";
  } catch (const DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("add, subtract, multiply, divide"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("arccosh"), std::string::npos) << e.what();
  }
}

TEST(ComplexArray, DLPackRoundTrip) {
  const std::vector<C64> values = {{1, -1}, {2, -2}, {3, -3}, {4, -4}};
  const Array a = Array::from_vector(values, {2, 2});
  DLManagedTensor* t = to_dlpack(a);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLComplex);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 64);
  const Array b = from_dlpack(t);
  EXPECT_EQ(b.dtype(), DType::Complex64);
  EXPECT_EQ(b.to_vector<C64>(), values);
}

}  // namespace
}  // namespace switchyard

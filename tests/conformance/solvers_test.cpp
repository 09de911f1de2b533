// numpy.linalg's factorisations on every device: where the device has a dense solver
// (DeviceInfo::dense_solvers) each factorisation reconstructs its matrix within LAPACK's backward
// error; pinned to a device without one, the call is a ValueError naming what is missing, and
// never counts as a device failure.
#include "conformance/conformance.hpp"
#include "switchyard/linalg.hpp"

namespace switchyard::conformance {
namespace {

class Solvers : public OnEveryDevice {
 protected:
  bool device_has_solvers() const {
    for (const auto& d : devices())
      if (d.id() == GetParam().substr(0, GetParam().find('/'))) return d.dense_solvers;
    return false;
  }
};

constexpr std::int64_t kN = 6;

// A well-conditioned symmetric positive definite n×n matrix: B·Bᵀ + n·I.
std::vector<double> spd_values(DType t) {
  const auto b = random_values(kN * kN, t, 21, -1, 1);
  std::vector<double> a(kN * kN);
  for (std::int64_t i = 0; i < kN; ++i)
    for (std::int64_t j = 0; j < kN; ++j) {
      double s = i == j ? kN : 0;
      for (std::int64_t k = 0; k < kN; ++k) s += b[i * kN + k] * b[j * kN + k];
      a[i * kN + j] = s;
    }
  return a;
}

double eps(DType t) {
  return t == DType::Float32 ? 1.2e-7 : 2.3e-16;
}

// Backward error of a stable factorisation: 10·n·eps·‖A‖ (Frobenius), per element.
std::vector<double> bound(const std::vector<double>& a, DType t) {
  double norm = 0;
  for (double v : a) norm += v * v;
  return std::vector<double>(a.size(), 10 * kN * eps(t) * std::sqrt(norm));
}

TEST_P(Solvers, FactorisationsReconstructTheMatrixOrAreRefusedWithoutASolver) {
  for (DType t : {DType::Float32, DType::Float64}) {
    if (t == DType::Float64 && !device_has_fp64()) continue;
    const auto values = spd_values(t);
    const Array a = host_array(values, {kN, kN}, t);
    const auto tol = bound(values, t);
    const std::string what =
        std::string(" of a ") + std::string(name(t)) + " matrix on " + GetParam();
    if (!device_has_solvers()) {
      EXPECT_THROW(linalg::svd(a), ValueError) << what;
      EXPECT_THROW(linalg::det(a), ValueError) << what;
      continue;
    }
    const linalg::Svd s = linalg::svd(a);
    expect_within(matmul(s.u * s.s.expand_dims(0), s.vh), values, tol, "u·diag(s)·vh" + what);
    const linalg::Qr q = linalg::qr(a);
    expect_within(matmul(q.q, q.r), values, tol, "q·r" + what);
    const Array l = linalg::cholesky(a);
    expect_within(matmul(l, l.transpose()), values, tol, "l·lᵀ" + what);
    const linalg::Eigh e = linalg::eigh(a);
    expect_within(matmul(e.eigenvectors * e.eigenvalues.expand_dims(0), e.eigenvectors.transpose()),
                  values, tol, "v·diag(w)·vᵀ" + what);
    const Array x = linalg::solve(a, a);  // a·x = a: the identity
    std::vector<double> identity(kN * kN, 0);
    for (std::int64_t i = 0; i < kN; ++i) identity[i * kN + i] = 1;
    expect_within(x, identity, bound(identity, t), "solve(a, a)" + what);
    // det is the product of the eigenvalues: n factors, each good to 10·n·eps relative (the
    // matrix's condition number is below 2).
    double product = 1;
    for (double w : e.eigenvalues.to_vector<double>()) product *= w;
    expect_within(linalg::det(a).reshape({1}), {product},
                  {std::abs(product) * 20 * kN * kN * eps(t)}, "det" + what);
    EXPECT_THROW(linalg::cholesky(-a), LinAlgError) << what;
  }
}

SWITCHYARD_ON_EVERY_DEVICE(Solvers);

}  // namespace
}  // namespace switchyard::conformance

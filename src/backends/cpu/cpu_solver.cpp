#include "backends/cpu/cpu_solver.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/error.hpp"

// LAPACK's Fortran interface as OpenBLAS exports it (column-major, sizes by pointer).
extern "C" {
// clang-format off
void sgesdd_(const char*, const int*, const int*, float*, const int*, float*, float*, const int*, float*, const int*, float*, const int*, int*, int*);
void dgesdd_(const char*, const int*, const int*, double*, const int*, double*, double*, const int*, double*, const int*, double*, const int*, int*, int*);
void sgeqrf_(const int*, const int*, float*, const int*, float*, float*, const int*, int*);
void dgeqrf_(const int*, const int*, double*, const int*, double*, double*, const int*, int*);
void sorgqr_(const int*, const int*, const int*, float*, const int*, const float*, float*, const int*, int*);
void dorgqr_(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*, int*);
void spotrf_(const char*, const int*, float*, const int*, int*);
void dpotrf_(const char*, const int*, double*, const int*, int*);
void sgesv_(const int*, const int*, float*, const int*, int*, float*, const int*, int*);
void dgesv_(const int*, const int*, double*, const int*, int*, double*, const int*, int*);
void ssyevd_(const char*, const char*, const int*, float*, const int*, float*, float*, const int*, int*, const int*, int*);
void dsyevd_(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*, const int*, int*);
void sgetrf_(const int*, const int*, float*, const int*, int*, int*);
void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
// clang-format on
}

namespace switchyard::cpu {
namespace {

using Kind = LibraryOp::SolverKind;

// The single- and double-precision routine of each factorisation, chosen by overload.
// clang-format off
void gesdd(const char* j, const int* m, const int* n, float* a, const int* lda, float* s, float* u, const int* ldu, float* vt, const int* ldvt, float* w, const int* lw, int* iw, int* info) { sgesdd_(j, m, n, a, lda, s, u, ldu, vt, ldvt, w, lw, iw, info); }
void gesdd(const char* j, const int* m, const int* n, double* a, const int* lda, double* s, double* u, const int* ldu, double* vt, const int* ldvt, double* w, const int* lw, int* iw, int* info) { dgesdd_(j, m, n, a, lda, s, u, ldu, vt, ldvt, w, lw, iw, info); }
void geqrf(const int* m, const int* n, float* a, const int* lda, float* tau, float* w, const int* lw, int* info) { sgeqrf_(m, n, a, lda, tau, w, lw, info); }
void geqrf(const int* m, const int* n, double* a, const int* lda, double* tau, double* w, const int* lw, int* info) { dgeqrf_(m, n, a, lda, tau, w, lw, info); }
void orgqr(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* w, const int* lw, int* info) { sorgqr_(m, n, k, a, lda, tau, w, lw, info); }
void orgqr(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* w, const int* lw, int* info) { dorgqr_(m, n, k, a, lda, tau, w, lw, info); }
void potrf(const char* uplo, const int* n, float* a, const int* lda, int* info) { spotrf_(uplo, n, a, lda, info); }
void potrf(const char* uplo, const int* n, double* a, const int* lda, int* info) { dpotrf_(uplo, n, a, lda, info); }
void gesv(const int* n, const int* k, float* a, const int* lda, int* piv, float* b, const int* ldb, int* info) { sgesv_(n, k, a, lda, piv, b, ldb, info); }
void gesv(const int* n, const int* k, double* a, const int* lda, int* piv, double* b, const int* ldb, int* info) { dgesv_(n, k, a, lda, piv, b, ldb, info); }
void syevd(const char* j, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work, const int* lw, int* iw, const int* liw, int* info) { ssyevd_(j, uplo, n, a, lda, w, work, lw, iw, liw, info); }
void syevd(const char* j, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work, const int* lw, int* iw, const int* liw, int* info) { dsyevd_(j, uplo, n, a, lda, w, work, lw, iw, liw, info); }
void getrf(const int* m, const int* n, float* a, const int* lda, int* piv, int* info) { sgetrf_(m, n, a, lda, piv, info); }
void getrf(const int* m, const int* n, double* a, const int* lda, int* piv, int* info) { dgetrf_(m, n, a, lda, piv, info); }
// clang-format on

// LAPACK takes 32-bit sizes.
int lapack_size(std::int64_t value, const char* what) {
  if (value < 0 || value > INT_MAX)
    throw ValueError(std::string("cpu solver: ") + what + " = " + std::to_string(value) +
                     ", expected 0.." + std::to_string(INT_MAX));
  return static_cast<int>(value);
}

template <class T>
T* data(const Operand& operand) {
  return static_cast<T*>(operand.memory.handle) + operand.offset;
}

// Row-major rows×cols (from `row_major`) into column-major with leading dimension `ld`, and back.
template <class T>
void to_columns(const T* row_major, std::int64_t rows, std::int64_t cols, T* columns,
                std::int64_t ld) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) columns[i + j * ld] = row_major[i * cols + j];
}
template <class T>
void to_rows(const T* columns, std::int64_t ld, std::int64_t rows, std::int64_t cols,
             T* row_major) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) row_major[i * cols + j] = columns[i + j * ld];
}

// The workspace size a routine asked for in its query call (lwork = -1).
template <class T>
int queried(T size) {
  return std::max(1, static_cast<int>(size));
}

[[noreturn]] void not_converged(const char* what, int info) {
  throw LinAlgError(std::string(what) + " did not converge (LAPACK info " + std::to_string(info) +
                    ")");
}

template <class T>
class Factorise {
 public:
  Factorise(const LibraryOp& op, const LibraryArgs& args)
      : op_(op),
        args_(args),
        m_(lapack_size(args.m, "m")),
        n_(lapack_size(args.n, "n")),
        a_(static_cast<std::size_t>(args.m * args.n)) {}

  void run() {
    for (std::int64_t p = 0; p < args_.batch; ++p) {
      to_columns(data<T>(args_.a) + p * args_.m * args_.n, m_, n_, a_.data(), std::max(m_, 1));
      switch (op_.solver) {
        case Kind::Svd:
          svd(p);
          break;
        case Kind::Qr:
          qr(p);
          break;
        case Kind::Cholesky:
          cholesky(p);
          break;
        case Kind::Solve:
          solve(p);
          break;
        case Kind::Eigh:
          eigh(p);
          break;
        case Kind::Lu:
          lu(p);
          break;
      }
    }
  }

 private:
  int lda() const { return std::max(m_, 1); }

  void svd(std::int64_t p) {
    const int k = std::min(m_, n_);
    const bool full = op_.vectors && op_.complete;
    const char job = !op_.vectors ? 'N' : full ? 'A' : 'S';
    const int u_cols = full ? m_ : k, vt_rows = full ? n_ : k;
    const int ldu = std::max(m_, 1), ldvt = std::max(vt_rows, 1);
    std::vector<T> s(static_cast<std::size_t>(k)), u(op_.vectors ? std::size_t(ldu) * u_cols : 1),
        vt(op_.vectors ? std::size_t(ldvt) * n_ : 1);
    std::vector<int> iwork(static_cast<std::size_t>(8 * std::max(k, 1)));
    int info = 0, query = -1;
    T size{};
    const int lda = this->lda();
    gesdd(&job, &m_, &n_, a_.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, &size,
          &query, iwork.data(), &info);
    const int lwork = queried(size);
    std::vector<T> work(static_cast<std::size_t>(lwork));
    gesdd(&job, &m_, &n_, a_.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(),
          &lwork, iwork.data(), &info);
    if (info > 0) not_converged("SVD", info);
    std::copy(s.begin(), s.end(), data<T>(args_.c) + p * k);
    if (!op_.vectors) return;
    to_rows(u.data(), ldu, m_, u_cols, data<T>(args_.d) + p * std::int64_t(m_) * u_cols);
    to_rows(vt.data(), ldvt, vt_rows, n_, data<T>(args_.e) + p * std::int64_t(vt_rows) * n_);
  }

  void qr(std::int64_t p) {
    const int k = std::min(m_, n_);
    const int q_cols = op_.complete ? m_ : k, r_rows = op_.complete ? m_ : k;
    const int lda = this->lda();
    std::vector<T> tau(static_cast<std::size_t>(std::max(k, 1)));
    int info = 0, query = -1;
    T size{};
    geqrf(&m_, &n_, a_.data(), &lda, tau.data(), &size, &query, &info);
    std::vector<T> work(static_cast<std::size_t>(queried(size)));
    int lwork = static_cast<int>(work.size());
    geqrf(&m_, &n_, a_.data(), &lda, tau.data(), work.data(), &lwork, &info);
    // R: the upper triangle of what geqrf left, its first r_rows rows.
    T* r = data<T>(args_.d) + p * std::int64_t(r_rows) * n_;
    for (int i = 0; i < r_rows; ++i)
      for (int j = 0; j < n_; ++j) r[std::int64_t(i) * n_ + j] = j >= i ? a_[i + j * lda] : T{0};
    // Q: the reflectors expanded, in an m×q_cols matrix (its first k columns hold them).
    std::vector<T> q(std::size_t(lda) * std::max(q_cols, 1));
    std::copy_n(a_.begin(), std::size_t(lda) * std::min(k, q_cols), q.begin());
    if (q_cols > 0 && m_ > 0) {
      orgqr(&m_, &q_cols, &k, q.data(), &lda, tau.data(), &size, &query, &info);
      work.resize(static_cast<std::size_t>(queried(size)));
      lwork = static_cast<int>(work.size());
      orgqr(&m_, &q_cols, &k, q.data(), &lda, tau.data(), work.data(), &lwork, &info);
    }
    to_rows(q.data(), lda, m_, q_cols, data<T>(args_.c) + p * std::int64_t(m_) * q_cols);
  }

  void cholesky(std::int64_t p) {
    int info = 0;
    const int lda = this->lda();
    potrf("L", &n_, a_.data(), &lda, &info);
    if (info > 0)
      throw LinAlgError(
          "cholesky: the matrix is not positive definite (its leading minor of "
          "order " +
          std::to_string(info) + " is not)");
    T* l = data<T>(args_.c) + p * std::int64_t(n_) * n_;
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < n_; ++j) l[std::int64_t(i) * n_ + j] = j <= i ? a_[i + j * lda] : T{0};
  }

  void solve(std::int64_t p) {
    const int rhs = lapack_size(args_.k, "k");
    const int lda = this->lda();
    std::vector<T> b(std::size_t(lda) * std::max(rhs, 1));
    to_columns(data<T>(args_.b) + p * std::int64_t(n_) * rhs, n_, rhs, b.data(), lda);
    std::vector<int> pivots(static_cast<std::size_t>(std::max(n_, 1)));
    int info = 0;
    gesv(&n_, &rhs, a_.data(), &lda, pivots.data(), b.data(), &lda, &info);
    if (info > 0) throw LinAlgError("solve: the matrix is singular");
    to_rows(b.data(), lda, n_, rhs, data<T>(args_.c) + p * std::int64_t(n_) * rhs);
  }

  void eigh(std::int64_t p) {
    const char job = op_.vectors ? 'V' : 'N';
    const int lda = this->lda();
    std::vector<T> w(static_cast<std::size_t>(std::max(n_, 1)));
    int info = 0, query = -1, iquery = 0;
    T size{};
    syevd(&job, "L", &n_, a_.data(), &lda, w.data(), &size, &query, &iquery, &query, &info);
    std::vector<T> work(static_cast<std::size_t>(queried(size)));
    std::vector<int> iwork(static_cast<std::size_t>(std::max(iquery, 1)));
    const int lwork = static_cast<int>(work.size()), liwork = static_cast<int>(iwork.size());
    syevd(&job, "L", &n_, a_.data(), &lda, w.data(), work.data(), &lwork, iwork.data(), &liwork,
          &info);
    if (info > 0) not_converged("Eigenvalues", info);
    std::copy_n(w.begin(), n_, data<T>(args_.c) + p * n_);
    if (op_.vectors) to_rows(a_.data(), lda, n_, n_, data<T>(args_.d) + p * std::int64_t(n_) * n_);
  }

  // A zero pivot (info > 0) is no error: the determinant is then 0.
  void lu(std::int64_t p) {
    const int lda = this->lda();
    std::vector<int> pivots(static_cast<std::size_t>(std::max(n_, 1)));
    int info = 0;
    getrf(&n_, &n_, a_.data(), &lda, pivots.data(), &info);
    to_rows(a_.data(), lda, n_, n_, data<T>(args_.c) + p * std::int64_t(n_) * n_);
    std::int64_t* out = data<std::int64_t>(args_.d) + p * n_;
    for (int i = 0; i < n_; ++i) out[i] = pivots[static_cast<std::size_t>(i)];
  }

  const LibraryOp& op_;
  const LibraryArgs& args_;
  int m_, n_;
  std::vector<T> a_;  // the current matrix, column-major, overwritten by LAPACK
};

}  // namespace

SolverRoutine::SolverRoutine(switchyard::Device& device, const LibraryOp& op)
    : Routine(device, op) {
  if (op.dtype != DType::Float32 && op.dtype != DType::Float64)
    throw DTypeError("cpu solver: expected float32 or float64 matrices, given " +
                     std::string(name(op.dtype)));
}

void SolverRoutine::launch(const LibraryArgs& args) {
  if (args.m == 0 || args.n == 0 || args.batch == 0) return;  // the caller shaped empty results
  if (op().dtype == DType::Float32)
    Factorise<float>(op(), args).run();
  else
    Factorise<double>(op(), args).run();
}

}  // namespace switchyard::cpu

// numpy.linalg's factorisations and what is computed from them, over stacks of matrices (every
// axis before the last two is a batch axis, as in NumPy). They run where a dense solver is
// (LAPACK on the CPU); a device without one is not a candidate. Integer and bool matrices are
// factorised in float64, as NumPy does. A matrix the factorisation cannot take raises
// LinAlgError, as numpy.linalg.LinAlgError.
#pragma once

#include "switchyard/array.hpp"

namespace switchyard::linalg {

// a = u · diag(s) · vh, singular values descending. full_matrices: u is m×m and vh n×n;
// otherwise m×k and k×n, k = min(m, n).
struct Svd {
  Array u, s, vh;
};
Svd svd(const Array& a, bool full_matrices = true);
Array svdvals(const Array& a);  // s alone

// a = q · r, q with orthonormal columns, r upper triangular. Reduced: q m×k, r k×n; complete:
// q m×m, r m×n.
enum class QrMode { Reduced, Complete };
struct Qr {
  Array q, r;
};
Qr qr(const Array& a, QrMode mode = QrMode::Reduced);

// The lower triangular l with a = l · lᵀ (upper: u with a = uᵀ · u) of a symmetric positive
// definite a; only a's lower triangle is read.
Array cholesky(const Array& a, bool upper = false);

// x with a · x = b: b of shape (..., M) is one vector per matrix, (..., M, K) K columns; the
// batch axes broadcast.
Array solve(const Array& a, const Array& b);
Array inv(const Array& a);

// Eigenvalues ascending and the eigenvectors as columns of a symmetric a (its lower triangle).
struct Eigh {
  Array eigenvalues, eigenvectors;
};
Eigh eigh(const Array& a);
Array eigvalsh(const Array& a);

// det(a) = sign · exp(logabsdet); a singular a has sign 0 and logabsdet -inf.
struct Slogdet {
  Array sign, logabsdet;
};
Slogdet slogdet(const Array& a);
Array det(const Array& a);

}  // namespace switchyard::linalg

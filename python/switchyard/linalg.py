"""The array API's linalg extension: matmul (each backend's BLAS), the factorisations (LAPACK on
the CPU: svd, qr, cholesky, solve, eigh, slogdet and what is computed from them) and the rest
composed of array operations. Matrices stack along leading axes, as in NumPy."""

from __future__ import annotations

from typing import NamedTuple

from . import _switchyard as _sy
from ._creation import asarray
from ._dtypes import complex64, complex128, finfo, float32, float64
from ._functions import _axes, _axis, broadcast_arrays, sum as _sum, tensordot, vecdot, where

__all__ = ["matmul", "matrix_transpose", "vecdot", "tensordot", "outer", "vector_norm",
           "trace", "diagonal", "cholesky", "cross", "det", "eigh", "eigvalsh", "inv",
           "matrix_norm", "matrix_power", "matrix_rank", "pinv", "qr", "slogdet", "solve",
           "svd", "svdvals", "LinAlgError"]

LinAlgError = _sy.LinAlgError
_l = _sy._linalg


class SVDResult(NamedTuple):
    U: _sy.Array
    S: _sy.Array
    Vh: _sy.Array


class QRResult(NamedTuple):
    Q: _sy.Array
    R: _sy.Array


class EighResult(NamedTuple):
    eigenvalues: _sy.Array
    eigenvectors: _sy.Array


class SlogdetResult(NamedTuple):
    sign: _sy.Array
    logabsdet: _sy.Array


def svd(x, /, *, full_matrices=True) -> SVDResult:
    return SVDResult(*_l.svd(asarray(x), full_matrices))


def svdvals(x, /):
    return _l.svdvals(asarray(x))


def qr(x, /, *, mode="reduced") -> QRResult:
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', given {mode!r}")
    return QRResult(*_l.qr(asarray(x), mode == "complete"))


def cholesky(x, /, *, upper=False):
    return _l.cholesky(asarray(x), bool(upper))


def solve(x1, x2, /):
    return _l.solve(asarray(x1), asarray(x2))


def inv(x, /):
    return _l.inv(asarray(x))


def eigh(x, /) -> EighResult:
    return EighResult(*_l.eigh(asarray(x)))


def eigvalsh(x, /):
    return _l.eigvalsh(asarray(x))


def slogdet(x, /) -> SlogdetResult:
    return SlogdetResult(*_l.slogdet(asarray(x)))


def det(x, /):
    return _l.det(asarray(x))


def _default_rtol(x):
    """The array API's default cut-off: max(M, N) · eps of the factorised dtype."""
    dtype = float32 if x.dtype == float32 else float64
    return max(x.shape[-2], x.shape[-1]) * finfo(dtype).eps


def _float(x):
    x = asarray(x)
    return x if x.dtype in (float32, float64) else x.astype(float64)


def matrix_rank(x, /, *, rtol=None):
    x = _float(x)
    s = svdvals(x)
    rtol = _default_rtol(x) if rtol is None else asarray(rtol)[..., None]
    cutoff = _sy.max(s, axis=-1, keepdims=True) * rtol if s.shape[-1] else s
    return _sum(s > cutoff, axis=-1)


def pinv(x, /, *, rtol=None):
    x = _float(x)
    u, s, vh = svd(x, full_matrices=False)
    rtol = _default_rtol(x) if rtol is None else asarray(rtol)[..., None]
    if s.shape[-1] == 0:
        return matrix_transpose(x) * 0
    cutoff = _sy.max(s, axis=-1, keepdims=True) * rtol
    inverse = where(s > cutoff, 1 / where(s > cutoff, s, 1), 0).astype(s.dtype)
    return _sy.matmul(matrix_transpose(vh) * inverse[..., None, :], matrix_transpose(u))


def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_norm: expected an array of at least two dimensions, given "
                         f"shape {x.shape}")
    # Complex entries count by their magnitudes, which the singular values do not take.
    if x.dtype in (complex64, complex128):
        if ord in ("nuc", 2, -2):
            raise _sy.DTypeError(f"matrix_norm of a {x.dtype} array with ord={ord!r}: expected a "
                                 "real array (singular values of complex matrices are not "
                                 "computed); ord 'fro', 1, -1, inf and -inf take complex arrays")
        x = _sy.abs(x)
    x = _float(x)
    inf = float("inf")
    if ord == "fro":
        out = _sy.sqrt(_sum(x * x, axis=(-2, -1)))
    elif ord == "nuc":
        out = _sum(svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = svdvals(x)
        out = _sy.max(s, axis=-1) if ord == 2 else _sy.min(s, axis=-1)
    elif ord in (1, -1, inf, -inf):
        # 1: the largest column sum of magnitudes; inf: the largest row sum.
        sums = _sum(_sy.abs(x), axis=-2 if ord in (1, -1) else -1)
        out = _sy.max(sums, axis=-1) if ord in (1, inf) else _sy.min(sums, axis=-1)
    else:
        raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, "
                         f"given {ord!r}")
    return out[..., None, None] if keepdims else out


def matrix_power(x, n, /):
    x = asarray(x)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"matrix_power: expected stacks of square matrices, given shape "
                          f"{x.shape}")
    n = int(n)
    if n == 0:
        eye = _sy._arange_int(0, x.shape[-1], 1, _sy.DType.int64)
        identity = (eye[:, None] == eye[None, :]).astype(x.dtype)
        return _sy.broadcast_to(identity, x.shape) + x * 0
    if n < 0:
        x, n = inv(x), -n
    result, square = None, x
    while n:  # by squaring: log2(n) products
        if n & 1:
            result = square if result is None else _sy.matmul(result, square)
        n >>= 1
        if n:
            square = _sy.matmul(square, square)
    return result


def cross(x1, x2, /, *, axis=-1):
    x1, x2 = broadcast_arrays(asarray(x1), asarray(x2))
    axis = _axis(axis, x1.ndim)
    if x1.shape[axis] != 3:
        raise ValueError(f"cross: axis {axis} must have 3 elements, given shape {x1.shape}")
    a = [_sy.take(x1, asarray([i]), axis=axis) for i in range(3)]
    b = [_sy.take(x2, asarray([i]), axis=axis) for i in range(3)]
    parts = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return _sy.concat(parts, axis=axis)


def matmul(x1, x2, /):
    return _sy.matmul(x1, x2)


def matrix_transpose(x, /):
    return asarray(x).mT


def outer(x1, x2, /):
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: expected two 1-D arrays, given shapes {x1.shape} and {x2.shape}")
    return x1.reshape(-1, 1) * x2.reshape(1, -1)


def _folds_nothing(x, axis):
    """Whether a reduction of x over `axis` (None, an int or a tuple) has no elements to fold."""
    if axis is None:
        return x.size == 0
    return any(x.shape[a] == 0 for a in _axes(axis, x.ndim))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
    a = _sy.abs(asarray(x))
    if ord == 2:
        return _sy.sqrt(_sy.sum(a * a, axis=axis, keepdims=keepdims))
    if ord == 1:
        return _sy.sum(a, axis=axis, keepdims=keepdims)
    if ord == float("inf"):
        if _folds_nothing(a, axis):  # the largest of no magnitudes: 0, as NumPy's norm
            return _sy.sum(a, axis=axis, keepdims=keepdims)
        return _sy.max(a, axis=axis, keepdims=keepdims)
    if ord == -float("inf"):
        return _sy.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sy.sum(a != 0, axis=axis, keepdims=keepdims).astype(a.dtype)
    return _sy.sum(a ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def diagonal(x, /, *, offset=0):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"diagonal: expected an array of at least two dimensions, given shape "
                         f"{x.shape}")
    rows, cols = x.shape[-2], x.shape[-1]
    start_row, start_col = max(-offset, 0), max(offset, 0)
    n = max(min(rows - start_row, cols - start_col), 0)
    flat = x.reshape(x.shape[:-2] + (rows * cols,))
    index = _sy._arange_int(0, n, 1, _sy.DType.int64) * (cols + 1) + (start_row * cols + start_col)
    return _sy.take(flat, index, axis=-1)


def trace(x, /, *, offset=0, dtype=None):
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)

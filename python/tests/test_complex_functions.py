"""Elementwise functions of complex arguments against NumPy 2, on every device: grids of finite
values (zeros, the smallest and largest magnitudes, values near 1, points on the branch cuts),
within a few ulp of |result|, and the values whose parts are zeros, infinities and NaNs, whose
results (C99 Annex G's, the array API standard's special cases) must match exactly: NaN and
infinite parts where NumPy has them, zeros by sign."""

import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import assert_same_specials, complex_values, specials

import switchyard as sy

# Parts of the special grid: the special values, and the points where branch cuts start (±1,
# ±2 on them, with both zeros on the other part).
SPECIAL_PARTS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.0, np.inf, -np.inf, np.nan]

# Each function, NumPy's name, and its error bound in units of eps·|result|: a few roundings of
# the parts' operations, each within a few ulp on every device (inverse functions compose more).
FUNCTIONS = {
    "exp": 8, "expm1": 8, "log": 8, "log1p": 8, "log2": 8, "log10": 8, "sqrt": 8,
    "sin": 8, "cos": 8, "tan": 16, "sinh": 8, "cosh": 8, "tanh": 16,
    "arcsin": 16, "arccos": 16, "arctan": 16, "arcsinh": 16, "arccosh": 16, "arctanh": 16,
    "sign": 4,
}


def magnitudes(dtype, huge=True):
    """Finite magnitudes across the whole range of the parts' dtype (up to 1/eps without
    `huge`)."""
    info = np.finfo(np.finfo(dtype).dtype)
    eps, tiny, big = float(info.eps), float(info.tiny), float(info.max)
    return [0.0, tiny, 1e-3 * math.sqrt(eps), 0.25, 0.5, 1 - eps / 2, 1.0, 1 + eps, 1.5, 2.0,
            10.0, 30.0] + ([1 / eps, big / 4] if huge else [])


def finite_grid(dtype, rng, huge=True):
    """Every pair of signed magnitudes as (re, im), and seeded values of moderate size."""
    m = magnitudes(dtype, huge)
    parts = np.array(m + [-v for v in m if v], dtype=np.finfo(dtype).dtype)
    re, im = np.meshgrid(parts, parts)
    z = np.empty(re.size, dtype)
    z.real, z.imag = re.ravel(), im.ravel()
    return np.concatenate([z, complex_values(rng, (200,), dtype)])


def special_grid(dtype):
    return specials(dtype, SPECIAL_PARTS)


def log1p_reference(z):
    """log(1 + z) without NumPy's rounding of 1 + z (NumPy's own log1p loses every digit of
    small arguments): for |z| < 1, log|1 + z| = log1p(2x + x² + y²)/2 with the argument exact
    before its one rounding, or where |1 + z| < 1/2 (x in [-3/2, -1/2], where 1 + x is exact)
    log|1 + z|; elsewhere 1 + z rounds to within eps of itself and NumPy's log takes it."""
    out = np.empty(z.shape, np.complex128)
    for i, w in enumerate(z.astype(np.complex128)):
        x, y = float(w.real), float(w.imag)
        one_x = float(1 + Fraction(x)) if math.isfinite(x) else x + 1
        if not (math.isfinite(x) and math.isfinite(y)) or math.hypot(x, y) >= 1:
            out[i] = np.log(np.complex128(complex(one_x, y)))
            continue
        fx, fy = Fraction(x), Fraction(y)
        t = 2 * fx + fx * fx + fy * fy
        if t < Fraction(-3, 4):
            re = np.log(np.hypot(one_x, y))
        else:
            re = math.log1p(float(t)) / 2
        out[i] = complex(re, math.atan2(y, one_x))
    return out


def expm1_reference(z):
    """NumPy's expm1, but where a part is infinite or NaN exp(z) - 1 (the standard's special
    values, where NumPy's formula gives NaN for expm1(inf + 0j)), a real z's result real
    (NumPy's exp(x)·sin(0) is NaN where exp(x) overflows) and expm1(-0 + 0j) the standard's
    +0 + 0j."""
    w = z.astype(np.complex128)
    special = ~(np.isfinite(w.real) & np.isfinite(w.imag))
    e = np.exp(w)
    shifted = np.empty_like(e)
    shifted.real, shifted.imag = e.real - 1, e.imag
    out = np.expm1(w)
    out.imag = np.where(w.imag == 0, w.imag, out.imag)
    out.real = np.where((w.real == 0) & (w.imag == 0), 0.0, out.real)  # the standard's +0
    return np.where(special, shifted, out)


def reference(name, z):
    """NumPy 2's result computed in complex128 and rounded to z's dtype. A part that underflows
    to zero in z's dtype has the exact result's sign only to within rounding: it becomes the
    smallest subnormal of that sign, compared by value rather than by the sign of a zero."""
    with np.errstate(all="ignore"):
        if name == "log1p":
            exact = log1p_reference(z)
        elif name == "expm1":
            exact = expm1_reference(z)
        else:
            exact = getattr(np, name)(z.astype(np.complex128))
        # The standard's tanh(±inf + iy) = ±1 + 0i has the sign of y; C's (NumPy's) that of
        # sin(2y). tan(z) = -i·tanh(iz) likewise.
        if name in ("tanh", "tan"):
            w = z.astype(np.complex128)
            x, y = (w.real, w.imag) if name == "tanh" else (w.imag, w.real)
            zero = np.where(np.isinf(x) & np.isfinite(y), np.copysign(0.0, y), np.nan)
            part = exact.imag if name == "tanh" else exact.real
            part[~np.isnan(zero)] = zero[~np.isnan(zero)]
        want = exact.astype(z.dtype)
        smallest = np.nextafter(np.finfo(z.dtype).dtype.type(0), 1)
        for part, exact_part in ((want.real, exact.real), (want.imag, exact.imag)):
            underflow = (part == 0) & (exact_part != 0)
            part[underflow] = np.copysign(smallest, exact_part[underflow])
        return want


def assert_within_ulps(got, want, ulps, dtype):
    """Normwise: |got − want| ≤ ulps·eps·|want| (plus ulps smallest normals, for devices that
    flush subnormal results to zero) where both parts of want are finite."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype == dtype, (got.dtype, want.dtype)
    finite = np.isfinite(want.real) & np.isfinite(want.imag)
    info = np.finfo(np.finfo(dtype).dtype)
    g, w = got[finite].astype(np.complex128), want[finite].astype(np.complex128)
    bound = ulps * (float(info.eps) * np.abs(w) + float(info.tiny))
    error = np.abs(g - w)
    bad = ~(error <= bound)
    assert not bad.any(), list(zip(got[finite][bad], want[finite][bad], error[bad], bound[bad]))[:8]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_finite_values_within_a_few_ulp_of_numpys(on_device, rng, dtype, name):
    z = finite_grid(dtype, rng, huge=True)
    got = np.asarray(getattr(sy, name)(sy.asarray(z)))
    want = reference(name, z)
    assert_within_ulps(got, want, FUNCTIONS[name], dtype)
    assert_same_specials(got, want)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_special_values_match_numpys(on_device, dtype, name):
    z = special_grid(dtype)
    got = np.asarray(getattr(sy, name)(sy.asarray(z)))
    want = reference(name, z)
    assert got.dtype == dtype
    assert_same_specials(got, want)
    assert_within_ulps(got, want, FUNCTIONS[name], dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_reciprocal_is_numpys(on_device, rng, dtype):
    z = np.concatenate([special_grid(dtype), complex_values(rng, (50,), dtype)])
    got = np.asarray(sy.reciprocal(sy.asarray(z)))
    with np.errstate(all="ignore"):
        want = np.reciprocal(z)
    assert got.dtype == dtype
    assert_same_specials(got, want)
    assert_within_ulps(got, want, 4, dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_classification_and_round(on_device, dtype):
    z = np.concatenate([special_grid(dtype), np.array([2.5 - 0.5j, -1.5 + 3.5j], dtype)])
    a = sy.asarray(z)
    for name in ("isnan", "isinf", "isfinite"):
        np.testing.assert_array_equal(np.asarray(getattr(sy, name)(a)), getattr(np, name)(z))
    got = np.asarray(sy.round(a))
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, np.round(z))
    assert_same_specials(got, np.round(z))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_powers(on_device, rng, dtype):
    x, y = complex_values(rng, (40,), dtype) / 2, complex_values(rng, (40,), dtype) / 3
    a, b = sy.asarray(x), sy.asarray(y)
    real = rng.standard_normal(40).astype(np.finfo(dtype).dtype)
    cases = [(a ** b, x ** y, y), (a ** sy.asarray(real), x ** real, real),
             (a ** 2.5, x ** 2.5, 2.5), (1.5 ** a, 1.5 ** x, x)]
    # Whole powers below 100 are multiplied out, as NumPy: n roundings of the product.
    cases += [(a ** n, x ** n, abs(n)) for n in (1, 2, 3, 5, -2, -7, 16)]
    with np.errstate(all="ignore"):
        for got, want, exponent in cases:
            got = np.asarray(got)
            growth = np.abs(exponent) * (1 + np.abs(np.log(np.abs(x))))
            bound = 8 + 4 * growth
            assert got.dtype == want.dtype
            err = np.abs(got.astype(np.complex128) - want.astype(np.complex128))
            assert np.all(err <= bound * np.finfo(dtype).eps * np.abs(want)), (got, want)
    # z ** 0 is 1, 0 ** b is 0 for Re b > 0 and NaN otherwise; NumPy's special values of whole
    # powers (inf ** 2 multiplies out to inf + NaN i), of an exponent array's 1, 2 and 3, and of
    # the scalar exponents NumPy takes as square, sqrt and multiplied-out powers.
    z = special_grid(dtype)
    with np.errstate(all="ignore"):
        for exponent in (0, 1, 2, 3, 0.5, -1, 4, -5):
            assert_same_specials(np.asarray(sy.asarray(z) ** exponent), z ** exponent)
        for exponent in (0, 1, 2, 3):
            e = np.full(z.shape, exponent, dtype)
            assert_same_specials(np.asarray(sy.asarray(z) ** sy.asarray(e)), z ** e)
        zero = np.zeros(3, dtype)
        b = np.array([2 + 1j, -1 + 0j, 1j], dtype)
        assert_same_specials(np.asarray(sy.asarray(zero) ** sy.asarray(b)), zero ** b)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), ()])
def test_prod(on_device, rng, dtype, axis):
    x = complex_values(rng, (5, 7), dtype) / 3
    for keepdims in (False, True):
        got = np.asarray(sy.prod(sy.asarray(x), axis=axis, keepdims=keepdims))
        want = np.prod(x, axis=axis, keepdims=keepdims)
        assert got.dtype == want.dtype and got.shape == want.shape
        # n − 1 complex products, each within a few roundings of the product of magnitudes.
        count = x.size // max(want.size, 1)
        magnitude = np.prod(np.abs(x).astype(np.float64), axis=axis, keepdims=keepdims)
        bound = 4 * max(count, 1) * np.finfo(dtype).eps * magnitude
        assert np.all(np.abs(got.astype(np.complex128) - want) <= bound)
    empty = np.asarray(sy.prod(sy.asarray(np.zeros((0, 3), dtype)), axis=0))
    np.testing.assert_array_equal(empty, np.ones(3, dtype))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_any_and_all(on_device, dtype):
    z = np.array([[0, 1j], [0, 0], [2, -0.0]], dtype)
    a = sy.asarray(z)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(np.asarray(sy.any(a, axis=axis)), np.any(z, axis=axis))
        np.testing.assert_array_equal(np.asarray(sy.all(a, axis=axis)), np.all(z, axis=axis))


def test_functions_compose_with_arithmetic_and_views(on_device, rng):
    """A strided, reversed view as the argument, and a function of a function's result."""
    x = complex_values(rng, (6, 8), np.complex128)
    a = sy.asarray(x)[::-2, 1::3]
    got = np.asarray(sy.exp(sy.log(a) * 0.5) - sy.sqrt(a))
    assert np.all(np.abs(got) <= 32 * np.finfo(np.float64).eps * np.abs(np.sqrt(x[::-2, 1::3])))

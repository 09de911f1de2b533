"""Complex arithmetic, comparisons, where and sums against NumPy 2, on every device: finite
values, and the zeros, infinities and NaNs whose propagation NumPy defines (a real operand is
x + 0i, so inf·2 has a NaN imaginary part)."""

import numpy as np
import pytest
from conftest import assert_same_specials, complex_values, rounding_bound, specials, sum_bound

import switchyard as sy


def assert_within(got, expected, magnitude, roundings):
    """Normwise: |got - expected| within `roundings` roundings of `magnitude` (|x|·|y| for a
    product, |x| / |y| for a quotient), each part's error bounded so and added."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype, f"dtype {got.dtype}, NumPy gives {expected.dtype}"
    parts = np.finfo(expected.dtype).dtype
    bound = 2 * rounding_bound(magnitude, np.abs(expected), roundings, parts)
    error = np.abs(got.astype(np.complex128) - expected.astype(np.complex128))
    assert np.all(error <= bound), (got, expected, error, bound)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_arithmetic_of_finite_values(on_device, rng, dtype):
    x, y = complex_values(rng, (5, 7), dtype), complex_values(rng, (5, 7), dtype)
    r = rng.standard_normal(7).astype(np.finfo(dtype).dtype)
    a, b, real = sy.asarray(x), sy.asarray(y), sy.asarray(r)
    # Sums and differences round once per part: exact against NumPy.
    for got, want in [(a + b, x + y), (a - b, x - y), (a + real, x + r), (real - a, r - x),
                      (a + 2, x + 2), (1.5 - a, 1.5 - x), (-a, -x)]:
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    m = np.abs
    for got, want, size in [(a * b, x * y, m(x) * m(y)), (a * real, x * r, m(x) * m(r)),
                            (3 * a, 3 * x, 3 * m(x))]:
        assert_within(got, want, size, 3)
    for got, want, size in [(a / b, x / y, m(x) / m(y)), (a / real, x / r, m(x) / m(r)),
                            (2 / a, 2 / x, 2 / m(x)), (a / 4, x / 4, m(x) / 4)]:
        assert_within(got, want, size, 8)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_infinities_and_nans_propagate_as_numpys(on_device, dtype):
    z = specials(dtype)
    x, y = np.repeat(z, z.size), np.tile(z, z.size)  # every pair of specials
    a, b = sy.asarray(x), sy.asarray(y)
    with np.errstate(all="ignore"):
        for got, want in [(a + b, x + y), (a - b, x - y), (a * b, x * y), (a / b, x / y),
                          (a * 2.0, x * 2.0), (a / 2.0, x / 2.0), (-a, -x)]:
            assert_same_specials(np.asarray(got), want)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_equality_compares_both_parts(on_device, dtype):
    z = specials(dtype)
    x, y = np.repeat(z, z.size), np.tile(z, z.size)
    a, b = sy.asarray(x), sy.asarray(y)
    np.testing.assert_array_equal(np.asarray(a == b), x == y)
    np.testing.assert_array_equal(np.asarray(a != b), x != y)
    real = np.array([1.5, 0.0, np.nan], np.finfo(dtype).dtype)
    w = np.array([1.5 + 0j, -0.0 + 0j, np.nan], dtype)
    np.testing.assert_array_equal(np.asarray(sy.asarray(w) == sy.asarray(real)), w == real)
    np.testing.assert_array_equal(np.asarray(sy.asarray(w) != 1.5), w != 1.5)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_where_promotes_and_keeps_both_parts(on_device, rng, dtype):
    x = complex_values(rng, (4, 3), dtype)
    r = rng.standard_normal(3)
    cond = rng.integers(0, 2, (4, 3)).astype(bool)
    got = sy.where(sy.asarray(cond), sy.asarray(x), sy.asarray(r))
    want = np.where(cond, x, r)
    assert np.asarray(got).dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), ()])
def test_sum_mean_var_and_std(on_device, rng, dtype, axis):
    x = complex_values(rng, (6, 9), dtype)
    a = sy.asarray(x)
    for keepdims in (False, True):
        got = np.asarray(sy.sum(a, axis=axis, keepdims=keepdims))
        want = np.sum(x, axis=axis, keepdims=keepdims)
        assert got.dtype == want.dtype and got.shape == want.shape
        for part in (np.real, np.imag):
            bound = sum_bound(part(x), axis=axis, keepdims=keepdims)
            assert np.all(np.abs(part(got) - part(want)) <= 2 * bound)
    if axis == ():
        return
    count = x.size // np.sum(x, axis=axis).size
    mean = np.asarray(sy.mean(a, axis=axis))
    assert mean.dtype == dtype
    np.testing.assert_allclose(mean, np.mean(x, axis=axis),
                               rtol=4 * np.ceil(np.log2(count) + 2) * np.finfo(dtype).eps)
    for name in ("var", "std"):
        got = np.asarray(getattr(sy, name)(a, axis=axis))
        want = getattr(np, name)(x, axis=axis)
        assert got.dtype == want.dtype == np.finfo(dtype).dtype
        np.testing.assert_allclose(got, want, rtol=8 * count * np.finfo(dtype).eps)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("axis", [0, 1])
def test_cumulative_prod(on_device, rng, dtype, axis):
    x = complex_values(rng, (6, 9), dtype) / 3
    for include_initial in (False, True):
        got = np.asarray(sy.cumulative_prod(sy.asarray(x), axis=axis,
                                            include_initial=include_initial))
        want = np.cumulative_prod(x, axis=axis, include_initial=include_initial)
        assert got.dtype == want.dtype and got.shape == want.shape
        # The running product of k factors: within k complex multiplications' roundings
        # (a few each) of the product of their magnitudes, in any order.
        magnitude = np.cumulative_prod(np.abs(x).astype(np.float64), axis=axis,
                                       include_initial=include_initial)
        k = np.cumulative_sum(np.ones(x.shape), axis=axis, include_initial=include_initial)
        bound = 4 * (k + 1) * np.finfo(dtype).eps * magnitude
        assert np.all(np.abs(got.astype(np.complex128) - want) <= bound)
    one = np.asarray(sy.cumulative_prod(sy.asarray(x[:1]), axis=0))
    np.testing.assert_array_equal(one, x[:1])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("axis", [0, 1])
def test_cumulative_sum(on_device, rng, dtype, axis):
    x = complex_values(rng, (6, 9), dtype)
    for include_initial in (False, True):
        got = np.asarray(sy.cumulative_sum(sy.asarray(x), axis=axis,
                                           include_initial=include_initial))
        want = np.cumulative_sum(x, axis=axis, include_initial=include_initial)
        assert got.dtype == want.dtype and got.shape == want.shape
        for part in (np.real, np.imag):
            # Each running sum is within the bound of a sum of all the terms before it.
            bound = sum_bound(part(x), axis=axis, keepdims=True)
            assert np.all(np.abs(part(got) - part(want)) <= 2 * bound)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_in_place_operators_and_weak_complex_scalars(on_device, rng, dtype):
    x, y = complex_values(rng, (4, 3), dtype), complex_values(rng, (3,), dtype)
    a = sy.asarray(x)
    same = a
    a += sy.asarray(y)
    a *= 1.5j
    a -= 2
    a /= sy.asarray(y)
    want = x.copy()
    want += y
    want *= 1.5j
    want -= 2
    want /= y
    assert a is same and np.asarray(a).dtype == want.dtype
    np.testing.assert_allclose(np.asarray(a), want, rtol=64 * np.finfo(dtype).eps)
    # A Python complex is weak, as in NumPy 2: it keeps complex64 and float32 at 64 bits.
    parts = np.finfo(dtype).dtype
    for got, expected in [(sy.asarray(x) * 1j, x * 1j), (2j / sy.asarray(x), 2j / x),
                          (sy.multiply(sy.asarray(x), 1j), np.multiply(x, 1j)),
                          (sy.asarray(x.real.astype(parts)) + 1j, x.real.astype(parts) + 1j)]:
        assert np.asarray(got).dtype == expected.dtype
    r = sy.asarray(np.ones(3))
    with pytest.raises(sy.DTypeError, match="same_kind"):
        r += 1j


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_matrix_norms_count_magnitudes(on_device, rng, dtype):
    x = complex_values(rng, (3, 4, 5), dtype)
    for ord in ("fro", 1, -1, np.inf, -np.inf):
        got = np.asarray(sy.linalg.matrix_norm(sy.asarray(x), ord=ord))
        want = np.linalg.matrix_norm(x, ord=ord)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=32 * np.finfo(dtype).eps)
    with pytest.raises(sy.DTypeError, match="complex"):
        sy.linalg.matrix_norm(sy.asarray(x), ord=2)


def test_what_complex_arrays_do_not_take_is_a_dtype_error_naming_what_works():
    a = sy.asarray(np.array([1 + 2j], np.complex64))
    for f in (lambda: sy.floor(a), lambda: a < a, lambda: sy.min(a), lambda: sy.max(a)):
        with pytest.raises(sy.DTypeError, match="add, subtract, multiply, divide"):
            f()


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_sort_unique_and_masks_in_numpys_order(on_device, rng, dtype):
    """NumPy orders complex values by real part, then imaginary part, NaN last in each; ties
    (-0 and 0 included) keep their order in a stable sort, and NaNs are distinct in unique."""
    z = specials(dtype, [np.nan, -np.inf, -1.0, -0.0, 0.0, 1.0, np.inf])
    z = np.concatenate([z, z[::-3], complex_values(rng, (20,), dtype)])
    a = sy.asarray(z)
    np.testing.assert_array_equal(np.asarray(sy.argsort(a, stable=True)),
                                  np.argsort(z, kind="stable"))
    assert_same_specials(np.asarray(sy.sort(a)), np.sort(z, kind="stable"))
    values, index, inverse, counts = np.unique(z, return_index=True, return_inverse=True,
                                               return_counts=True, equal_nan=False)
    got = sy.unique_all(a)
    assert_same_specials(np.asarray(got.values), values)
    for g, want in zip(got[1:], (index, inverse, counts)):
        np.testing.assert_array_equal(np.asarray(g), want)
    assert_same_specials(np.asarray(sy.unique_values(a)), values)
    mask = np.isfinite(z.real) & (z.imag >= 0)
    np.testing.assert_array_equal(np.asarray(a[sy.asarray(mask)]), z[mask])
    # Along each axis of a batch with many ties.
    grid = (rng.integers(-2, 3, (4, 5, 6)) + 1j * rng.integers(-2, 3, (4, 5, 6))).astype(dtype)
    for axis in (0, 1, -1):
        np.testing.assert_array_equal(
            np.asarray(sy.argsort(sy.asarray(grid), axis=axis, stable=True)),
            np.argsort(grid, axis=axis, kind="stable"))
        np.testing.assert_array_equal(np.asarray(sy.sort(sy.asarray(grid), axis=axis)),
                                      np.sort(grid, axis=axis))

"""Elementwise functions and operators against NumPy 2, on every device, across dtypes and
layouts; Python scalars are weak as in NumPy 2."""

import operator

import numpy as np
import pytest

import switchyard as sy
from conftest import assert_matches, layouts, random_array

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
NUMERIC = ["int32", "int64", "float32", "float64"]
FLOATS = ["float32", "float64"]

BINARY = {
    "add": NUMERIC, "subtract": NUMERIC, "multiply": NUMERIC, "divide": NUMERIC,
    "maximum": NUMERIC, "minimum": NUMERIC, "equal": DTYPES, "not_equal": DTYPES,
    "less": NUMERIC, "less_equal": NUMERIC, "greater": NUMERIC, "greater_equal": NUMERIC,
    "logical_and": ["bool"], "logical_or": ["bool"], "logical_xor": ["bool"],
    "floor_divide": NUMERIC, "arctan2": FLOATS, "hypot": FLOATS, "copysign": FLOATS,
    "logaddexp": FLOATS, "nextafter": FLOATS, "bitwise_and": ["bool", "int32", "int64"],
    "bitwise_or": ["bool", "int32", "int64"], "bitwise_xor": ["bool", "int32", "int64"],
    "left_shift": ["int32", "int64"], "right_shift": ["int32", "int64"],
}
UNARY = {
    "negative": NUMERIC, "abs": NUMERIC, "sign": NUMERIC, "exp": FLOATS, "log": FLOATS,
    "sqrt": FLOATS, "sin": FLOATS, "cos": FLOATS, "tan": FLOATS, "tanh": FLOATS,
    "floor": FLOATS, "ceil": FLOATS, "round": FLOATS, "trunc": FLOATS, "isnan": FLOATS,
    "isinf": FLOATS, "isfinite": FLOATS, "logical_not": ["bool"], "arcsin": FLOATS,
    "arccos": FLOATS, "arctan": FLOATS, "sinh": FLOATS, "cosh": FLOATS, "arcsinh": FLOATS,
    "arccosh": FLOATS, "arctanh": FLOATS, "expm1": FLOATS, "log1p": FLOATS, "log2": FLOATS,
    "log10": FLOATS, "signbit": FLOATS, "invert": ["bool", "int32", "int64"],
}
POSITIVE_DOMAIN = ("log", "sqrt", "log1p", "log2", "log10")


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_binary_function_matches_numpy_in_one_kernel(on_device, rng, dtype):
    a = random_array(rng, (4, 33), dtype)
    b = random_array(rng, (33,), dtype)  # broadcast along the first axis
    if dtype in ("int32", "int64"):
        b = np.where(b == 0, 3, b).astype(dtype)  # NumPy warns on x // 0
    x, y = sy.asarray(a), sy.asarray(b)
    names = [n for n, dts in BINARY.items() if dtype in dts]
    results = [getattr(sy, n)(x, y) for n in names]
    sy.eval(*results)  # every result has one shape: one kernel for all of them
    with np.errstate(all="ignore"):
        for name, got in zip(names, results):
            assert_matches(got, getattr(np, name)(a, b), rtol=1e-5 if dtype == "float32" else None)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_unary_function_matches_numpy_on_every_layout(on_device, rng, dtype):
    names = [n for n, dts in UNARY.items() if dtype in dts]
    for layout, n in layouts(rng, dtype).items():
        x = sy.asarray(n)
        with np.errstate(all="ignore"):
            for name in names:
                expected = getattr(np, name)(np.abs(n) if name in POSITIVE_DOMAIN else n)
                arg = sy.abs(x) if name in POSITIVE_DOMAIN else x
                assert_matches(getattr(sy, name)(arg), expected,
                               rtol=1e-5 if dtype == "float32" else None)


def assert_same_bits(got, expected):
    """Exact results: the same dtype and bits (so the sign of zero counts), NaN for NaN."""
    got = np.asarray(got)
    assert got.dtype == expected.dtype, f"dtype {got.dtype}, NumPy gives {expected.dtype}"
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(got), nan)
    unsigned = f"u{expected.itemsize}"
    np.testing.assert_array_equal(got[~nan].view(unsigned), expected[~nan].view(unsigned))


@pytest.mark.parametrize("dtype", FLOATS)
def test_nextafter_is_numpys_bit_for_bit_at_every_pair_of_edges(on_device, dtype):
    info = np.finfo(dtype)
    edges = np.array([0.0, -0.0, 1.0, -1.0, 1.5, np.inf, -np.inf, np.nan, info.max, -info.max,
                      info.tiny, -info.tiny, info.smallest_subnormal, -info.smallest_subnormal],
                     dtype=dtype)
    a, b = np.repeat(edges, edges.size), np.tile(edges, edges.size)
    with np.errstate(all="ignore"):  # max toward inf overflows, tiny toward 0 underflows
        expected = np.nextafter(a, b)
    assert_same_bits(sy.nextafter(sy.asarray(a), sy.asarray(b)), expected)


def test_nextafter_promotes_as_numpy(on_device):
    i = np.array([0, 1, -3], dtype=np.int32)
    f = np.array([1, 0, -3], dtype=np.float32)
    assert_same_bits(sy.nextafter(sy.asarray(i), sy.asarray(f)), np.nextafter(i, f))
    assert_same_bits(sy.nextafter(sy.asarray(i), sy.asarray(i[::-1])), np.nextafter(i, i[::-1]))
    assert_same_bits(sy.nextafter(sy.asarray(f), 2.0), np.nextafter(f, 2.0))
    assert_same_bits(sy.nextafter(-1, sy.asarray(f)), np.nextafter(-1, f))


def test_views_made_on_the_switchyard_side_match_numpys(on_device, rng):
    n = random_array(rng, (6, 10), "float64")
    x = sy.asarray(n)
    for key in [(slice(None, None, 2), slice(1, None, 3)), (slice(None, None, -1), slice(None, None, -2)),
                (Ellipsis, 3), (None, 2, slice(None)), (-1,), (slice(4, 1, -1), Ellipsis, None)]:
        assert_matches(x[key] * 2 + 1, n[key] * 2 + 1)
    assert_matches(x.T * x.T, n.T * n.T)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_python_scalars_are_weak_as_in_numpy_2(on_device, dtype):
    a = np.arange(1, 6).astype(dtype)
    x = sy.asarray(a)
    for scalar in (2, -3, True):
        assert_matches(x * scalar, a * scalar)
        assert_matches(scalar - x, scalar - a)
    if dtype in FLOATS:
        assert_matches(x * 2.5, a * 2.5)
        assert_matches(2.5 / x, 2.5 / a)
    else:
        assert_matches(x * 2.5, a * 2.5)  # int array and a float scalar: float64, as NumPy


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow"])
def test_operators_and_their_reflections(on_device, rng, op):
    a = rng.uniform(1, 4, size=(3, 4))
    b = rng.uniform(1, 4, size=(4,))
    fn = getattr(operator, op)
    x, y = sy.asarray(a), sy.asarray(b)
    assert_matches(fn(x, y), fn(a, b))
    assert_matches(fn(x, 1.5), fn(a, 1.5))
    assert_matches(fn(1.5, x), fn(1.5, a))
    assert_matches(fn(b, x), fn(b, a))  # a NumPy left operand defers to Array


@pytest.mark.parametrize("op", ["iadd", "isub", "imul", "itruediv"])
def test_in_place_operators_write_into_the_storage_and_its_views(on_device, rng, op):
    a = rng.uniform(1, 4, size=(3, 4))
    x = sy.asarray(a.copy())
    view = x[1:]
    same = x
    x = getattr(operator, op)(x, 2.0)
    assert x is same  # in place: the same Python object
    expected = getattr(operator, op)(a.copy(), 2.0)
    assert_matches(x, expected)
    assert_matches(view, expected[1:])


def test_in_place_follows_same_kind_casting():
    x = sy.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError):
        x += 1.5
    x += 2
    assert_matches(x, np.arange(4, dtype=np.int32) + 2)


def test_integer_division_and_modulo_follow_numpy(on_device):
    a = np.array([7, -7, 7, -7, 0, 5], dtype=np.int64)
    b = np.array([2, 2, -2, -2, 3, 0], dtype=np.int64)
    x, y = sy.asarray(a), sy.asarray(b)
    with np.errstate(all="ignore"):
        assert_matches(x // y, a // b)
        assert_matches(x % y, a % b)


def test_a_python_expression_of_arrays_is_one_kernel(rng):
    a, b, c = (rng.standard_normal(10_000).astype(np.float32) for _ in range(3))
    x, y, z = sy.asarray(a), sy.asarray(b), sy.asarray(c)
    result = x * y + sy.sin(z) * 2.5 - sy.sqrt(sy.abs(x))
    explanation = sy.explain(result)
    assert len(explanation.kernels) == 1, str(explanation)
    assert set(explanation.kernels[0].operators) >= {"mul", "sin", "sqrt", "abs"}
    assert_matches(result, a * b + np.sin(c) * np.float32(2.5) - np.sqrt(np.abs(a)), rtol=1e-5,
                   atol=1e-5)


def test_evaluate_runs_a_string_expression(rng):
    a, b = rng.standard_normal(100), rng.standard_normal(100)
    got = sy.evaluate("a*b + sin(b)*2.5", a=sy.asarray(a), b=sy.asarray(b))
    assert_matches(got, a * b + np.sin(b) * 2.5)

"""The array API standard's behaviour, with array-api-strict as the reference: the same calls
in both namespaces must give the same dtypes, shapes and values."""

import array_api_strict as xp
import numpy as np
import pytest

import switchyard as sy

DTYPES = ["bool", "int32", "int64", "float32", "float64"]


def name_of(strict_dtype):
    return str(strict_dtype).rsplit(".", 1)[-1]


def same(got, expected, rtol=1e-6):
    assert got.dtype.name == name_of(expected.dtype), f"{got.dtype} vs {expected.dtype}"
    assert tuple(got.shape) == tuple(expected.shape)
    e = np.from_dlpack(expected)
    np.testing.assert_allclose(np.asarray(got), e, rtol=rtol, equal_nan=True)


def test_namespace_attributes():
    assert sy.__array_api_version__ == "2024.12"
    for name in ["abs", "add", "all", "any", "arange", "argmax", "argsort", "asarray", "astype",
                 "broadcast_arrays", "broadcast_to", "can_cast", "concat", "cumulative_sum",
                 "empty", "equal", "expand_dims", "eye", "finfo", "flip", "from_dlpack", "full",
                 "iinfo", "isdtype", "linspace", "matmul", "max", "mean", "meshgrid", "moveaxis",
                 "nonzero", "ones", "permute_dims", "pow", "prod", "remainder", "repeat",
                 "reshape", "result_type", "roll", "sort", "squeeze", "stack", "std", "sum",
                 "take", "tensordot", "tile", "tril", "triu", "unique_all", "unique_counts",
                 "unique_inverse", "unique_values", "unstack", "var", "vecdot", "where", "zeros",
                 "e", "pi", "inf", "nan", "newaxis", "bool", "int32", "int64", "float32",
                 "float64", "complex64", "complex128"]:
        assert hasattr(sy, name), name


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_promotion_table(a, b):
    got = sy.result_type(getattr(sy, a), getattr(sy, b))
    try:
        expected = xp.result_type(getattr(xp, a), getattr(xp, b))
    except TypeError:
        pytest.skip(f"the standard leaves {a} with {b} undefined")
    assert got.name == name_of(expected)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_operators_with_python_scalars_match(dtype):
    values = [1, 2, 3, 4]
    x, r = sy.asarray(values, dtype=getattr(sy, dtype)), xp.asarray(values, dtype=getattr(xp, dtype))
    same(x + 1, r + 1)
    same(2 * x, 2 * r)
    same(x > 2, r > 2)
    if dtype.startswith("float"):
        same(x / 2, r / 2)
        same(x * 0.5, r * 0.5)
        same(x ** 2.0, r ** 2.0)


def test_creation_functions_match():
    same(sy.arange(5), xp.arange(5))
    same(sy.arange(0.0, 1.0, 0.25), xp.arange(0.0, 1.0, 0.25))
    same(sy.linspace(0, 1, 7), xp.linspace(0, 1, 7))
    same(sy.linspace(0, 1 + 1j, 5), xp.linspace(0, 1 + 1j, 5))
    same(sy.linspace(1j, 2, 4, endpoint=False), xp.linspace(1j, 2, 4, endpoint=False))
    same(sy.linspace(-1.5 - 2j, 3j, 9, dtype=sy.complex64),
         xp.linspace(-1.5 - 2j, 3j, 9, dtype=xp.complex64))
    same(sy.linspace(0, 1, 3, dtype=sy.complex128), xp.linspace(0, 1, 3, dtype=xp.complex128))
    with pytest.warns(np.exceptions.ComplexWarning):
        same(sy.linspace(0, 1 + 2j, 3, dtype=sy.float64), np.linspace(0, 1, 3))
    same(sy.full((2, 2), 3), xp.full((2, 2), 3))
    same(sy.full((2,), True), xp.full((2,), True))
    same(sy.zeros((2, 3), dtype=sy.int32), xp.zeros((2, 3), dtype=xp.int32))
    same(sy.eye(3, k=-1), xp.eye(3, k=-1))
    same(sy.asarray(2.5), xp.asarray(2.5))
    same(sy.ones_like(sy.asarray([1, 2])), xp.ones_like(xp.asarray([1, 2])))


def test_reductions_and_statistics_match():
    v = [[1.0, 5.0, 2.0], [7.0, -1.0, 0.5]]
    x, r = sy.asarray(v), xp.asarray(v)
    for fn in ("sum", "prod", "max", "min", "mean"):
        same(getattr(sy, fn)(x, axis=(0, 1)), getattr(xp, fn)(r, axis=(0, 1)))
        same(getattr(sy, fn)(x, axis=1, keepdims=True), getattr(xp, fn)(r, axis=1, keepdims=True))
    same(sy.std(x, axis=0, correction=1), xp.std(r, axis=0, correction=1))
    same(sy.sum(sy.asarray([1, 2], dtype=sy.int32)), xp.sum(xp.asarray([1, 2], dtype=xp.int32)))
    same(sy.cumulative_sum(sy.asarray([1, 2, 3])), xp.cumulative_sum(xp.asarray([1, 2, 3])))


def test_indexing_matches():
    v = np.arange(24).reshape(2, 3, 4)
    x, r = sy.asarray(v), xp.asarray(v)
    for key in [(0, Ellipsis), (slice(None), 1, Ellipsis), (Ellipsis, -1),
                (None, 1, slice(None, None, -1), Ellipsis),
                (slice(1, None), slice(None, 2), slice(None, None, 3)), (Ellipsis,)]:
        same(x[key], r[key])
    same(x[x > 10], r[r > 10])


def test_setitem_matches():
    x, r = sy.zeros((3, 4)), xp.zeros((3, 4))
    x[1, :] = 5.0
    r[1, :] = 5.0
    x[..., ::2] = sy.asarray([1.0, 2.0])
    r[..., ::2] = xp.asarray([1.0, 2.0])
    same(x, r)
    x[x > 1.5] = -1.0
    r[r > 1.5] = -1.0
    same(x, r)

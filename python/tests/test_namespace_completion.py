"""The array API's inspection namespace and the functions NumPy 2 has that clients such as
scikit-learn and SciPy call: searchsorted, take_along_axis, cumulative_prod, matrix_transpose,
named unique_* results and None in keys. Every value is compared with NumPy's, on every device."""

import numpy as np
import pytest

import switchyard as sy
from conftest import require


def test_namespace_info_describes_this_machine():
    info = sy.__array_namespace_info__()
    capabilities = info.capabilities()
    assert capabilities["boolean indexing"] is True
    assert capabilities["data-dependent shapes"] is True
    # The most dimensions an array may have: one more is a ShapeError.
    most = capabilities["max dimensions"]
    assert sy.zeros((1,) * most).ndim == most
    with pytest.raises(sy.ShapeError):
        sy.zeros((1,) * (most + 1))

    ids = [d["id"] for d in sy.info()["devices"]]
    assert [str(d) for d in info.devices()] == ids
    assert info.default_device() in info.devices()
    assert sy.asarray([1.0]).device == info.default_device()


def test_namespace_info_dtypes_follow_each_device():
    info = sy.__array_namespace_info__()
    everything = info.dtypes()
    assert set(everything) == {"bool", "int32", "int64", "float32", "float64", "complex64",
                               "complex128"}
    assert all(everything[name].name == name for name in everything)
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert set(info.dtypes(kind=("bool", "signed integer"))) == {"bool", "int32", "int64"}
    assert info.dtypes(kind="unsigned integer") == {}
    for device in sy.info()["devices"]:
        listed = info.dtypes(device=device["id"])
        assert ("float64" in listed) == device["fp64"]
        assert info.default_dtypes(device=device["id"])["indexing"] == sy.int64
    with pytest.raises(ValueError, match="unknown device"):
        info.dtypes(device="nosuch:0")


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_matches_numpy(on_device, rng, side):
    haystack = np.sort(rng.integers(0, 20, 300)).astype(np.float64)
    haystack[-3:] = np.nan  # NaN sorts last
    needles = np.concatenate([rng.integers(-2, 23, 50).astype(np.float64), [np.nan, 5.0, 5.0]])
    got = sy.searchsorted(sy.asarray(haystack), sy.asarray(needles.reshape(1, -1)), side=side)
    want = np.searchsorted(haystack, needles.reshape(1, -1), side=side)
    assert got.dtype == sy.int64
    np.testing.assert_array_equal(np.asarray(got), want)


def test_searchsorted_with_a_sorter_and_mixed_dtypes(on_device, rng):
    haystack = rng.integers(-50, 50, 64).astype(np.int32)
    sorter = np.argsort(haystack, kind="stable")
    needles = rng.uniform(-60, 60, 17)
    got = sy.searchsorted(sy.asarray(haystack), sy.asarray(needles), sorter=sy.asarray(sorter))
    np.testing.assert_array_equal(np.asarray(got),
                                  np.searchsorted(haystack, needles, sorter=sorter))


def test_searchsorted_bad_input():
    with pytest.raises(ValueError, match="side"):
        sy.searchsorted(sy.asarray([1, 2]), sy.asarray([1]), side="middle")
    with pytest.raises(ValueError, match="1-D"):
        sy.searchsorted(sy.asarray([[1, 2]]), sy.asarray([1]))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_along_axis_matches_numpy(on_device, rng, axis):
    x = rng.normal(size=(4, 5, 6)).astype(np.float32)
    shape = list(x.shape)
    shape[axis] = 3
    indices = rng.integers(-x.shape[axis], x.shape[axis], shape)
    got = sy.take_along_axis(sy.asarray(x), sy.asarray(indices), axis=axis)
    np.testing.assert_array_equal(np.asarray(got), np.take_along_axis(x, indices, axis=axis))


def test_take_along_axis_broadcasts_and_sorts(on_device, rng):
    x = rng.normal(size=(3, 7))
    order = np.argsort(x, axis=1)
    got = sy.take_along_axis(sy.asarray(x), sy.asarray(order), axis=1)
    np.testing.assert_array_equal(np.asarray(got), np.sort(x, axis=1))
    first = np.zeros((1, 2), dtype=np.int64)  # broadcast over the rows
    np.testing.assert_array_equal(
        np.asarray(sy.take_along_axis(sy.asarray(x), sy.asarray(first), axis=1)),
        np.take_along_axis(x, first, axis=1))


def test_take_along_axis_bad_input():
    x = sy.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(IndexError, match="out of bounds"):
        sy.take_along_axis(x, sy.asarray([[3], [0]]), axis=1)
    with pytest.raises(ValueError, match="same number of dimensions"):
        sy.take_along_axis(x, sy.asarray([0]), axis=1)
    with pytest.raises(IndexError, match="integers"):
        sy.take_along_axis(x, sy.asarray([[0.0]]), axis=1)


@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_prod_matches_numpy(on_device, rng, include_initial):
    x = rng.integers(-3, 4, (4, 5)).astype(np.int64)
    got = sy.cumulative_prod(sy.asarray(x), axis=1, include_initial=include_initial)
    want = np.cumulative_prod(x, axis=1, include_initial=include_initial)
    np.testing.assert_array_equal(np.asarray(got), want)
    flat = rng.uniform(0.5, 1.5, 9).astype(np.float32)
    np.testing.assert_allclose(
        np.asarray(sy.cumulative_prod(sy.asarray(flat), include_initial=include_initial)),
        np.cumulative_prod(flat, include_initial=include_initial),
        rtol=9 * np.finfo(np.float32).eps)


def test_matrix_transpose_and_newaxis_keys(rng):
    x = rng.normal(size=(2, 3, 4))
    np.testing.assert_array_equal(np.asarray(sy.matrix_transpose(sy.asarray(x))),
                                  np.matrix_transpose(x))
    a = sy.asarray(x)
    for key in [None, (None, 0), (Ellipsis, None), (0, None, slice(1, 3))]:
        np.testing.assert_array_equal(np.asarray(a[key]), x[key])
    b = sy.asarray(np.zeros(3))
    b[None] = sy.asarray([[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(np.asarray(b), [1.0, 2.0, 3.0])


def test_unique_results_are_named_as_numpys():
    x = np.array([3, 1, 3, 2, 1, 3])
    a = sy.asarray(x)
    got, want = sy.unique_all(a), np.unique_all(x)
    assert got._fields == want._fields
    for field in want._fields:
        np.testing.assert_array_equal(np.asarray(getattr(got, field)), getattr(want, field))
    assert sy.unique_counts(a)._fields == np.unique_counts(x)._fields
    assert sy.unique_inverse(a)._fields == np.unique_inverse(x)._fields
    np.testing.assert_array_equal(np.asarray(sy.unique_counts(a).counts),
                                  np.unique_counts(x).counts)


def test_unique_of_bools_matches_numpy():
    x = np.array([[True, False], [True, True]])
    got, want = sy.unique_all(sy.asarray(x)), np.unique_all(x)
    for field in want._fields:
        np.testing.assert_array_equal(np.asarray(getattr(got, field)), getattr(want, field))
    assert got.values.dtype == sy.bool



def assert_transform_matches(got, want, size):
    """An FFT's error grows with log2 of its length: within 8·log2(size)·eps of the largest
    magnitude (of float64)."""
    bound = 8 * max(np.log2(size), 1) * np.finfo(np.float64).eps * np.max(np.abs(want), initial=1)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=0, atol=bound)


@pytest.mark.parametrize("name, kwargs", [
    ("fftn", {}), ("fftn", {"s": (3, 8), "axes": (1, 2)}), ("ifftn", {"axes": (0, 2)}),
    ("fftn", {"norm": "ortho"}), ("ifftn", {"norm": "forward"}), ("rfftn", {}),
    ("rfftn", {"s": (4, 7), "axes": (0, 1)}), ("irfftn", {}), ("irfftn", {"s": (4, 6, 8)}),
    ("irfftn", {"axes": (0, 1), "norm": "ortho"}),
])
def test_n_dimensional_transforms_match_numpy(on_device, rng, name, kwargs):
    require(on_device, "fft")
    real = rng.normal(size=(4, 6, 5))
    x = real if name == "rfftn" else real + 1j * rng.normal(size=real.shape)
    got = getattr(sy.fft, name)(sy.asarray(x), **kwargs)
    assert_transform_matches(got, getattr(np.fft, name)(x, **kwargs), x.size)


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_hermitian_transforms_match_numpy(on_device, rng, norm):
    require(on_device, "fft")
    x = rng.normal(size=(3, 5))
    z = x + 1j * rng.normal(size=x.shape)
    assert_transform_matches(sy.fft.hfft(sy.asarray(z), n=7, norm=norm),
                             np.fft.hfft(z, n=7, norm=norm), 7)
    assert_transform_matches(sy.fft.ihfft(sy.asarray(x), n=7, norm=norm),
                             np.fft.ihfft(x, n=7, norm=norm), 7)


def test_n_dimensional_transforms_bad_input():
    x = sy.asarray(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="same length"):
        sy.fft.fftn(x, s=(2, 3), axes=(0,))
    with pytest.raises(sy.AxisError):
        sy.fft.rfftn(x, axes=(2,))
    with pytest.raises(ValueError, match="norm"):
        sy.fft.hfft(x, norm="sideways")


def test_empty_complex_pieces_join_and_shift(on_device):
    # Writing into an empty view writes nothing, whatever its strides (a complex array's empty
    # part is seen as pairs with a zero stride).
    empty, row = np.zeros((0, 2), np.complex64), np.array([[1 + 2j, 3 - 4j]], np.complex64)
    for parts in ([empty, row], [row, empty]):
        got = sy.concat([sy.asarray(p) for p in parts], axis=0)
        np.testing.assert_array_equal(np.asarray(got), np.concatenate(parts))
    z = (np.arange(6) + 1j * np.arange(6)).reshape(2, 3).astype(np.complex128)
    np.testing.assert_array_equal(np.asarray(sy.fft.fftshift(sy.asarray(z))), np.fft.fftshift(z))
    np.testing.assert_array_equal(np.asarray(sy.fft.ifftshift(sy.asarray(z), axes=1)),
                                  np.fft.ifftshift(z, axes=1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_reciprocal_matches_numpy(on_device, dtype):
    x = np.array([0.5, -2, 0, 1, -1, 7], dtype=dtype) if np.dtype(dtype).kind == "f" else \
        np.array([1, -1, 0, 5, -7], dtype=dtype)
    with np.errstate(all="ignore"):
        want = np.reciprocal(x)
    got = sy.reciprocal(sy.asarray(x))
    assert got.dtype == sy.asarray(want).dtype
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("kwargs", [{"prepend": 0}, {"append": [[1.5], [2.0]], "axis": 1},
                                    {"prepend": np.ones((1, 3)), "axis": 0, "n": 2}])
def test_diff_with_prepend_and_append_matches_numpy(on_device, kwargs):
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3) ** 2
    ours = {k: sy.asarray(np.asarray(v)) if isinstance(v, (list, np.ndarray)) else v
            for k, v in kwargs.items()}
    got, want = sy.diff(sy.asarray(x), **ours), np.diff(x, **kwargs)
    assert got.dtype == sy.asarray(want).dtype
    np.testing.assert_array_equal(np.asarray(got), want)

"""NumPy's answers at the edges, from Python, on every device: reductions over no axes and
empty axes, axis arguments out of range, contracted axes that must not broadcast, repeat,
boolean masks of the wrong shape and 0-d ones, dtypes kept by rounding and by dtype=, exact
sin and cos at zero, float-to-int conversions, and integers too large for a shape, an index or
an axis. Each case once gave a wrong value or an untyped error."""

import math
import warnings

import numpy as np
import pytest

import switchyard as sy
from conftest import assert_matches

REDUCTIONS = ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all"]


def numpy_of(name):
    return getattr(np, name)


# ---- reductions


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_over_no_axes_give_the_input_in_the_result_dtype(on_device, name, dtype,
                                                                     keepdims):
    n = np.asarray([[1, 0, 3], [4, 5, -2]]).astype(dtype)
    got = getattr(sy, name)(sy.asarray(n), axis=(), keepdims=keepdims)
    assert_matches(got, numpy_of(name)(n, axis=(), keepdims=keepdims))


@pytest.mark.parametrize("name", ["min", "max", "argmin", "argmax"])
def test_reductions_without_identity_over_an_empty_axis_raise(on_device, name):
    x = sy.zeros((0, 3))
    for axis in (None, 0):
        with pytest.raises(ValueError):
            numpy_of(name)(np.zeros((0, 3)), axis=axis)
        with pytest.raises(ValueError):
            getattr(sy, name)(x, axis=axis)
    assert_matches(getattr(sy, name)(x, axis=1), numpy_of(name)(np.zeros((0, 3)), axis=1))


@pytest.mark.parametrize("name", ["sum", "prod", "any", "all"])
def test_reductions_with_identity_over_an_empty_axis(on_device, name):
    n = np.zeros((0, 3))
    assert_matches(getattr(sy, name)(sy.asarray(n), axis=0), numpy_of(name)(n, axis=0))


# ---- axis arguments


def test_axis_error_is_both_an_index_error_and_a_value_error():
    assert issubclass(sy.AxisError, sy.IndexError)
    assert issubclass(sy.AxisError, IndexError) and issubclass(sy.AxisError, ValueError)


AXIS_CALLS = {
    "flip": lambda x: sy.flip(x, axis=4),
    "flip tuple": lambda x: sy.flip(x, axis=(0, 2)),
    "sum": lambda x: sy.sum(x, axis=2),
    "argmax": lambda x: sy.argmax(x, axis=-3),
    "cumulative_sum": lambda x: sy.cumulative_sum(x, axis=2),
    "sort": lambda x: sy.sort(x, axis=2),
    "argsort descending": lambda x: sy.argsort(x, axis=5, descending=True),
    "roll": lambda x: sy.roll(x, 1, axis=2),
    "moveaxis": lambda x: sy.moveaxis(x, 0, 2),
    "unstack": lambda x: sy.unstack(x, axis=2),
    "diff": lambda x: sy.diff(x, axis=2),
    "repeat": lambda x: sy.repeat(x, 2, axis=2),
    "expand_dims": lambda x: sy.expand_dims(x, axis=3),
    "squeeze": lambda x: sy.squeeze(x, axis=2),
    "concat": lambda x: sy.concat([x, x], axis=2),
    "stack": lambda x: sy.stack([x, x], axis=3),
    "take": lambda x: sy.take(x, sy.asarray([0]), axis=2),
    "vecdot": lambda x: sy.vecdot(x, x, axis=2),
    "tensordot": lambda x: sy.tensordot(x, x, axes=([2], [0])),
    "count_nonzero": lambda x: sy.count_nonzero(x, axis=2),
    "fft": lambda x: sy.fft.fft(x.astype(sy.complex128), axis=2),
}


@pytest.mark.parametrize("call", AXIS_CALLS.values(), ids=AXIS_CALLS.keys())
def test_an_axis_out_of_range_is_an_axis_error(call):
    x = sy.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(sy.AxisError):
        call(x)


def test_flip_of_a_one_dimensional_array_along_axis_4_raises_as_numpy():
    with pytest.raises(np.exceptions.AxisError):
        np.flip(np.arange(3), axis=4)
    with pytest.raises(sy.AxisError, match="axis 4 is out of bounds for array of dimension 1"):
        sy.flip(sy.arange(3), axis=4)


def test_repeated_axes_are_value_errors():
    x = sy.zeros((2, 3))
    for call in (lambda: sy.sum(x, axis=(0, -2)), lambda: sy.flip(x, axis=(1, 1)),
                 lambda: sy.moveaxis(x, (0, 0), (0, 1))):
        with pytest.raises(ValueError):
            call()


def test_roll_broadcasts_one_shift_over_several_axes_as_numpy():
    n = np.arange(6).reshape(2, 3)
    assert_matches(sy.roll(sy.asarray(n), 1, axis=(0, 1)), np.roll(n, 1, axis=(0, 1)))
    assert_matches(sy.roll(sy.asarray(n), (1, 2), axis=1), np.roll(n, (1, 2), axis=1))
    with pytest.raises(ValueError):
        sy.roll(sy.asarray(n), (1, 2), axis=(0, 1, 1))


# ---- contracted axes never broadcast


def test_vecdot_does_not_broadcast_the_contracted_axis():
    with pytest.raises(ValueError):
        np.vecdot(np.asarray([1.0, 2.0, 3.0]), np.asarray([2.0]))
    with pytest.raises(ValueError):
        sy.vecdot(sy.asarray([1.0, 2.0, 3.0]), sy.asarray([2.0]))
    with pytest.raises(ValueError):
        sy.vecdot(sy.ones((2, 3)), sy.ones(3), axis=0)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64", "bool"])
def test_vecdot_keeps_the_promoted_dtype_and_broadcasts_the_other_axes(on_device, dtype):
    a = (np.arange(12).reshape(4, 3) - 5).astype(dtype)
    b = (np.arange(3) + 1).astype(dtype)
    assert_matches(sy.vecdot(sy.asarray(a), sy.asarray(b)), np.vecdot(a, b))
    c = np.arange(6).reshape(3, 2).astype(dtype)
    d = np.arange(3).reshape(3, 1).astype(dtype)
    assert_matches(sy.vecdot(sy.asarray(c), sy.asarray(d), axis=0), np.vecdot(c, d, axis=0))


def test_tensordot_checks_each_contracted_pair():
    a, b = np.ones((2, 3)), np.ones((3, 2))
    with pytest.raises(ValueError):
        np.tensordot(a, b, axes=([0, 1], [0, 1]))
    with pytest.raises(ValueError):
        sy.tensordot(sy.asarray(a), sy.asarray(b), axes=([0, 1], [0, 1]))
    with pytest.raises(ValueError):
        sy.tensordot(sy.asarray(a), sy.asarray(b), axes=3)
    assert_matches(sy.tensordot(sy.asarray(a), sy.asarray(b), axes=([1], [0])),
                   np.tensordot(a, b, axes=([1], [0])))


def test_matmul_inner_extents_must_match():
    with pytest.raises(ValueError):
        sy.matmul(sy.ones((2, 3)), sy.ones((1, 2)))
    with pytest.raises(ValueError):
        sy.linalg.outer(sy.ones((2, 2)), sy.ones(2))
    with pytest.raises(ValueError):
        sy.linalg.diagonal(sy.ones(3))


# ---- repeat


def test_repeat_broadcasts_a_single_count_and_rejects_negative_ones(on_device):
    n = np.asarray([1, 2])
    x = sy.asarray(n)
    assert_matches(sy.repeat(x, sy.asarray([2])), np.repeat(n, np.asarray([2])))
    assert_matches(sy.repeat(x, sy.asarray(3)), np.repeat(n, np.asarray(3)))
    assert_matches(sy.repeat(x, [0, 3]), np.repeat(n, [0, 3]))
    assert_matches(sy.repeat(x, 0), np.repeat(n, 0))
    for bad in (-1, [1, -1], [1, 2, 3]):
        with pytest.raises(ValueError):
            np.repeat(n, bad)
        with pytest.raises(ValueError):
            sy.repeat(x, bad)


# ---- boolean masks


def test_a_mask_of_the_wrong_shape_is_an_index_error_when_reading_and_writing():
    x = sy.arange(10)
    for mask in (sy.asarray([True]), [False], np.ones(3, dtype=bool)):
        with pytest.raises(IndexError, match="boolean index did not match"):
            x[mask]
        with pytest.raises(IndexError, match="boolean index did not match"):
            x[mask] = 1
    assert_matches(x, np.arange(10))


def test_zero_dimensional_masks_add_an_axis_as_numpy(on_device):
    n = np.arange(6).reshape(2, 3)
    for key in (True, False, np.True_, np.False_, (0, True), (Ellipsis, False),
                (True, slice(None), 1)):
        assert_matches(sy.asarray(n)[key], n[key])
    assert_matches(sy.asarray(n)[sy.asarray(True)], n[np.asarray(True)])
    for key, value in ((True, 7), (False, 7), (np.False_, np.arange(3)), ((0, True), 9)):
        got, expected = sy.asarray(n.copy()), n.copy()
        got[key] = value
        expected[key] = value
        assert_matches(got, expected)


def test_masks_covering_leading_axes_and_values_of_the_selection_shape(on_device):
    n = np.arange(12.0).reshape(3, 4)
    rows = np.asarray([True, False, True])
    cols = np.asarray([False, True, True, False])
    assert_matches(sy.asarray(n)[rows], n[rows])
    assert_matches(sy.asarray(n)[:, cols], n[:, cols])
    for key, value in ((rows, 5.0), (rows, np.arange(4.0)), (rows, np.arange(8.0).reshape(2, 4)),
                       ((slice(None), cols), np.asarray([[1.0], [2.0], [3.0]])),
                       (n > 4, np.arange(7.0)), (n > 4, 0.5), (n > 100, 1.0)):
        got, expected = sy.asarray(n.copy()), n.copy()
        got[key] = value
        expected[key] = value
        assert_matches(got, expected)
    with pytest.raises(ValueError):
        sy.asarray(n.copy())[n > 4] = np.arange(3.0)  # 7 elements selected


# ---- dtypes


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc", "round"])
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool"])
def test_rounding_integers_keeps_their_dtype(on_device, name, dtype):
    if name == "round" and dtype == "bool":
        pytest.skip("NumPy rounds bools to float16, which Switchyard does not have")
    n = (np.arange(-5, 6) * 37).astype(dtype)
    assert_matches(getattr(sy, name)(sy.asarray(n)), numpy_of(name)(n))


@pytest.mark.parametrize("name", ["sum", "prod", "cumulative_sum"])
@pytest.mark.parametrize("source, target", [("int32", "int32"), ("int64", "int32"),
                                            ("bool", "int32"), ("int32", "float32"),
                                            ("float32", "float64"), ("float64", "float32")])
def test_reductions_honour_dtype(on_device, name, source, target):
    # Values whose int32 sums and products wrap, as NumPy's int32 accumulation does.
    n = (np.arange(1, 40) * 99991).astype(source)
    got = getattr(sy, name)(sy.asarray(n), dtype=getattr(sy, target))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = numpy_of(name)(n, dtype=target)
    rtol = 1e-4 if name == "prod" and target == "float32" else None
    assert_matches(got, expected, rtol=rtol)


def test_linalg_trace_honours_dtype():
    n = np.arange(9, dtype=np.int32).reshape(3, 3)
    assert_matches(sy.linalg.trace(sy.asarray(n), dtype=sy.int32),
                   np.linalg.trace(n, dtype=np.int32))


def test_clip_of_int32_stays_int32(on_device):
    n = np.arange(-5, 5, dtype=np.int32)
    assert_matches(sy.clip(sy.asarray(n), 0, 3), np.clip(n, 0, 3))
    assert_matches(sy.clip(sy.asarray(n), min=-2), np.clip(n, -2, None))
    assert_matches(sy.asarray(n).clip(None, 1), n.clip(None, 1))
    # A Python bound stays weak beside an array bound.
    hi = np.asarray(3, dtype=np.int32)
    assert_matches(sy.clip(sy.asarray(n), 0, sy.asarray(hi)), np.clip(n, 0, hi))
    assert_matches(sy.clip(sy.asarray(n), sy.asarray(hi - 5), 2), np.clip(n, hi - 5, 2))


# ---- exact values


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sin_keeps_the_sign_of_zero_and_cos_of_zero_is_one(on_device, dtype):
    n = np.asarray([0.0, -0.0] * 20, dtype=dtype)
    s, c = np.asarray(sy.sin(sy.asarray(n))), np.asarray(sy.cos(sy.asarray(n)))
    np.testing.assert_array_equal(np.signbit(s), np.signbit(n))
    assert (s == 0).all()
    assert (c == 1).all(), c


# ---- conversions to integers


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_float_to_int_casts_give_the_minimum_out_of_range(on_device, dtype):
    # NumPy leaves these undefined; x86 (and NumPy there) gives the minimum for each.
    n = np.asarray([math.nan, math.inf, -math.inf, 1e19, -1e19, 2.9, -2.9])
    lowest = np.iinfo(dtype).min
    expected = np.asarray([lowest] * 5 + [2, -2], dtype=dtype)
    for source in ("float32", "float64"):
        assert_matches(sy.asarray(n.astype(source)).astype(dtype), expected)


def test_fill_values_an_integer_dtype_cannot_hold_raise_as_numpy():
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        sy.full(3, math.nan, dtype=sy.int64)
    with pytest.raises(ValueError, match="NaN"):
        sy.asarray(math.nan, dtype=sy.int32)
    with pytest.raises(ValueError):
        sy.full((2,), math.inf, dtype=sy.int32)
    x = sy.zeros(3, dtype=sy.int64)
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        x[0] = math.nan
    with pytest.raises(OverflowError):
        x[...] = math.inf
    with pytest.raises(OverflowError):
        sy.zeros(2, dtype=sy.int32)[0] = 1e10
    assert_matches(x, np.zeros(3, dtype=np.int64))
    assert_matches(sy.full(2, -2.7, dtype=sy.int32), np.full(2, -2.7).astype(np.int32))


# ---- integers too large for a shape, an index or an axis


def test_integers_beyond_int64_are_typed_errors():
    x = sy.arange(10)
    with pytest.raises(ValueError, match="Maximum allowed dimension"):
        sy.zeros(2**63)
    with pytest.raises(ValueError, match="Maximum allowed dimension"):
        sy.ones((2, 2**64))
    with pytest.raises(ValueError):
        x.reshape(2**63)
    with pytest.raises(IndexError, match="out of bounds"):
        x[2**63]
    with pytest.raises(IndexError, match="out of bounds"):
        x[-2**63 - 1] = 1
    with pytest.raises(OverflowError):
        sy.sum(x, axis=2**63)
    with pytest.raises(OverflowError):
        sy.argmax(x, axis=2**40)
    assert_matches(x[2**63:], np.arange(10)[2**63:])
    assert_matches(x[:-2**70], np.arange(10)[:-2**70])
    assert_matches(x[::2**64], np.arange(10)[::2**64])


# ---- empty arrays through composed functions


def test_norms_and_tensordot_of_empty_arrays_as_numpy():
    z = np.zeros((0, 3))
    for kwargs in ({}, {"ord": math.inf}, {"ord": 1}, {"axis": 0, "ord": math.inf}):
        assert_matches(sy.linalg.vector_norm(sy.asarray(z), **kwargs),
                       np.linalg.vector_norm(z, **kwargs))
    with pytest.raises(ValueError):
        sy.linalg.vector_norm(sy.asarray(z), ord=-math.inf)
    assert_matches(sy.tensordot(sy.asarray(z), sy.asarray(z), axes=([0], [0])),
                   np.tensordot(z, z, axes=([0], [0])))


def test_squeeze_and_expand_dims_take_tuples_of_axes_as_numpy():
    n = np.ones((1, 2, 1))
    assert_matches(sy.squeeze(sy.asarray(n), axis=(0, 2)), np.squeeze(n, axis=(0, 2)))
    assert_matches(sy.squeeze(sy.asarray(n), axis=()), np.squeeze(n, axis=()))
    assert_matches(sy.expand_dims(sy.asarray(n), axis=(-1, 0)), np.expand_dims(n, (-1, 0)))
    for call in (lambda m, x: m.squeeze(x, axis=(0, 0)), lambda m, x: m.squeeze(x, axis=(0, 1)),
                 lambda m, x: m.expand_dims(x, axis=(1, 1))):
        with pytest.raises(ValueError):
            call(np, n)
        with pytest.raises(ValueError):
            call(sy, sy.asarray(n))
    with pytest.raises(sy.AxisError):
        sy.expand_dims(sy.asarray(n), axis=(0, 5))


def test_counts_beyond_int64_are_value_errors():
    for call in (lambda: sy.arange(2**64), lambda: sy.linspace(0, 1, 2**63),
                 lambda: sy.eye(2**63), lambda: sy.full(2**63, 1),
                 lambda: sy.top_k(sy.arange(3), 2**63),
                 lambda: sy.fft.fft(sy.zeros(4, dtype=sy.complex64), n=2**63)):
        with pytest.raises(ValueError):
            call()

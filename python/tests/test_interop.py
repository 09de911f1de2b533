"""Zero-copy interop: DLPack with NumPy (and PyTorch when installed), the buffer protocol and
__array__; pointer equality is checked, writes on either side are seen by the other, and
capsules are owned exactly once."""

import gc
import sys

import numpy as np
import pytest

import switchyard as sy


def address(n: np.ndarray) -> int:
    return n.__array_interface__["data"][0]


def test_numpy_array_in_and_out_without_a_copy():
    n = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = sy.asarray(n)
    back = np.from_dlpack(x)
    assert address(back) == address(n)
    assert address(np.asarray(x)) == address(n)  # __array__ / buffer protocol
    assert address(np.asarray(memoryview(x))) == address(n)


def test_writes_on_either_side_are_seen_by_the_other():
    n = np.zeros(5, dtype=np.float32)
    x = sy.asarray(n)
    n[2] = 7.0
    x.mark_modified()
    assert float(sy.sum(x)) == 7.0
    x[0] = 3.0
    assert n[0] == 3.0
    exported = np.from_dlpack(x)
    exported[4] = 1.0
    x.mark_modified()
    assert float(sy.sum(x)) == 11.0


def test_strided_and_negative_step_views_are_shared():
    n = np.arange(30, dtype=np.int64).reshape(5, 6)
    view = n[::-2, 1::2]
    x = sy.asarray(view)
    np.testing.assert_array_equal(np.asarray(x * 1), view)
    back = np.from_dlpack(x)
    assert back.strides == view.strides
    assert address(back) == address(view)


def test_a_borrowed_numpy_array_keeps_its_owner_alive():
    n = np.arange(1000, dtype=np.float64)
    x = sy.asarray(n)
    refs = sys.getrefcount(n)
    del n
    gc.collect()
    assert refs > 2  # the import holds a reference
    assert float(sy.sum(x)) == sum(range(1000))


def test_an_exported_array_outlives_the_switchyard_handle():
    x = sy.arange(10, dtype=sy.float64) * 2
    n = np.from_dlpack(x)
    del x
    gc.collect()
    np.testing.assert_array_equal(n, np.arange(10) * 2.0)


def test_a_capsule_consumed_twice_is_an_error_not_a_double_free():
    n = np.arange(4.0)
    capsule = n.__dlpack__()
    sy._switchyard._import_capsule(capsule)
    with pytest.raises(sy.DLPackError, match="already consumed"):
        sy._switchyard._import_capsule(capsule)
    with pytest.raises(BufferError):  # DLPackError is a BufferError too
        sy._switchyard._import_capsule(capsule)


def test_unsupported_inputs_are_typed_errors():
    with pytest.raises(TypeError, match="uint8"):
        sy.asarray(np.arange(3, dtype=np.uint8))
    assert sy.asarray(np.arange(3, dtype=np.uint8), dtype=sy.int32).dtype == sy.int32
    with pytest.raises(sy.DLPackError):
        sy._switchyard._import_capsule(object())
    x = sy.zeros(3)
    with pytest.raises(BufferError):
        x.__dlpack__(stream=1)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))


def test_read_only_numpy_arrays_are_copied():
    n = np.arange(5.0)
    n.flags.writeable = False
    x = sy.asarray(n)
    np.testing.assert_array_equal(np.asarray(x), n)
    assert address(np.asarray(x)) != address(n)


def test_dlpack_device_and_copy_flag():
    x = sy.ones(3)
    assert x.__dlpack_device__() == (1, 0)
    copied = np.from_dlpack(x, copy=True)
    copied[0] = 5
    assert float(x[0]) == 1.0


def test_pytorch_round_trip_shares_memory():
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    x = sy.from_dlpack(t)
    back = torch.from_dlpack(x)
    assert back.data_ptr() == t.data_ptr()
    t[0, 0] = 42
    x.mark_modified()
    assert float(x[0, 0]) == 42.0
    np.testing.assert_array_equal(np.asarray(x * 2), (t * 2).numpy())
    y = sy.arange(6, dtype=sy.int64)
    ty = torch.from_dlpack(y)
    assert ty.dtype == torch.int64 and ty.tolist() == list(range(6))

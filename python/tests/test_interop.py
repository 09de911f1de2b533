"""Interop: DLPack with NumPy (and PyTorch when installed), the buffer protocol and __array__.
Shared memory (copy=False, from_dlpack, exports) is checked by pointer equality, writes on either
side are seen by the other, and capsules are owned exactly once; asarray's default is a copy."""

import gc
import sys

import numpy as np
import pytest

import switchyard as sy


def address(n: np.ndarray) -> int:
    return n.__array_interface__["data"][0]


def test_numpy_array_in_and_out_without_a_copy():
    n = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = sy.asarray(n, copy=False)
    assert address(np.asarray(sy.asarray(n))) != address(n)  # the default is a copy
    back = np.from_dlpack(x)
    assert address(back) == address(n)
    assert address(np.asarray(x)) == address(n)  # __array__ / buffer protocol
    assert address(np.asarray(memoryview(x))) == address(n)


def test_writes_on_either_side_are_seen_by_the_other():
    n = np.zeros(5, dtype=np.float32)
    x = sy.asarray(n, copy=False)
    n[2] = 7.0
    assert float(sy.sum(x)) == 7.0
    x[0] = 3.0
    assert n[0] == 3.0
    exported = np.from_dlpack(x)
    exported[4] = 1.0
    assert float(sy.sum(x)) == 11.0


def test_strided_and_negative_step_views_are_shared():
    n = np.arange(30, dtype=np.int64).reshape(5, 6)
    view = n[::-2, 1::2]
    x = sy.asarray(view, copy=False)
    np.testing.assert_array_equal(np.asarray(x * 1), view)
    back = np.from_dlpack(x)
    assert back.strides == view.strides
    assert address(back) == address(view)


def test_a_borrowed_numpy_array_keeps_its_owner_alive():
    n = np.arange(1000, dtype=np.float64)
    x = sy.asarray(n, copy=False)
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
    assert float(x[0, 0]) == 42.0
    np.testing.assert_array_equal(np.asarray(x * 2), (t * 2).numpy())
    y = sy.arange(6, dtype=sy.int64)
    ty = torch.from_dlpack(y)
    assert ty.dtype == torch.int64 and ty.tolist() == list(range(6))


# ---- a hand-made producer, to count what the consumer does with its deleter

import ctypes  # noqa: E402


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", DELETER)]

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Producer:
    """One float64 tensor of 4 elements on `device_type`, counting its deleter's calls."""

    def __init__(self, device_type=1):
        self.data = (ctypes.c_double * 4)(1, 2, 3, 4)
        self.shape = (ctypes.c_int64 * 1)(4)
        self.deleted = 0
        self.deleter = DELETER(self._delete)
        self.tensor = DLManagedTensor(
            DLTensor(ctypes.cast(self.data, ctypes.c_void_p), DLDevice(device_type, 0), 1,
                     DLDataType(2, 64, 1), self.shape, None, 0), None, self.deleter)

    def _delete(self, _):
        self.deleted += 1

    def capsule(self):
        return _capsule_new(ctypes.addressof(self.tensor), b"dltensor", None)


def test_the_deleter_runs_exactly_once_after_the_last_array_is_gone():
    producer = Producer()
    capsule = producer.capsule()
    x = sy._switchyard._import_capsule(capsule)
    view = x[1:]
    assert float(sy.sum(x)) == 10.0
    with pytest.raises(sy.DLPackError):
        sy._switchyard._import_capsule(capsule)
    del x
    gc.collect()
    assert producer.deleted == 0  # the view still uses the memory
    del view
    gc.collect()
    assert producer.deleted == 1


def test_a_tensor_from_an_unsupported_device_is_an_error_and_stays_the_producers():
    producer = Producer(device_type=4)  # kDLOpenCL: not importable as a pointer
    capsule = producer.capsule()
    with pytest.raises(sy.DLPackError, match="device type"):
        sy._switchyard._import_capsule(capsule)
    gc.collect()
    assert producer.deleted == 0
    # Not consumed: a later import of the same capsule is judged again, not a double free.
    with pytest.raises(sy.DLPackError, match="device type"):
        sy._switchyard._import_capsule(capsule)


_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]


def test_versioned_capsules_for_consumers_that_ask_for_them():
    x = sy.arange(4, dtype=sy.float32)
    assert _capsule_name(x.__dlpack__()) == b"dltensor"
    assert _capsule_name(x.__dlpack__(max_version=(1, 0))) == b"dltensor_versioned"
    assert _capsule_name(x.__dlpack__(max_version=(0, 8))) == b"dltensor"
    versioned = x.__dlpack__(max_version=(1, 0))
    y = sy._switchyard._import_capsule(versioned)
    assert _capsule_name(versioned) == b"used_dltensor_versioned"
    np.testing.assert_array_equal(np.asarray(y), [0, 1, 2, 3])
    writable = np.from_dlpack(x)  # NumPy asks for a versioned tensor: writable, shared
    writable[0] = 9
    assert float(x[0]) == 9.0


def test_from_dlpack_copies_exactly_when_asked_or_moved():
    n = np.arange(4, dtype=np.float32)
    shared, copied = sy.from_dlpack(n, copy=False), sy.from_dlpack(n, copy=True)
    n[0] = 7
    assert float(shared[0]) == 7.0 and float(copied[0]) == 0.0
    home = shared.device  # where NumPy's memory is, as Switchyard names it
    for d in sy.devices():
        if d == home:
            continue
        moved = sy.from_dlpack(n, device=d.id)
        assert moved.device == d and moved.tolist() == n.tolist()
        with pytest.raises(BufferError, match=f"the data is on {home.id}, and moving it"):
            sy.from_dlpack(n, device=d.id, copy=False)

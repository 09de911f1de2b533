"""Each C++ error type is a Python class deriving from switchyard.Error and from the builtin a
Python user catches, with messages naming what was expected and what was given."""

import numpy as np
import pytest

import switchyard as sy


@pytest.mark.parametrize("name, builtin", [
    ("ShapeError", ValueError), ("DTypeError", TypeError), ("IndexError", IndexError),
    ("ValueError", ValueError), ("ConfigError", ValueError), ("OutOfMemory", MemoryError),
    ("DeviceError", RuntimeError), ("CompileError", RuntimeError),
    ("BackendUnavailable", RuntimeError), ("AllDevicesFailed", RuntimeError),
    ("ParseError", ValueError), ("DLPackError", BufferError)])
def test_error_classes_derive_from_their_builtin(name, builtin):
    cls = getattr(sy, name)
    assert issubclass(cls, sy.Error) and issubclass(cls, builtin)


def test_bad_input_raises_the_mapped_error_with_a_message():
    x = sy.zeros((2, 3))
    with pytest.raises(sy.ShapeError, match=r"\(2, 3\).*\(4,\)|\(4,\).*\(2, 3\)"):
        (x + sy.zeros(4)).eval()
    with pytest.raises(IndexError, match="out of bounds"):
        x[5]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]
    with pytest.raises(TypeError, match="bool"):
        sy.sort(sy.asarray([True, False]))
    with pytest.raises(sy.ParseError, match="position"):
        sy.evaluate("a +* b", a=x, b=x)
    with pytest.raises(sy.BackendUnavailable):
        with sy.device("nosuch:7"):
            pass
    with pytest.raises(TypeError):
        sy.zeros(3, dtype="float16")
    with pytest.raises(MemoryError):
        sy.zeros((1 << 25, 1 << 20), dtype=sy.float64)  # 256 TiB
    with pytest.raises(ValueError, match="one element"):
        float(x)
    with pytest.raises(TypeError):
        sy.fft.fft(sy.arange(4))
    with pytest.raises(OverflowError):
        sy.asarray([1], dtype=sy.int64) + (1 << 70)


def test_operations_with_unknown_objects_return_not_implemented():
    x = sy.zeros(3)
    with pytest.raises(TypeError):
        x + object()
    assert (x == None) is False  # noqa: E711 - falls back to identity, as for unknown types

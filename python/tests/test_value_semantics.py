"""Values as of the call: a pending result equals what NumPy computes, eagerly, for the same
program at the moment the operation was written, whatever is written afterwards. The property
test interleaves random writes (setitem, in-place operators, writes through views, writes by the
owner of shared memory) with pending expressions and compares every result with NumPy run on the
same sequence."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import switchyard as sy

from conftest import DEVICE_IDS

# ---- the reproducers of the issue, on every device


def test_write_after_pending_keeps_its_value(on_device):
    x = sy.asarray([1, 2, 3], dtype=sy.int32)
    y = x * 2
    x[0] = 100
    assert np.asarray(y).tolist() == [2, 4, 6]
    x = sy.asarray([1.0, 2.0, 3.0])
    y = x * 2
    x += 1
    assert np.asarray(y).tolist() == [2.0, 4.0, 6.0]
    assert np.asarray(x).tolist() == [2.0, 3.0, 4.0]


def test_copies_are_snapshots(on_device):
    x = sy.asarray([1, 2, 3], dtype=sy.int32)
    y = sy.asarray(x, copy=True)
    z = x.astype(sy.float64, copy=True)
    x[0] = 0
    assert np.asarray(y).tolist() == [1, 2, 3]
    assert np.asarray(z).tolist() == [1.0, 2.0, 3.0]


def test_asarray_of_numpy_copies_by_default(on_device):
    a = np.arange(3.0)
    x = sy.asarray(a)
    y = x + 1
    a[0] = 9
    assert np.asarray(y).tolist() == [1.0, 2.0, 3.0]
    assert np.asarray(x).tolist() == [0.0, 1.0, 2.0]


def test_shared_numpy_memory_is_read_when_the_work_is_written(on_device):
    n = np.arange(4.0)
    x = sy.asarray(n, copy=False)
    y, c, t = x * 2, x.copy(), x.astype(sy.float32)
    n[:] = 100
    assert np.asarray(y).tolist() == [0.0, 2.0, 4.0, 6.0]
    assert np.asarray(c).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert np.asarray(t).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert np.asarray(x + 0).tolist() == [100.0] * 4  # later work sees the owner's write


def test_writes_into_shared_memory_reach_the_owner(on_device):
    n = np.zeros(8)
    x = sy.asarray(n, copy=False)
    x += 1
    assert n.tolist() == [1.0] * 8
    x[2:4] = 5
    assert n.tolist() == [1, 1, 5, 5, 1, 1, 1, 1]
    del x
    assert n.tolist() == [1, 1, 5, 5, 1, 1, 1, 1]


def test_writes_through_an_export_do_not_reach_earlier_results(on_device):
    x = sy.asarray([1.0, 2.0, 3.0])
    y = x * 2
    view = np.asarray(x)  # lends x's storage to NumPy
    z = x * 3
    view[0] = 10
    assert np.asarray(y).tolist() == [2.0, 4.0, 6.0]
    assert np.asarray(z).tolist() == [3.0, 6.0, 9.0]
    assert np.asarray(x).tolist() == [10.0, 2.0, 3.0]


def test_asarray_copy_false_of_read_only_numpy_raises():
    n = np.arange(3.0)
    n.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        sy.asarray(n, copy=False)
    assert np.asarray(sy.asarray(n)).tolist() == [0.0, 1.0, 2.0]  # copy=None copies


@pytest.mark.parametrize("conversion", [float, int])
def test_float_and_int_of_complex_raise_type_error(conversion):
    with pytest.raises(TypeError):
        conversion(sy.asarray(1 + 2j))
    assert complex(sy.asarray(1 + 2j)) == 1 + 2j


# ---- the property: random programs against NumPy run eagerly

SHAPE = (4, 6)
BASES = {"a": np.float64, "b": np.float64, "i": np.int32, "s": np.float64}


def _tolerance(expected):
    """Orders of evaluation differ (a row sum of 6 terms, sin in vector math): a few dozen
    roundings at the magnitude of the largest value, none for integers."""
    if expected.dtype.kind != "f" or expected.size == 0:
        return 0.0
    finite = np.abs(expected[np.isfinite(expected)])
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    return 64 * np.finfo(expected.dtype).eps * scale


def _derive(kind, x, y):
    """(numpy, switchyard) pairs: the same expression in both, over the same operands."""
    if kind == "mul_add":
        return x * 2 + y
    if kind == "sin":
        return np.sin(x) if isinstance(x, np.ndarray) else sy.sin(x)
    if kind == "sum_rows":
        return x.sum(axis=1) if isinstance(x, np.ndarray) else sy.sum(x, axis=1)
    if kind == "slice":
        return x[1:, ::2] * 3
    if kind == "transpose":
        return x.T + 1
    if kind == "copy":
        return x.copy()
    if kind == "where":
        if isinstance(x, np.ndarray):
            return np.where(x > y, x, y)
        return sy.where(x > y, x, y)
    raise AssertionError(kind)


DERIVE = st.sampled_from(["mul_add", "sin", "sum_rows", "slice", "transpose", "copy", "where"])
WRITE = st.sampled_from(["item", "row", "slice", "iadd", "imul", "view", "mask", "owner"])
NAME = st.integers(min_value=0, max_value=63)  # an index into the names alive, modulo
STEP = st.one_of(
    st.tuples(st.just("derive"), DERIVE, NAME, NAME),
    st.tuples(st.just("write"), WRITE, NAME, st.integers(min_value=-9, max_value=9)),
    st.tuples(st.just("read"), NAME, NAME, st.just(0)),
)


class Program:
    """NumPy and Switchyard side by side: each name holds (numpy value, switchyard array)."""

    def __init__(self):
        rng = np.random.default_rng(7)
        self.owner = (rng.standard_normal(SHAPE) * 2).astype(BASES["s"])  # shared with sy
        self.values = {}
        for name, dtype in BASES.items():
            if name == "s":
                self.values[name] = (self.owner, sy.asarray(self.owner, copy=False))
            else:
                n = (rng.standard_normal(SHAPE) * 4).astype(dtype)
                self.values[name] = (n, sy.asarray(n))

    def names(self):
        return list(self.values)

    def pick(self, index, full_shape=False):
        names = [k for k, (n, _) in self.values.items() if not full_shape or n.shape == SHAPE]
        return names[index % len(names)]

    def derive(self, kind, i, j):
        x, y = self.pick(i, full_shape=True), self.pick(j, full_shape=True)
        (nx, sx), (ny, sy_) = self.values[x], self.values[y]
        if nx.dtype != ny.dtype and kind in ("mul_add", "where"):
            return
        n, s = _derive(kind, nx, ny), _derive(kind, sx, sy_)
        self.values[f"r{len(self.values)}"] = (n, s)

    def write(self, kind, i, value):
        name = self.pick(i)
        n, s = self.values[name]
        if kind == "owner":  # the owner of shared memory writes it directly
            self.owner[value % SHAPE[0]] = value
            return
        if n.ndim == 0:
            return
        if s is self.values["s"][1]:
            n = n.copy()  # the owner's memory is s's: NumPy's side follows through it
        if kind == "item":
            index = (value % n.shape[0],) + (0,) * (n.ndim - 1)
            n[index] = value
            s[index] = value
        elif kind == "row":
            n[value % n.shape[0]] = value
            s[value % n.shape[0]] = value
        elif kind == "slice":
            n[1::2] = value
            s[1::2] = value
        elif kind == "iadd":
            n += n.dtype.type(value)
            s += value
        elif kind == "imul":
            n *= n.dtype.type(value)
            s *= value
        elif kind == "view":  # a write through a view reaches the array it views
            nv, sv = n[::-1], s[::-1]
            nv[0] = value
            sv[0] = value
        elif kind == "mask":
            mask = n > 0
            n[mask] = value
            s[sy.asarray(mask)] = value

    def check(self, name):
        n, s = self.values[name]
        got = np.asarray(s)
        assert got.dtype == n.dtype, name
        np.testing.assert_allclose(got, n, rtol=0, atol=_tolerance(n), err_msg=name)


def _run(steps):
    p = Program()
    for step, kind_or_i, i, j in steps:
        if step == "derive":
            p.derive(kind_or_i, i, j)
        elif step == "write":
            p.write(kind_or_i, i, j)
        else:
            p.check(p.pick(kind_or_i))
    for name in p.names():
        p.check(name)


def _property(device, examples):
    runs = []

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(st.lists(STEP, min_size=1, max_size=12))
    def program(steps):
        runs.append(len(steps))
        _run(steps)

    if device == "auto":
        program()
    else:
        with sy.device(device):
            program()
    assert len(runs) >= examples  # every sequence asked for ran, none skipped


# Thousands of sequences in all: the host devices run many, each OpenCL or CUDA device fewer
# (every new expression is a kernel compile there).
@pytest.mark.parametrize("device", DEVICE_IDS)
def test_random_programs_match_numpy(device):
    _property(device, 1500 if device in ("auto", "cpu:0") else 300)

"""The one order in which the reproducible sums add float64 values, on the host, the same as
C++'s fixed_order_sum (src/dist/fixed_order_sum.hpp), so that both give the same bits: neighbours
added level by level, (v0 + v1), (v2 + v3), ..., an odd last value carried up unchanged, until
one value is left; 0 when there are none. Each level is one NumPy addition of float64 arrays,
rounded exactly as C++ rounds each of its additions."""

import numpy as np


def fixed_order_sums(rows: np.ndarray) -> np.ndarray:
    """The sum of each row of a 2-D float64 array, each in the fixed order."""
    if rows.shape[1] == 0:
        return np.zeros(rows.shape[0])
    while rows.shape[1] > 1:
        pairs = rows.shape[1] // 2
        level = rows[:, 0:2 * pairs:2] + rows[:, 1:2 * pairs:2]
        rows = np.concatenate([level, rows[:, 2 * pairs:]], axis=1)
    return rows[:, 0]


def fixed_order_sum(values: np.ndarray) -> float:
    return float(fixed_order_sums(values.reshape(1, -1))[0])

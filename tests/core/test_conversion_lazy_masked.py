"""Refusing a scalar argument that is no ndarray subclass does not import numpy.ma (about
10 ms on first use of ``np.ma``), while a masked array, another ndarray subclass and a plain
array keep their own reasons."""

import subprocess
import sys

import numpy as np
import pytest

from certdp.core.conversion import exact_scalar
from certdp.core.errors import DPError


class Grid(np.ndarray):
    """An ndarray subclass that is not a masked array."""


PROGRAM = """
import sys
import numpy as np
from certdp.core.conversion import exact_scalar
from certdp.core.errors import DPError
assert "numpy.ma" not in sys.modules
class Sub(int):
    pass
refused = 0
for value in (Sub(3), b"1", 1j, np.datetime64("2020-01-01"), object(), np.zeros(2)):
    try:
        exact_scalar(value, "scale")
    except DPError:
        refused += 1
print(refused, "numpy.ma" in sys.modules)
"""


def test_refusing_a_scalar_does_not_import_numpy_ma():
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["6", "False"]


@pytest.mark.parametrize(
    "value,reason",
    [
        (np.ma.masked_array([1.0, 2.0], mask=[0, 1]), "a masked array is refused"),
        (np.ma.masked_array(1.5), "a masked array is refused"),
        (np.zeros(2).view(Grid), "Grid (an ndarray subclass) is refused"),
        (np.zeros((2, 2)), "expected a scalar, got a 2-d array"),
        (np.datetime64("2020-01-01"), "a time, not a number"),
    ],
)
def test_each_refusal_keeps_its_reason(value, reason):
    with pytest.raises(DPError, match="scale") as raised:
        exact_scalar(value, "scale")
    assert reason in str(raised.value)

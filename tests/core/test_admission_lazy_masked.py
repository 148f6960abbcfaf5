"""Admitting a dataset that is no ndarray subclass does not import numpy.ma (a ~10 ms import
on first use of ``np.ma``), while a masked array is still refused with its own reason."""

import subprocess
import sys

import numpy as np

from certdp.core.admission import snapshot

PROGRAM = """
import sys
import numpy as np
from certdp.core.admission import snapshot
assert "numpy.ma" not in sys.modules
snapshot([1, 2, 3]); snapshot((1.0, 2.0)); snapshot(np.zeros(3)); snapshot("text")
print("numpy.ma" in sys.modules)
"""


def test_plain_datasets_do_not_import_numpy_ma():
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_masked_array_keeps_its_reason():
    assert "masked array is refused" in snapshot(np.ma.masked_array([1.0, 2.0], mask=[0, 1]))
    assert "ndarray subclass" in snapshot(np.matrix([[1.0, 2.0]]))

"""sorted_distinct (samplers/distinct.tex): what np.unique returns for 1-d integer arrays, and
releases through the samplers that use it never import numpy.ma."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.samplers.distinct import sorted_distinct

FLAGS = list(itertools.product([False, True], repeat=3))
DTYPES = {
    "int64": (np.int64, -(2**63), 2**63 - 1),
    "uint64": (np.uint64, 0, 2**64 - 1),
    "intp": (np.intp, int(np.iinfo(np.intp).min), int(np.iinfo(np.intp).max)),
    "int32": (np.int32, -(2**31), 2**31 - 1),
}


def assert_same_as_unique(values: np.ndarray, first: bool, inverse: bool, counts: bool):
    copy = values.copy()
    ours = sorted_distinct(values, first=first, inverse=inverse, counts=counts)
    theirs = np.unique(values, return_index=first, return_inverse=inverse, return_counts=counts)
    assert np.array_equal(values, copy) and values.dtype == copy.dtype  # not modified
    if not (first or inverse or counts):
        assert isinstance(ours, np.ndarray) and isinstance(theirs, np.ndarray)
        ours, theirs = (ours,), (theirs,)
    assert isinstance(ours, tuple) and len(ours) == len(theirs) == 1 + first + inverse + counts
    for mine, expected in zip(ours, theirs):
        assert mine.dtype == expected.dtype
        assert mine.shape == expected.shape
        assert mine.tolist() == expected.tolist()  # exact values (Python ints), in order


def arrays_of(dtype_name: str):
    dtype, low, high = DTYPES[dtype_name]
    edges = st.sampled_from([low, low + 1, -1 if low < 0 else 0, 0, 1, high - 1, high])
    small = st.integers(-3 if low < 0 else 0, 3)
    element = st.one_of(edges, small, st.integers(low, high))
    return st.lists(element, max_size=40).map(lambda xs: np.array(xs, dtype=dtype))


@pytest.mark.parametrize("dtype_name", sorted(DTYPES))
@pytest.mark.parametrize("first, inverse, counts", FLAGS)
@given(data=st.data())
def test_equals_np_unique_on_integer_arrays(dtype_name, first, inverse, counts, data):
    values = data.draw(arrays_of(dtype_name))
    arrangement = data.draw(st.sampled_from(["as drawn", "sorted", "reversed"]))
    if arrangement == "sorted":
        values = np.sort(values)
    elif arrangement == "reversed":
        values = np.sort(values)[::-1].copy()
    assert_same_as_unique(values, first, inverse, counts)


@pytest.mark.parametrize("first, inverse, counts", FLAGS)
@given(values=st.lists(st.integers(-(2**70), 2**70) | st.integers(-3, 3), max_size=30))
def test_equals_np_unique_on_object_arrays_of_python_ints(first, inverse, counts, values):
    array = np.empty(len(values), dtype=object)  # Python ints, beyond int64 too
    array[:] = values
    assert_same_as_unique(array, first, inverse, counts)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.intp, object])
@pytest.mark.parametrize("first, inverse, counts", FLAGS)
def test_empty_one_element_and_all_equal(dtype, first, inverse, counts):
    for values in ([], [7], [5] * 9, [0, 0, 1, 1, 2, 2], [2, 1, 0, 2, 1, 0]):
        assert_same_as_unique(np.array(values, dtype=dtype), first, inverse, counts)


def test_first_indices_are_the_first_occurrences_and_inverse_rebuilds_the_array():
    values = np.array([3, 1, 3, 2, 1, 1, 3], dtype=np.uint64)
    distinct, first, inverse, counts = sorted_distinct(
        values, first=True, inverse=True, counts=True
    )
    assert distinct.tolist() == [1, 2, 3]
    assert first.tolist() == [1, 3, 0]
    assert np.array_equal(distinct[inverse], values)
    assert counts.tolist() == [3, 1, 3]


RELEASES = {
    "float gaussian": """
space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
m = dp.m.make_gaussian(*space, 1.0)
m([0.5] * 1000)
dp.m.make_gaussian(space[0].element_domain, dp.absolute_distance(T=float), 1e6)(0.5)
""",
    "float laplace": """
space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
m = dp.m.make_laplace(*space, 1.0)
m([0.5] * 1000)
dp.m.make_laplace(space[0].element_domain, dp.absolute_distance(T=float), 1e6)(0.5)
""",
    # a guard: NumPy 2.4 imports numpy.ma only for np.unique without return_* flags, which
    # noisy_top_k never made, so this path left numpy.ma unimported before sorted_distinct too
    "noisy top k": """
space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float)
scores = [float(i % 50) for i in range(400)]
for measure in (dp.max_divergence(), dp.zero_concentrated_divergence()):
    dp.m.make_noisy_top_k(*space, measure, k=3, scale=1.0)(scores)
dp.m.make_report_noisy_max_gumbel(*space, scale=1.0, optimize="max")(scores)
""",
}


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_a_release_in_a_fresh_interpreter_leaves_numpy_ma_unimported(name):
    program = (
        "import sys\nimport certdp.prelude as dp\ndp.enable_features('contrib')\n"
        + RELEASES[name]
        + "print('numpy.ma' in sys.modules, 'numpy' in sys.modules)\n"
    )
    src = Path(__file__).resolve().parents[2] / "src"
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]

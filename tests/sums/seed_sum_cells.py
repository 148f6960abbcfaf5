"""The code cells of the seed notebook "Aggregation: Sum" (seed 004), verbatim but for the
import line, and a tiny stand-in for pandas so the plotting cells run without it.

Shared by test_seed_notebook.py (run with ``import certdp.prelude as dp``) and
generate_opendp_seed_reference.py (run with ``import opendp.prelude as dp``).  Nothing here
imports certdp or opendp.
"""

from __future__ import annotations

import contextlib
import io
import sys
import types

SETUP = {
    "certdp": 'import certdp.prelude as dp\ndp.enable_features("contrib")\n',
    "opendp": 'import opendp.prelude as dp\ndp.enable_features("contrib")\n',
}

# (label, source): labels are the notebook's execution counts (or the cell's position).
CELLS = [
    (
        "3",
        """# the space of all integer vectors,
# where distances between vectors are measured by the symmetric distance
input_space = dp.vector_domain(dp.atom_domain(bounds=(0, 10))), dp.symmetric_distance()
""",
    ),
    (
        "sum",
        """sum_trans = input_space >> dp.t.then_sum()

# compute the sum
assert sum_trans([1, 2, 4]) == 7   # 1 + 2 + 4

# compute the sensitivity
assert sum_trans.map(d_in=1) == 10 # d_in * max(|L|, U)
""",
    ),
    (
        "4",
        """# the space of all length-3 integer vectors,
# where distances between vectors are measured by the symmetric distance
input_space = dp.vector_domain(dp.atom_domain(bounds=(-10, 10)), size=3), dp.symmetric_distance()
sum_trans = input_space >> dp.t.then_sum()

# compute the sum
assert sum_trans([1, 2, 4]) == 7   # 1 + 2 + 4

# compute the sensitivity
assert sum_trans.map(d_in=2) == 20 # (d_in // 2) * (U - L)
""",
    ),
    (
        "5",
        """import pandas as pd
pd.DataFrame(
    [(d_in, sum_trans.map(d_in)) for d_in in range(10)],
    columns=["max contributions (symmetric distance)", "sensitivity (absolute distance)"]
).plot.bar(0, title="sized_bounded_sum: $d_{in}$ vs. $d_{out}$", width=0.9);
""",
    ),
    (
        "7",
        """input_space = dp.vector_domain(dp.atom_domain(bounds=(-10., 10.)), size=1000), dp.symmetric_distance()
sum_trans = input_space >> dp.t.then_sum()

# The sensitivity is now slightly larger than 20 because of the floating-point constant term
print(sum_trans.map(d_in=2))
""",
    ),
    (
        "8",
        """# show the worst-case degradation
input_space = dp.vector_domain(dp.atom_domain(bounds=(-10., 10.))), dp.symmetric_distance()
sum_trans = input_space >> dp.t.then_sum()

# the sensitivity is now scaled by max(|L|, U, U - L) = max(|-10.|, 10., 10. - -10.) = 20.
print(sum_trans.map(d_in=1))
""",
    ),
    (
        "9",
        """# if the bounds share sign, the sensitivity is unaffected
input_space = dp.vector_domain(dp.atom_domain(bounds=(-10., 0.))), dp.symmetric_distance()
sum_trans = input_space >> dp.t.then_sum()

# the sensitivity is now scaled by max(|L|, U, U - L) = max(|-10.|, 0., 0. - -10.) = 10.
print(sum_trans.map(d_in=1))
""",
    ),
    (
        "10",
        """print(dp.t.make_bounded_float_checked_sum(size_limit=100, bounds=(-10., 0.)).map(d_in=1))
""",
    ),
    (
        "11",
        """bounds = (0., 10.)
sizes = list(range(1, 10_000_000, 10_000))

pd.DataFrame({
    "dataset size": sizes,
    "sequential": [dp.t.make_sized_bounded_float_checked_sum(size, bounds, S="Sequential<f64>").map(0) for size in sizes],
    "pairwise": [dp.t.make_sized_bounded_float_checked_sum(size, bounds, S="Pairwise<f64>").map(0) for size in sizes],
}).plot(0, ylabel="sensitivity"); # type: ignore
""",
    ),
    (
        "3b",
        """# because of the way this constructor is called...
dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(1, 20))), dp.insert_delete_distance())
# ...it internally uses this constructor to build the transformation:
dp.t.make_bounded_int_ordered_sum(bounds=(1, 20))
""",
    ),
    (
        "18",
        """# Configure the type argument "T" to determine the necessary bit depth to avoid overflow
dp.t.make_sized_bounded_int_checked_sum(1234, (-2, 4), T="i32")
""",
    ),
]

# The cell [10] prints the value the notebook shows as the cell's result.
INTEGER_CELLS = ["3", "sum", "4", "5", "3b", "18"]
FLOAT_CELLS = ["7", "8", "9", "10", "11"]


class _Frame:
    """Records the data a cell hands to ``pd.DataFrame``; plotting does nothing."""

    def __init__(self, data, columns=None, frames=None):
        if isinstance(data, dict):
            self.data = {str(key): list(values) for key, values in data.items()}
        else:
            rows = [list(row) for row in data]
            self.data = {str(name): [row[i] for row in rows] for i, name in enumerate(columns)}
        frames.append(self.data)
        self.plot = _Plot()


class _Plot:
    def __call__(self, *args, **kwargs):
        return None

    def bar(self, *args, **kwargs):
        return None


def fake_pandas(frames: list) -> types.ModuleType:
    module = types.ModuleType("pandas")
    module.DataFrame = lambda data, columns=None: _Frame(data, columns, frames)
    return module


def run_cells(library: str, labels: list[str]) -> dict:
    """Run the setup cell and the cells ``labels`` in order in one namespace; return, per
    cell, the lines it printed and the frames it built."""
    namespace: dict = {}
    results = {}
    saved = sys.modules.get("pandas")
    frames: list = []
    sys.modules["pandas"] = fake_pandas(frames)
    try:
        exec(SETUP[library], namespace)
        sources = dict(CELLS)
        for label in labels:
            printed = io.StringIO()
            before = len(frames)
            with contextlib.redirect_stdout(printed):
                exec(sources[label], namespace)
            results[label] = {"printed": printed.getvalue().splitlines(), "frames": frames[before:]}
    finally:
        if saved is None:
            sys.modules.pop("pandas", None)
        else:
            sys.modules["pandas"] = saved
    return results

"""The seed notebook "Aggregation: Sum" runs unchanged with ``import certdp.prelude as dp``
and shows the seed's numbers, which are also OpenDP 0.16's (opendp_seed_reference.json).

The plotting cells run against a stand-in for pandas (not a dependency of certdp) that
records the data handed to ``pd.DataFrame``; that data is what the plots show.
"""

import json
from pathlib import Path

from tests.sums.seed_sum_cells import FLOAT_CELLS, INTEGER_CELLS, run_cells

REFERENCE = json.loads(Path(__file__).with_name("opendp_seed_reference.json").read_text())

# The numbers printed in the seed document itself.
SEED_PRINTED = {
    "7": ["20.00000000004426"],
    "8": ["20.00000009313226"],
    "9": ["10.00000009313226"],
    "10": ["10.00000000000295"],
}


def test_integer_cells_run_and_show_the_seed_values():
    results = run_cells("certdp", INTEGER_CELLS)  # the assert cells check 7, 10, 7 and 20
    stair = results["5"]["frames"][0]
    assert stair == {
        "max contributions (symmetric distance)": list(range(10)),
        "sensitivity (absolute distance)": [0, 0, 20, 20, 40, 40, 60, 60, 80, 80],
    }
    for label in INTEGER_CELLS:
        assert results[label] == REFERENCE[label], label


def test_reference_agrees_with_the_seed_document():
    for label, printed in SEED_PRINTED.items():
        assert REFERENCE[label]["printed"] == printed


def test_float_cells_print_the_seed_values():
    results = run_cells("certdp", ["3", "sum", "4", "5", *FLOAT_CELLS])
    for label, printed in SEED_PRINTED.items():
        assert results[label]["printed"] == printed, label


def test_float_relaxation_plot_matches_opendp_to_the_last_bit():
    results = run_cells("certdp", ["3", "sum", "4", "5", *FLOAT_CELLS])
    frame = results["11"]["frames"][0]
    expected = REFERENCE["11"]["frames"][0]
    assert frame["dataset size"] == expected["dataset size"]
    for column in ("sequential", "pairwise"):
        mismatches = [
            (size, ours, theirs)
            for size, ours, theirs in zip(frame["dataset size"], frame[column], expected[column])
            if ours != theirs
        ]
        assert not mismatches, f"{column}: {len(mismatches)} differ, first {mismatches[:3]}"

"""``certdp prove`` refutes an unsound map of every bounded sum: each case edits the map that the
sums share (in a temporary copy of the package, :mod:`.edited`) and runs the engine's own step
on one obligation of each sum whose map it changes; every one must give a counterexample.  The
obligations take the map from the real constructor (``built.map``), so the edited map is what
they check."""

import pytest

from .edited import prove_edited

INTEGER = "transformations/_summation/integer_summation.py"
FLOAT = "transformations/_summation/float_summation.py"

UNSIZED_INT = (
    INTEGER,
    "return scaled_distance(d_in, magnitude, T)  # label: unsized-map",
    "return scaled_distance(d_in // 2, magnitude, T)  # label: unsized-map",
)
SIZED_INT = (
    INTEGER,
    "return scaled_distance(d_in // 2, span, T)  # label: sized-map",
    "return scaled_distance(d_in // 4, span, T)  # label: sized-map",
)
UNSIZED_FLOAT = (
    FLOAT,
    "inf_mul(inf_cast(d_in, T), per_record, T), relaxation, T",
    "inf_mul(inf_cast(d_in, T), per_record / 4, T), relaxation, T",
)
SIZED_FLOAT = (
    FLOAT,
    "changed = inf_cast(d_in // 2, T)  # label: map-pairs",
    "changed = inf_cast(d_in // 4, T)  # label: map-pairs",
)

CASES = [
    ("make_bounded_int_monotonic_sum", UNSIZED_INT, "i8 bounds=(0, 127) d_in=1 len<=4"),
    ("make_bounded_int_ordered_sum", UNSIZED_INT, "i8 bounds=(0, 127) d_in=1 len<=4"),
    ("make_bounded_int_split_sum", UNSIZED_INT, "i8 bounds=(0, 127) d_in=1 len<=4"),
    ("make_sized_bounded_int_checked_sum", SIZED_INT, "i8 bounds=(-3, 5) d_in=2 size=4"),
    ("make_sized_bounded_int_monotonic_sum", SIZED_INT, "i8 bounds=(0, 127) d_in=2 size=4"),
    ("make_sized_bounded_int_ordered_sum", SIZED_INT, "i8 bounds=(0, 127) d_in=2 size=4"),
    ("make_sized_bounded_int_split_sum", SIZED_INT, "i8 bounds=(0, 127) d_in=2 size=4"),
    ("make_bounded_float_checked_sum", UNSIZED_FLOAT, "Sequential<f64> bounds=(-1.0, 1.0) d_in=1"),
    ("make_bounded_float_ordered_sum", UNSIZED_FLOAT, "Sequential<f64> bounds=(-1.0, 1.0) d_in=1"),
    (
        "make_sized_bounded_float_checked_sum",
        SIZED_FLOAT,
        "Sequential<f64> bounds=(-1.0, 1.0) d_in=2 size=3",
    ),
    (
        "make_sized_bounded_float_ordered_sum",
        SIZED_FLOAT,
        "Sequential<f64> bounds=(-1.0, 1.0) d_in=2 size=3",
    ),
]


@pytest.mark.parametrize("name, edit, claim", CASES, ids=[case[0] for case in CASES])
def test_an_unsound_sum_map_is_refuted(tmp_path, name, edit, claim):
    file, old, new = edit
    summary = prove_edited(tmp_path, name, {file: [(old, new)]}, select=claim, timeout=120)
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize("name, edit, claim", CASES[:1] + CASES[7:8], ids=["int", "float"])
def test_the_selected_obligations_are_proved_on_the_unedited_code(tmp_path, name, edit, claim):
    """The same obligations prove on the code as it is: the refutations come from the edits."""
    summary = prove_edited(tmp_path, name, {}, select=claim, timeout=120)
    assert summary["status"] == "proved", summary

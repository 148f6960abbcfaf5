"""The row-by-row constructors' models take the map from the real code: an unsound edit of
make_clamp's, make_is_equal's or make_np_clamp's map (half of ``d_in``, rounded down) is
refuted by ``certdp prove``'s own step on an edited copy, and the unedited code is proved."""

import pytest

from .edited import prove_edited

EDITS = {
    "make_clamp": (
        "transformations/clamp/make_clamp.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
    ),
    "make_is_equal": (
        "transformations/is_equal/make_is_equal.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
    ),
    "make_np_clamp": (
        "numpy/np_clamp/make_np_clamp.py",
        "lambda d_in: d_in,  # label: stability-map",
        "lambda d_in: d_in // 2,  # label: stability-map",
    ),
}

SELECT = {"make_clamp": "i8 ", "make_is_equal": "i8 ", "make_np_clamp": "p=1, 1 columns"}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_half_the_map_in_the_code_is_refuted(tmp_path, name):
    file, old, new = EDITS[name]
    summary = prove_edited(tmp_path, name, {file: [(old, new)]}, select=SELECT[name])
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize("name", sorted(EDITS))
def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path, name):
    summary = prove_edited(tmp_path, name, {}, select=SELECT[name])
    assert summary["status"] == "proved", summary

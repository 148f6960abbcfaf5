"""certdp's float sums against the committed OpenDP 0.16 table, bit for bit.

The table (opendp_float_reference.json, written by generate_opendp_float_reference.py under
OpenDP 0.16) records, for every float sum constructor, strategy, size and bounds of a grid
that includes every overflow-refusal boundary: whether construction is refused, the map at
``d_in = 0..4`` (as ``float.hex``, or an error) and the sums of fixed datasets.

certdp must reproduce every value with the same bits and refuse exactly where OpenDP refuses,
with one deliberate exception: a saturating *pairwise* ordered sum of three or more records
with bounds of both signs that could overflow, whose OpenDP map is refuted in
test_float_attacks.py; certdp refuses those.
"""

import json
from pathlib import Path

import pytest

import certdp.prelude as dp
from certdp.core.errors import ArithmeticOverflowError, DPError
from certdp.transformations._summation.float_summation import overflow_possible, parse_summation

from .generate_opendp_float_reference import dataset

TABLE = json.loads(Path(__file__).with_name("opendp_float_reference.json").read_text())
ENTRIES = TABLE["entries"]
CONSTRUCTORS = sorted({entry["constructor"] for entry in ENTRIES})


def _bounds(entry):
    return tuple(float.fromhex(value) for value in entry["bounds"])


def _deliberate_refusal(entry) -> bool:
    """The cases where certdp refuses a saturating pairwise sum that OpenDP accepts."""
    lower, upper = _bounds(entry)
    summation = parse_summation(entry["S"])
    return (
        "ordered" in entry["constructor"]
        and summation.algorithm == "Pairwise"
        and entry["size"] >= 3
        and lower < 0.0 < upper
        and overflow_possible(summation, entry["size"], lower, upper)
    )


def test_table_covers_the_grid():
    assert TABLE["opendp_version"] == "0.16.0"
    assert CONSTRUCTORS == [
        "make_bounded_float_checked_sum",
        "make_bounded_float_ordered_sum",
        "make_sized_bounded_float_checked_sum",
        "make_sized_bounded_float_ordered_sum",
    ]
    assert {entry["S"] for entry in ENTRIES} == {
        "Sequential<f32>",
        "Sequential<f64>",
        "Pairwise<f32>",
        "Pairwise<f64>",
    }
    assert {entry["size"] for entry in ENTRIES} == {0, 1, 2, 3, 10, 100, 1000, 12345, 2**20}
    refusals = [entry for entry in ENTRIES if "refused" in entry]
    overflow = [entry for entry in refusals if "potential for overflow" in entry["refused"]]
    assert len(overflow) > 500  # the boundary cases are in the table
    assert sum(len(entry.get("sums", [])) for entry in ENTRIES) > 10_000


@pytest.mark.parametrize("constructor", CONSTRUCTORS)
def test_same_refusals_maps_and_sums(constructor):
    checked_maps = checked_sums = 0
    for entry in (entry for entry in ENTRIES if entry["constructor"] == constructor):
        bounds = _bounds(entry)
        where = f"{constructor}({entry['size']}, {bounds}, S={entry['S']})"
        try:
            built = getattr(dp.t, constructor)(entry["size"], bounds, S=entry["S"])
        except DPError as error:
            assert "refused" in entry or _deliberate_refusal(entry), f"{where}: {error}"
            if "refused" not in entry:
                assert isinstance(error, ArithmeticOverflowError) and error.parameter == "S"
            continue
        assert "refused" not in entry, f"{where}: OpenDP refused ({entry['refused']}), we built"
        assert not _deliberate_refusal(entry), where
        for d_in, recorded in entry["maps"].items():
            if recorded.startswith("error"):
                with pytest.raises(DPError):
                    built.map(int(d_in))
            else:
                assert built.map(int(d_in)).hex() == recorded, f"{where}.map({d_in})"
                checked_maps += 1
        for length, recorded in entry["sums"]:
            data = dataset(bounds, length, entry["S"][-4:-1])
            assert float(built(data)).hex() == recorded, f"{where} on {length} records"
            checked_sums += 1
    assert checked_maps > 1000 and checked_sums > 500


def test_deliberate_refusals_are_few_and_named():
    deliberate = [
        entry for entry in ENTRIES if _deliberate_refusal(entry) and "refused" not in entry
    ]
    assert 0 < len(deliberate) < 0.03 * len(ENTRIES)
    assert all(entry["S"].startswith("Pairwise") for entry in deliberate)

"""certdp's make_mean against the committed OpenDP 0.16 table, bit for bit.

The table (opendp_mean_reference.json, written by generate_opendp_mean_reference.py under
OpenDP 0.16) records, for f32 and f64, both dataset metrics, and a grid of sizes and bounds:
whether construction is refused, the map at ``d_in = 0..4`` (as ``float.hex``, or an error)
and the means of fixed datasets.

Deliberate differences, each checked here rather than skipped:

* OpenDP 0.16 refuses every mean under the insert-delete distance (its sum's output domain
  does not match the multiplication's input domain: ``DomainMismatch``); certdp builds them,
  with the same map as under the symmetric distance, and the same means where the sum is the
  checked sum (which does not depend on the order of the records);
* where certdp's sum refuses a saturating pairwise sum that OpenDP accepts (bounds of both
  signs that could overflow; see tests/sums/test_float_opendp_reference.py), the mean is
  refused too.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError
from certdp.transformations._summation.float_summation import (
    can_float_sum_overflow,
    overflow_possible,
    parse_summation,
)

from .generate_opendp_mean_reference import dataset

TABLE = json.loads(Path(__file__).with_name("opendp_mean_reference.json").read_text())
ENTRIES = TABLE["entries"]
SYMMETRIC = {
    (entry["T"], entry["size"], tuple(entry["bounds"])): entry
    for entry in ENTRIES
    if entry["metric"] == "symmetric_distance"
}


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _bounds(entry):
    return tuple(float.fromhex(value) for value in entry["bounds"])


def _build(entry):
    domain = dp.vector_domain(
        dp.atom_domain(bounds=_bounds(entry), T=entry["T"]), size=entry["size"]
    )
    return dp.t.make_mean(domain, getattr(dp, entry["metric"])())


def _saturating_pairwise_refusal(entry) -> bool:
    lower, upper = _bounds(entry)
    summation = parse_summation(f"Pairwise<{entry['T']}>")
    return (
        entry["size"] >= 3
        and lower < 0.0 < upper
        and overflow_possible(summation, entry["size"], lower, upper)
    )


def test_the_issue_number():
    domain = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0)), size=100)
    assert dp.t.make_mean(domain, dp.symmetric_distance()).map(2) == 0.10000000000003129


def test_table_covers_the_grid():
    assert TABLE["opendp_version"] == "0.16.0"
    assert {entry["T"] for entry in ENTRIES} == {"f32", "f64"}
    assert len(SYMMETRIC) * 2 == len(ENTRIES)
    accepted = [entry for entry in ENTRIES if "refused" not in entry]
    assert len(accepted) > 250 and sum(len(entry["means"]) for entry in accepted) > 400


@pytest.mark.parametrize(
    "entry",
    ENTRIES,
    ids=[f"{e['T']}-{e['metric'][:3]}-{e['size']}-{e['bounds']}" for e in ENTRIES],
)
def test_reproduces_opendp(entry):
    reference = SYMMETRIC[(entry["T"], entry["size"], tuple(entry["bounds"]))]
    if entry["metric"] == "insert_delete_distance":
        assert entry.get("refused", "").startswith(("DomainMismatch", "FailedCast", "Overflow"))
    if "refused" in reference or _saturating_pairwise_refusal(entry):
        with pytest.raises(DPError):
            _build(entry)
        return
    built = _build(entry)
    for d_in, expected in reference["maps"].items():
        if expected.startswith("error"):
            with pytest.raises(DPError):
                built.map(int(d_in))
        else:
            assert float(built.map(int(d_in))).hex() == expected, f"map({d_in})"
    for variant, expected in reference["means"]:
        data = dataset(_bounds(entry), entry["size"], entry["T"], variant)
        got = built(data)
        if entry["metric"] == "insert_delete_distance" and can_float_sum_overflow(
            entry["size"], _bounds(entry), f"Pairwise<{entry['T']}>"
        ):
            # the saturating sum in reading order (OpenDP sorts first only under the
            # symmetric distance, and has no insert-delete mean): only the map compares
            assert _bounds(entry)[0] <= got <= _bounds(entry)[1]
            continue
        assert float(got).hex() == expected, f"mean of dataset {variant}"


def test_f32_data_as_a_numpy_array():
    domain = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0), T="f32"), size=3)
    t = dp.t.make_mean(domain, dp.symmetric_distance())
    # as OpenDP: the sum times 1/3 rounded to f32, the product rounded to f32 -- one ulp above
    # the f32 nearest to 7/3
    expected = float(np.float32(7.0) * np.float32(1 / 3))
    assert t(np.array([1.0, 2.0, 4.0], dtype=np.float32)) == expected == 2.3333334922790527
    assert expected > float(np.float32(7 / 3))

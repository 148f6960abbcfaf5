"""certdp's integer sums and make_sum's dispatch against the committed OpenDP 0.16 table.

The table (tests/sums/opendp_int_reference.json, written by
generate_opendp_int_reference.py) records, over a grid of types, bounds, sizes and d_in:
construction refusals, map values and errors, and outputs on fixed (often saturating)
datasets.  Every recorded value must be reproduced exactly, and every recorded error by an
error of the same variant.
"""

import json
from pathlib import Path

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError

TABLE = json.loads(Path(__file__).with_name("opendp_int_reference.json").read_text())
CASES = TABLE["cases"]


def _build(case):
    args = case["args"]
    bounds = tuple(args["bounds"])
    if case["constructor"] == "make_sum":
        metric = {"symmetric": dp.symmetric_distance, "insert_delete": dp.insert_delete_distance}
        domain = dp.vector_domain(dp.atom_domain(bounds=bounds, T=args["T"]), size=args["size"])
        return dp.t.make_sum(domain, metric[args["metric"]]())
    constructor = getattr(dp.t, case["constructor"])
    if "size" in args:
        return constructor(args["size"], bounds, T=args["T"])
    return constructor(bounds, T=args["T"])


def _assert_same_error(raised: DPError, recorded: dict, where: str):
    variant = recorded["error"]
    if variant.startswith("python:"):
        return  # OpenDP refused in its Python layer; any typed error of ours will do
    assert raised.variant == variant, f"{where}: {type(raised).__name__} ({raised}) vs {recorded}"


def _label(case):
    return f"{case['constructor']}{case['args']}"


def test_table_covers_the_grid():
    assert TABLE["opendp_version"] == "0.16.0"
    constructors = {case["constructor"] for case in CASES}
    assert constructors == {
        "make_sized_bounded_int_checked_sum",
        "make_bounded_int_monotonic_sum",
        "make_sized_bounded_int_monotonic_sum",
        "make_bounded_int_ordered_sum",
        "make_sized_bounded_int_ordered_sum",
        "make_bounded_int_split_sum",
        "make_sized_bounded_int_split_sum",
        "make_sum",
    }
    assert {case["args"]["T"] for case in CASES} == {"i32", "i64", "u32", "u64", "usize"}
    saturating = [
        case
        for case in CASES
        if case["construction"] == "ok"
        and any(
            output in (2**31 - 1, -(2**31), 2**32 - 1, 2**63 - 1, -(2**63), 2**64 - 1)
            for _, output in case["outputs"]
        )
    ]
    assert len(saturating) > 100
    refusals = {case["construction"]["error"] for case in CASES if case["construction"] != "ok"}
    assert refusals == {"MakeDomain", "MakeTransformation", "Overflow"}


@pytest.mark.parametrize("chunk", range(8))
def test_certdp_reproduces_opendp(chunk):
    checked = 0
    for case in CASES[chunk::8]:
        where = _label(case)
        recorded = case["construction"]
        if recorded != "ok":
            with pytest.raises(DPError) as refusal:
                _build(case)
            _assert_same_error(refusal.value, recorded, where)
            continue
        transformation = _build(case)
        for d_in, expected in case["maps"]:
            if isinstance(expected, dict):
                with pytest.raises(DPError) as failure:
                    transformation.map(d_in)
                _assert_same_error(failure.value, expected, f"{where} map({d_in})")
            else:
                value = transformation.map(d_in)
                assert type(value) is int and value == expected, f"{where} map({d_in}) = {value}"
        for data, expected in case["outputs"]:
            assert not isinstance(expected, dict), f"OpenDP failed on {where} {data}"
            value = transformation(data)
            assert type(value) is int and value == expected, f"{where}({data}) = {value}"
        checked += 1
    assert checked > 100

"""certdp's make_laplace against OpenDP 0.16's, case by case (opendp_reference.json).

Map values must agree to the bit, refusals must be refusals (typed errors), and
deterministic releases (scale 0) must be the same floats, sign of zero included.
"""

import json
import math
from pathlib import Path

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedMapError

REFERENCE = json.loads(Path(__file__).with_name("opendp_reference.json").read_text())["cases"]


def decode(value):
    if isinstance(value, dict):
        return float.fromhex(value["float"])
    if isinstance(value, list):
        return [decode(item) for item in value]
    return value


def space(case):
    T = case["T"]
    D = case.get("D", T)  # the distance type: a float one over integers in some cases
    atom = dp.atom_domain(T=T, nan=False) if T.startswith("f") else dp.atom_domain(T=T)
    if case["shape"] == "atom":
        return atom, dp.absolute_distance(T=D)
    return dp.vector_domain(atom, size=case["size"]), dp.l1_distance(T=D)


def same_float(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a.hex() == b.hex() or (math.isnan(a) and math.isnan(b))
    return a == b and type(a) is type(b)


def label(case) -> str:
    distance = f"-D{case['D']}" if "D" in case else ""
    return (
        f"{case['shape']}-{case['T']}{distance}-size{case['size']}-scale{case['scale']['repr']}"
        f"-k{case['k']}"
    )


@pytest.mark.parametrize("case", REFERENCE, ids=[label(case) for case in REFERENCE])
def test_agrees_with_opendp(case):
    arguments = (*space(case), decode(case["scale"]))
    if "construct_error" in case:
        with pytest.raises(DPError):
            dp.m.make_laplace(*arguments, k=case["k"])
        return
    measurement = dp.m.make_laplace(*arguments, k=case["k"])
    for entry in case["maps"]:
        d_in = decode(entry["d_in"])
        if "map_error" in entry:
            with pytest.raises(FailedMapError):
                measurement.map(d_in)
        else:
            ours, theirs = measurement.map(d_in), decode(entry["map"])
            assert same_float(ours, theirs), f"map({d_in!r}) = {ours!r}, OpenDP {theirs!r}"
    if "release" in case:
        ours, theirs = measurement(decode(case["release_input"])), decode(case["release"])
        if isinstance(theirs, list):
            assert len(ours) == len(theirs)
            assert all(same_float(a, b) for a, b in zip(ours, theirs)), (ours, theirs)
        else:
            assert same_float(ours, theirs), (ours, theirs)

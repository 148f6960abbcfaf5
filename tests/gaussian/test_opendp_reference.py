"""certdp's make_gaussian and zCDP/approximate-DP combinators against OpenDP 0.16's, case by
case (opendp_reference.json, written by generate_opendp_reference.py).

Map values must agree to the bit, refusals must be refusals (typed errors), and
deterministic releases (scale 0) must be the same floats.
"""

import json
import math
from pathlib import Path

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedMapError

DATA = json.loads(Path(__file__).with_name("opendp_reference.json").read_text())
REFERENCE = DATA["cases"]
#: The epsilons and deltas at which generate_opendp_reference.py read the profiles.
EPSILONS = [0.0, 0.01, 0.5, 1.0, 2.4190931768671953, 5.0, 20.0]
DELTAS = [1e-3, 1e-6, 1e-9, 1e-12, 0.5]


def decode(value):
    if isinstance(value, dict):
        return float.fromhex(value["float"])
    if isinstance(value, list):
        return [decode(item) for item in value]
    return value


def space(shape, T, size):
    atom = dp.atom_domain(T=T, nan=False) if T.startswith("f") else dp.atom_domain(T=T)
    if shape == "atom":
        return atom, dp.absolute_distance(T=T)
    return dp.vector_domain(atom, size=size), dp.l2_distance(T=T)


def same_float(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a.hex() == b.hex() or (math.isnan(a) and math.isnan(b))
    return a == b and type(a) is type(b)


def label(case) -> str:
    return (
        f"{case['shape']}-{case['T']}-size{case['size']}-scale{case['scale']['repr']}-k{case['k']}"
    )


@pytest.mark.parametrize("case", REFERENCE, ids=[label(case) for case in REFERENCE])
def test_gaussian_agrees_with_opendp(case):
    arguments = (*space(case["shape"], case["T"], case["size"]), decode(case["scale"]))
    if "construct_error" in case:
        with pytest.raises(DPError):
            dp.m.make_gaussian(*arguments, k=case["k"])
        return
    measurement = dp.m.make_gaussian(*arguments, k=case["k"])
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


def test_issue_reference_value_integer_gaussian():
    measurement = dp.m.make_gaussian(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 2.0)
    assert measurement.map(1) == 0.125


# --- combinators and search ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "record", DATA["conversions"], ids=lambda r: f"{r['T']}-{r['scale']['repr']}-{r['d_in']}"
)
def test_zcdp_to_approxdp_agrees_with_opendp(record):
    T, scale, d_in = record["T"], decode(record["scale"]), decode(record["d_in"])
    gaussian = dp.m.make_gaussian(*space("vector", T, None), scale)
    assert same_float(gaussian.map(d_in), decode(record["rho"]))
    profile = dp.c.make_zCDP_to_approxDP(gaussian)
    curve = profile.map(d_in)
    for epsilon, delta in zip(EPSILONS, record["deltas"]):
        assert same_float(curve.delta(epsilon), decode(delta)), epsilon
    for delta, epsilon in zip(DELTAS, record["epsilons"]):
        assert same_float(curve.epsilon(delta), decode(epsilon)), delta
    for delta, pair in zip(DELTAS, record["fixed"]):
        ours = dp.c.make_fix_delta(profile, delta).map(d_in)
        assert all(same_float(a, b) for a, b in zip(ours, decode(pair))), (ours, pair)


@pytest.mark.parametrize(
    "record", DATA["pure_to_zcdp"], ids=lambda r: f"{r['scale']['repr']}-{r['d_in']['repr']}"
)
def test_pure_to_zcdp_agrees_with_opendp(record):
    laplace = dp.m.make_laplace(*space("atom", "f64", None), decode(record["scale"]))
    ours = dp.c.make_pureDP_to_zCDP(laplace).map(decode(record["d_in"]))
    assert same_float(ours, decode(record["rho"]))


@pytest.mark.parametrize("record", DATA["compositions"], ids=lambda r: r["measure"])
def test_composition_agrees_with_opendp(record):
    make = dp.m.make_gaussian if record["measure"] == "zCDP" else dp.m.make_laplace
    parts = [make(*space("atom", "f64", None), decode(s)) for s in record["scales"]]
    composed = dp.c.make_composition(parts)
    for d_in, theirs in record["maps"]:
        ours = composed.map(decode(d_in))
        # certdp rounds the exact sum once, OpenDP each partial sum: never above OpenDP's
        assert ours <= decode(theirs)
        assert same_float(ours, decode(theirs)), (d_in, ours, theirs)


def make_search_chain(name, parameter):
    """The chains of generate_opendp_reference.py, in certdp."""
    atom = space("atom", "f64", None)
    vector = space("vector", "f64", None)
    if name == "laplace-scale":
        return dp.m.make_laplace(*atom, parameter)
    if name == "gaussian-scale-zcdp":
        return dp.m.make_gaussian(*vector, parameter)
    if name == "gaussian-scale-approx":
        return dp.c.make_fix_delta(
            dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*vector, parameter)), 1e-6
        )
    if name == "integer-gaussian-scale":
        return dp.m.make_gaussian(*space("atom", "i32", None), parameter)
    raise ValueError(name)


@pytest.mark.parametrize("record", DATA["searches"], ids=lambda r: r["chain"])
def test_binary_search_param_agrees_with_opendp(record):
    d_in, d_out = decode(record["d_in"]), decode(record["d_out"])
    d_out = tuple(d_out) if isinstance(d_out, list) else d_out
    chain = lambda parameter: make_search_chain(record["chain"], parameter)  # noqa: E731
    found = dp.binary_search_param(chain, d_in, d_out)
    assert same_float(found, decode(record["found"]))
    assert chain(found).check(d_in, d_out)
    assert not chain(math.nextafter(found, 0)).check(d_in, d_out)  # nearest passing value


def test_issue_reference_value_zcdp_to_approxdp():
    gaussian = dp.m.make_gaussian(*space("vector", "f64", None), 2.0)
    pair = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), 1e-6).map(1.0)
    assert pair == (2.4190931768671953, 1e-6)


@pytest.mark.parametrize("record", DATA["chains"], ids=lambda r: f"{r['bounds']}-{r['size']}")
def test_sum_then_gaussian_chain_agrees_with_opendp(record):
    bounds = tuple(decode(record["bounds"]))
    space = (
        dp.vector_domain(dp.atom_domain(bounds=bounds), size=record["size"]),
        dp.symmetric_distance(),
    )
    measurement = space >> dp.t.then_sum() >> dp.m.then_gaussian(decode(record["scale"]))
    for d_in, theirs in record["maps"]:
        assert same_float(measurement.map(d_in), decode(theirs)), d_in

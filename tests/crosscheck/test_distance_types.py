"""The pair search passes the target's map a distance of the metric's own type (OpenDP takes a
Python int for an integer type and raises on a Fraction or a sympy number), rounded up; a pair
the target refuses is counted as unchecked, with its reason, never as checked or passing."""

import json
import math
from fractions import Fraction

import pytest
import sympy

import certdp.crosscheck
import certdp.prelude as dp
from certdp.crosscheck.distances import UnrepresentableDistance, distance_type, for_target
from certdp.crosscheck.report import summary, to_json
from certdp.crosscheck.search import (
    Counterexample,
    Unchecked,
    output_metric,
    search_pairs,
    try_pair,
)
from certdp.numeric import inf_cast

from .helpers import run_reproducer

REFUSING = "tests.crosscheck.refusing_prelude"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


# -- the conversion ----------------------------------------------------------------------------
def test_an_integer_type_gets_the_ceiling_as_a_python_int():
    metric = dp.l1_distance(T="i32")
    assert distance_type(metric) == "i32"
    for exact, expected in [(Fraction(3), 3), (Fraction(5, 2), 3), (Fraction(-1, 2), 0)]:
        value = for_target(metric, exact)
        assert type(value) is int and value == expected
    l2 = dp.l2_distance(T="i64")
    for exact, expected in [(sympy.Integer(4), 4), (sympy.sqrt(2), 2), (sympy.sqrt(9), 3)]:
        value = for_target(l2, exact)
        assert type(value) is int and value == expected and value >= exact
    assert for_target(dp.symmetric_distance(), 7) == 7


def test_a_float_type_gets_the_least_float_at_least_the_distance():
    f64, f32 = dp.absolute_distance(T="f64"), dp.absolute_distance(T="f32")
    tenth = Fraction(1, 10)
    up = for_target(f64, tenth)
    assert type(up) is float and Fraction(up) >= tenth
    assert Fraction(math.nextafter(up, 0.0)) < tenth  # the least such float
    up32 = for_target(f32, tenth)
    assert Fraction(up32) >= tenth and up32 != up  # an f32 value (0.1 rounds up in f32)
    root = for_target(dp.l2_distance(T="f64"), sympy.sqrt(2))
    assert Fraction(root) ** 2 >= 2 > Fraction(math.nextafter(root, 0.0)) ** 2
    assert for_target(f64, Fraction(10) ** 400) == math.inf  # past the largest f64
    assert for_target(f64, sympy.sqrt(sympy.Rational(1, 10**700))) == 5e-324


def test_no_integer_distance_for_an_infinite_one():
    with pytest.raises(UnrepresentableDistance, match="infinite"):
        for_target(dp.hamming_distance(), math.inf)
    with pytest.raises(UnrepresentableDistance):
        for_target(dp.l1_distance(T="i32"), sympy.oo)


def test_a_tuple_type_is_converted_part_by_part():
    class Partition:
        distance_type = "(u32, f64, f64)"

    third = Fraction(1, 3)
    converted = for_target(Partition(), (Fraction(1), third, 2))
    assert converted == (1, inf_cast(third, "f64"), 2.0) and type(converted[0]) is int
    assert Fraction(converted[1]) > third


def test_an_unknown_type_keeps_the_value_but_gives_an_exact_integer_as_int():
    assert type(for_target(object(), Fraction(4))) is int
    assert for_target(object(), Fraction(7, 2)) == Fraction(7, 2)


# -- the search, on a stand-in as strict as OpenDP ---------------------------------------------
class _Strict:
    """certdp's b-ary tree over L1(i32), with a map that takes a Python int only (as OpenDP's
    does) and claims half the true sensitivity (rounded down): pairs at distance 1 or more
    exceed it."""

    def __init__(self):
        domain = dp.vector_domain(dp.atom_domain(bounds=(0, 1), T="i32"), size=4)
        self.built = dp.t.make_b_ary_tree(domain, dp.l1_distance(T="i32"), 4, 2)
        self.input_metric, self.output_metric = self.built.input_metric, self.built.output_metric
        self.input_domain = self.built.input_domain
        self.received = []

    def __call__(self, data):
        return self.built(data)

    def map(self, d_in):
        self.received.append(d_in)
        if type(d_in) is not int:
            raise TypeError(f"the distance must be an int, not {type(d_in).__name__}")
        return self.built.map(d_in) // 2


def test_an_integer_distance_twin_is_searched_with_int_distances():
    """The old search passed the exact Fraction: the strict map refused every pair, so the
    halved map was never caught; now the pair is checked at an int distance and caught."""
    target = _Strict()
    space = (target.input_domain, target.input_metric)
    found = search_pairs(target, space, quick=True, random_examples=0)
    assert target.received and all(type(d) is int for d in target.received)
    assert isinstance(found.found, Counterexample)
    assert type(found.found.d_in) is int
    assert Fraction(found.found.actual) > Fraction(found.found.claimed)


class _Refusing(_Strict):
    def map(self, d_in):
        raise OverflowError("the stand-in refuses every distance")


def test_a_refused_distance_leaves_the_pair_unchecked():
    target = _Refusing()
    metric = output_metric(target.output_metric)
    outcome = try_pair(target, target.input_metric, metric, [0, 0, 0, 0], [1, 0, 0, 0])
    assert isinstance(outcome, Unchecked)
    assert "OverflowError" in outcome.reason and outcome.escape is None
    space = (target.input_domain, target.input_metric)
    found = search_pairs(target, space, quick=True, random_examples=0)
    assert found.found is None
    assert found.pairs > 0 and found.unchecked == found.pairs  # not one pair counts as passing
    assert sum(found.reasons.values()) == found.unchecked


def test_a_run_reports_refused_pairs_as_unchecked_with_their_reason():
    """A prelude whose make_clamp maps refuse every distance: its pairs are unchecked in the
    twin's result, the JSON and the summary, and none is counted as checked."""
    report = certdp.crosscheck(REFUSING, ["make_clamp"], quick=True)
    (result,) = report.results
    assert result.built > 0 and result.pairs == 0
    assert result.unchecked_pairs > 0
    assert any("refuses every distance" in reason for reason in result.unchecked_reasons)
    assert sum(result.unchecked_reasons.values()) == result.unchecked_pairs
    data = json.loads(to_json(report))
    assert data["pairs_checked"] == 0 and data["pairs_unchecked"] == result.unchecked_pairs
    assert data["twins"][0]["unchecked_pairs"] == result.unchecked_pairs
    assert f"0 pairs checked, {result.unchecked_pairs} unchecked" in summary(report)


# -- OpenDP itself ------------------------------------------------------------------------------
@pytest.fixture
def odp():
    opendp = pytest.importorskip("opendp.prelude")
    opendp.enable_features("contrib")
    return opendp


def _opendp_tree(odp, metric):
    domain = odp.vector_domain(odp.atom_domain(T="i32"))
    return odp.t.make_b_ary_tree(domain, metric(T="i32"), 4, 2)


@pytest.mark.parametrize("name", ["l1_distance", "l2_distance"])
def test_opendp_tree_wrap_is_found_by_the_generic_pair_check(odp, name, tmp_path):
    """OpenDP 0.16's make_b_ary_tree over L1(i32)/L2(i32) wraps a branch sum at the type's
    limit; the old pair check passed OpenDP the exact distance (Fraction(1), sympy's 1), which
    OpenDP refuses, and reported nothing; now it passes the int 1 and finds the pair."""
    built = _opendp_tree(odp, getattr(odp, name))
    metric = getattr(dp, name)(T="i32")
    x, x_prime = [2**31 - 1, 0, 0, 0], [2**31 - 1, 1, 0, 0]
    found = try_pair(built, metric, output_metric(built.output_metric), x, x_prime)
    assert isinstance(found, Counterexample)
    assert type(found.d_in) is int and found.d_in == 1
    assert found.claimed == 3  # OpenDP's map(1): one change per layer
    from certdp.crosscheck.reproducer import pair_script

    script = pair_script(
        "opendp.prelude",
        f"dp.t.make_b_ary_tree(dp.vector_domain(dp.atom_domain(T='i32')), "
        f"dp.{name}(T='i32'), 4, 2)",
        False,
        x,
        x_prime,
        str(metric),
        str(built.output_metric),
        found.d_in,
    )
    result = run_reproducer(script, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "REPRODUCED" in result.stdout and "import certdp" not in script


def test_opendp_refusing_a_distance_is_unchecked(odp):
    """x and x' at L1 distance 2**32 - 1, beyond i32: OpenDP's map raises, the pair is
    unchecked with OpenDP's reason."""
    built = _opendp_tree(odp, odp.l1_distance)
    metric = dp.l1_distance(T="i32")
    x, x_prime = [-(2**31), 0, 0, 0], [2**31 - 1, 0, 0, 0]
    outcome = try_pair(built, metric, output_metric(built.output_metric), x, x_prime)
    assert isinstance(outcome, Unchecked)
    assert "not representable by i32" in outcome.reason


def test_opendp_float_metric_is_passed_a_float(odp):
    """make_lipschitz_float_mul over AbsoluteDistance(f64): the exact distance between 0.1 and
    0.2 (a Fraction) is passed as the least f64 at least it, which OpenDP accepts."""
    space = odp.atom_domain(T="f64", nan=False), odp.absolute_distance(T="f64")
    built = odp.t.make_lipschitz_float_mul(*space, 2.0, (0.0, 10.0))
    metric = dp.absolute_distance(T="f64")
    outcome = try_pair(built, metric, output_metric(built.output_metric), 0.1, 0.2)
    assert outcome is None  # checked, and within the map


def test_the_recorded_full_run_holds_tree_wraps_the_pair_search_found(tmp_path):
    """Recorded after the fix: on the full grid the generic pair search, now passing OpenDP int
    distances, finds make_b_ary_tree's wrapped branch sums at points of its own (i32, i64 and
    u32); each such finding was passed an int distance and reproduces with OpenDP alone."""
    pytest.importorskip("opendp")
    from .helpers import ROOT

    data = json.loads((ROOT / "docs/guide/data/crosscheck-opendp-0.16.0.json").read_text())
    found = [
        f for f in data["findings"] if f["twin"] == "make_b_ary_tree" and f["check"] == "search"
    ]
    assert len(found) >= 5
    assert all(f["severity"] == "violation" and f["d_in"].isdigit() for f in found)
    tree = next(t for t in data["twins"] if t["twin"] == "make_b_ary_tree")
    assert tree["unchecked_pairs"] > 0 and tree["pairs"] > 0
    assert not any("UnknownTypeException" in reason for reason in tree["unchecked_reasons"])
    bad = []
    for index, finding in enumerate(found):
        folder = tmp_path / str(index)
        folder.mkdir()
        result = run_reproducer(finding["reproducer"], folder)
        if result.returncode != 1 or "REPRODUCED" not in result.stdout:
            bad.append((finding["point"], result.stdout[-300:], result.stderr[-300:]))
    assert not bad, bad


def test_a_pair_script_refuses_a_distance_below_the_pair(tmp_path):
    """The reproducer passes the search's d_in only after checking exactly that the pair is
    within it: a d_in below the pair's distance exits 2 (not reproduced), never 1."""
    from certdp.crosscheck.reproducer import pair_script

    code = "dp.t.make_clamp(dp.vector_domain(dp.atom_domain(T='i32')), dp.symmetric_distance(), (0, 1))"
    args = ("certdp.prelude", code, False, [0, 1], [0], "SymmetricDistance()")
    below = run_reproducer(pair_script(*args, "SymmetricDistance()", 0), tmp_path)
    assert below.returncode == 2 and "not within" in below.stdout, below.stdout + below.stderr
    within = run_reproducer(pair_script(*args, "SymmetricDistance()", 1), tmp_path)
    assert within.returncode == 0 and "not reproduced" in within.stdout, within.stderr

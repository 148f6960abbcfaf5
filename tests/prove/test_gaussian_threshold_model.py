"""The SMT model of make_gaussian_threshold: its closeness encoding is the metric's on concrete
pairs, its obligations are proved on the real code, and edits of the code that shrink delta or
rho are refuted with a pair."""

from __future__ import annotations

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.measurements.gaussian_threshold.smt_model import (
    KEYS,
    close,
    code_instance,
    pair_variables,
)
from certdp.prove.engine import solve

from .edited import prove_edited

FILE = "measurements/gaussian_threshold/make_gaussian_threshold.py"
NAMES = [str(k) for k in range(KEYS)]
METRIC = dp.l02inf_distance(dp.absolute_distance(T="i32"))


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_gaussian_threshold is not vetted in this branch yet


def _substitute(keys, x, y):
    pairs = []
    for index, key in enumerate(keys):
        name = NAMES[index]
        pairs += [
            (key["on_x"], z3.BoolVal(name in x)),
            (key["on_y"], z3.BoolVal(name in y)),
            (key["x"], z3.IntVal(x.get(name, 0))),
            (key["y"], z3.IntVal(y.get(name, 0))),
        ]
    return pairs


maps = st.dictionaries(st.sampled_from(NAMES), st.integers(-20, 20), max_size=KEYS)
triples = st.tuples(st.integers(0, 4), st.integers(0, 30), st.integers(0, 12))


@given(x=maps, y=maps, d_in=triples)
def test_the_closeness_encoding_is_the_metric(x, y, d_in):
    keys = pair_variables()
    formula = z3.substitute(close(keys, d_in), *_substitute(keys, x, y))
    assert z3.is_true(z3.simplify(formula)) == METRIC.close(x, y, d_in)


def test_the_obligations_are_proved_on_the_real_code():
    for threshold in (-3, 5):
        assert solve(code_instance(1.0, threshold), 60)["status"] == "proved"


def test_a_map_stating_opendps_tail_is_refuted(tmp_path):
    """OpenDP #2922's off-by-one: the tail starting one step further from the threshold."""
    edit = ("reach = abs(threshold)  # label: reach", "reach = abs(threshold) + 1  # label: reach")
    summary = prove_edited(tmp_path, "make_gaussian_threshold", {FILE: [edit]}, select="scale=1.0")
    assert summary["status"] == "counterexample", summary


def test_a_map_ignoring_lone_zero_keys_is_refuted(tmp_path):
    """OpenDP's (0, 0) whenever linf' = 0, even with keys on one side only."""
    edit = ("if l0 == 0:  # label: no-change", "if linf == 0:  # label: no-change")
    summary = prove_edited(tmp_path, "make_gaussian_threshold", {FILE: [edit]}, select="scale=1.0")
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_gaussian_threshold", {}, select="scale=1.0")
    assert summary["status"] == "proved", summary


def test_a_map_using_l2_unsquared_is_refuted(tmp_path):
    """rho from l2' instead of its square: too small when l2' > 1 (the shared keys move)."""
    edit = (
        "exact_rho = Fraction(squared) / (2 * scale * scale)",
        "exact_rho = Fraction(math.isqrt(squared)) / (2 * scale * scale)",
    )
    summary = prove_edited(tmp_path, "make_gaussian_threshold", {FILE: [edit]}, select="scale=1.0")
    assert summary["status"] == "counterexample", summary

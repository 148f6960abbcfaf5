"""make_impute_uniform_float: exact law of the draws, outputs, bad input (typed, naming the
parameter), the coupled contract and runtime enforcement."""

import dataclasses
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import MakeTransformationError
from certdp.transformations.impute_uniform_float.contract import outcomes
from certdp.transformations.impute_uniform_float.make_impute_uniform_float import _nearest


@pytest.fixture(autouse=True)
def _contrib():
    # A new constructor is not vetted yet: the gate asks for "contrib" until the lead vets it.
    dp.enable_features("contrib")


def vec(T="f64", **kwargs):
    return dp.vector_domain(dp.atom_domain(T=T), **kwargs)


def impute(bounds, T="f64", metric=None, **kwargs):
    return dp.t.make_impute_uniform_float(vec(T, **kwargs), metric or dp.symmetric_distance(),
                                          bounds)  # fmt: skip


TINY = 5e-324


def test_the_law_is_that_of_the_nearest_float_to_a_uniform_real():
    # On [0, 2 * 2**-1074] the reals round to 0, 1 or 2 steps with probabilities 1/4, 1/2, 1/4.
    law = Counter()
    for (value,), probability in outcomes(impute((0.0, 2 * TINY)), [math.nan]):
        law[value] += probability
    assert law == {0.0: Fraction(1, 4), TINY: Fraction(1, 2), 2 * TINY: Fraction(1, 4)}
    # On [-3 steps, 0]: -3 and 0 get 1/6 each, -2 and -1 get 1/3 each.
    law = Counter()
    for (value,), probability in outcomes(impute((-3 * TINY, 0.0)), [math.nan]):
        law[value] += probability
    assert law == {-3 * TINY: Fraction(1, 6), -2 * TINY: Fraction(1, 3),
                   -TINY: Fraction(1, 3), 0.0: Fraction(1, 6)}  # fmt: skip


def test_nearest_rounds_exactly_like_the_hardware_for_f64_and_to_binary32():
    for q in (Fraction(1, 3), Fraction(-7, 10), Fraction(2**60 + 2**7, 1), Fraction(1, 2**1075)):
        assert _nearest(q, 53, -1074) == float(q)
    # 1 + 2**-24 is the midpoint of 1 and the next binary32: ties to even give 1
    assert _nearest(Fraction(1) + Fraction(1, 2**24), 24, -149) == 1.0
    assert _nearest(Fraction(1) + Fraction(3, 2**25), 24, -149) == 1.0 + 2**-23


def test_outputs_keep_non_nan_records_and_stay_in_bounds():
    t = impute((-2.5, -1.0), size=5)
    out = t([math.nan, 3.0, -math.inf, math.nan, -0.0])
    assert out[1] == 3.0 and out[2] == -math.inf and out[4].hex() == (-0.0).hex()
    assert all(-2.5 <= out[i] <= -1.0 for i in (0, 3))
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="f64", nan=False), size=5)
    assert t.map(3) == 3
    draws = impute((0.0, 1.0), T="f32")(np.full(2000, np.nan, dtype=np.float32))
    assert all(0.0 <= v <= 1.0 and float(np.float32(v)) == v for v in draws)
    assert 0.4 < sum(draws) / len(draws) < 0.6  # the mean of 2000 uniform draws, loosely


def test_same_output_domain_and_maps_as_opendp():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    theirs = odp.t.make_impute_uniform_float(
        odp.vector_domain(odp.atom_domain(T=float), size=3), odp.symmetric_distance(), (0.0, 1.0)
    )
    ours = impute((0.0, 1.0), size=3)
    assert str(theirs.output_domain) == "VectorDomain(AtomDomain(T=f64), size=3)"
    assert str(ours.output_domain) == str(theirs.output_domain)
    assert ours.output_domain == dp.vector_domain(dp.atom_domain(T="f64", nan=False), size=3)
    for d_in in (0, 1, 7):
        assert ours.map(d_in) == theirs.map(d_in)
    assert theirs([1.5, 2.0, -0.5]) == ours([1.5, 2.0, -0.5])


@pytest.mark.parametrize(
    "bounds, rule",
    [((1.0, 0.0), "smaller"), ((0.0, 0.0), "smaller"), ((math.nan, 1.0), "NaN"),
     ((0.0, math.inf), "finite"), ((0.0,), "pair"), ("01", "pair"), ((0.0, "1"), "number"),
     ((0.0, 1e39), "range")],
)  # fmt: skip
def test_bad_bounds_are_refused_naming_bounds(bounds, rule):
    T = "f32" if rule == "range" else "f64"
    with pytest.raises(MakeTransformationError, match=rule) as error:
        impute(bounds, T=T)
    assert error.value.parameter == "bounds"


def test_bad_domain_and_metric_are_refused():
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_impute_uniform_float(vec("i32"), dp.symmetric_distance(), (0, 1))
    assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_impute_uniform_float(vec(), dp.l1_distance("f64"), (0.0, 1.0))
    assert error.value.parameter == "input_metric"


def test_partial_form():
    t = (vec(), dp.insert_delete_distance()) >> dp.t.then_impute_uniform_float((2.0, 3.0))
    (value,) = t([math.nan])
    assert 2.0 <= value <= 3.0


def test_coupled_contract_verifies_and_a_halved_map_is_refuted():
    report = contract_of(dp.t.make_impute_uniform_float).verify()
    assert report.examples > 0 and report.max_tightness <= 1
    fixed = dataclasses.replace(
        contract_of(dp.t.make_impute_uniform_float),
        arguments=lambda: st.just({"input_domain": vec(), "input_metric": dp.symmetric_distance(),
                                   "bounds": (0.0, 2 * TINY)}),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    (value,) = impute((0.0, 1.0))([math.nan])
    assert 0.0 <= value <= 1.0
    with pytest.raises(dp.ContractError) as error:
        impute((1.0, 0.0))
    assert error.value.condition == "bounds-finite-ordered"

"""make_is_null and make_drop_null: OpenDP 0.16's outputs, bad input, contracts, enforcement;
make_drop_null's stability on neighbours that differ in null records."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import MakeTransformationError

from .cast_cases import HOSTILE_TEXTS, opendp_cast, same


@pytest.fixture(autouse=True)
def _contrib():
    # New constructors are not vetted yet: the gate asks for "contrib" until the lead vets them.
    dp.enable_features("contrib")


def floats(T="f64", **kwargs):
    return dp.vector_domain(dp.atom_domain(T=T), **kwargs)


def options(T, **kwargs):
    return dp.vector_domain(dp.option_domain(dp.atom_domain(T=T)), **kwargs)


DATA = [1.0, math.nan, -0.0, math.inf, -math.nan, 5e-324]


def test_is_null_on_floats_as_opendp():
    t = dp.t.make_is_null(floats(size=6), dp.insert_delete_distance())
    assert t(DATA) == [False, True, False, False, True, False]
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="bool"), size=6)
    assert t.output_metric == dp.insert_delete_distance() and t.map(4) == 4
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    theirs = odp.t.make_is_null(
        odp.vector_domain(odp.atom_domain(T=float)), odp.symmetric_distance()
    )(DATA)
    assert dp.t.make_is_null(floats(), dp.symmetric_distance())(DATA) == theirs


def test_is_null_on_options_and_f32_arrays():
    t = dp.t.make_is_null(options("String"), dp.symmetric_distance())
    assert t(["a", None, ""]) == [False, True, False]
    t = dp.t.make_is_null(dp.vector_domain(dp.option_domain(dp.atom_domain(T="f64"))),
                          dp.symmetric_distance())  # fmt: skip
    assert t([None, math.nan, 2.0]) == [True, True, False]  # "null or nan", as OpenDP says
    t = dp.t.make_is_null(floats("f32"), dp.symmetric_distance())
    assert t(np.array([np.nan, 1.0], dtype=np.float32)) == [True, False]


@pytest.mark.parametrize("TOA", ["i32", "u32", "f64", "f32", "String"])
def test_cast_then_is_null_and_drop_null_as_opendp(TOA):
    space = (dp.vector_domain(dp.atom_domain(T="String")), dp.symmetric_distance())
    ours_null = (space >> dp.t.then_cast(TOA=TOA) >> dp.t.then_is_null())(HOSTILE_TEXTS)
    ours_kept = (space >> dp.t.then_cast(TOA=TOA) >> dp.t.then_drop_null())(HOSTILE_TEXTS)
    theirs = opendp_cast("String", TOA, HOSTILE_TEXTS)
    assert ours_null == [value is None for value in theirs]
    kept = [value for value in theirs if value is not None]
    assert len(ours_kept) == len(kept) and all(same(a, b) for a, b in zip(ours_kept, kept))


def test_drop_null_on_floats_as_opendp():
    t = dp.t.make_drop_null(floats(size=6), dp.symmetric_distance())
    assert [x.hex() for x in t(DATA)] == [x.hex() for x in [1.0, -0.0, math.inf, 5e-324]]
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="f64", nan=False))
    assert t.map(3) == 3
    bounded = dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0)))
    assert dp.t.make_drop_null(bounded, dp.symmetric_distance()).output_domain == (
        dp.vector_domain(dp.atom_domain(T="f64", nan=False))
    )
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    theirs = odp.t.make_drop_null(
        odp.vector_domain(odp.atom_domain(T=float)), odp.symmetric_distance()
    )(DATA)
    assert all(same(a, b) for a, b in zip(t(DATA), theirs)) and len(theirs) == 4


def test_drop_null_on_options_and_partial_forms():
    t = (options("i32"), dp.insert_delete_distance()) >> dp.t.then_drop_null()
    assert t([3, None, -1, None]) == [3, -1]
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="i32"))
    t = (floats("f32"), dp.symmetric_distance()) >> dp.t.then_drop_null()
    assert t(np.array([np.nan, 0.5], dtype=np.float32)) == [0.5]
    t = (floats(), dp.symmetric_distance()) >> dp.t.then_is_null()
    assert t([math.nan]) == [True]


@pytest.mark.parametrize("make", [dp.t.make_is_null, dp.t.make_drop_null])
def test_bad_input_is_refused_with_the_parameter(make):
    for domain in (dp.vector_domain(dp.atom_domain(T="i32")),
                   dp.vector_domain(dp.atom_domain(T="String")), dp.atom_domain(T="f64")):  # fmt: skip
        with pytest.raises(MakeTransformationError) as error:
            make(domain, dp.symmetric_distance())
        assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError) as error:
        make(floats(), dp.l1_distance("f64"))
    assert error.value.parameter == "input_metric"


@pytest.mark.parametrize("make", [dp.t.make_is_null, dp.t.make_drop_null])
def test_contracts_verify_and_a_halved_map_is_refuted(make):
    report = contract_of(make).verify()
    assert report.examples > 0 and report.max_tightness == 1
    fixed = dataclasses.replace(
        contract_of(make),
        arguments=lambda: st.just({"input_domain": options("i32"),
                                   "input_metric": dp.symmetric_distance()}),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


@given(st.lists(st.sampled_from([None, 0, 1, 2]), max_size=8), st.data())
def test_drop_null_does_not_increase_either_distance(x, data):
    # neighbours that insert, delete or change records, nulls among them
    x_prime = list(x)
    for _ in range(data.draw(st.integers(0, 3))):
        if x_prime and data.draw(st.booleans()):
            del x_prime[data.draw(st.integers(0, len(x_prime) - 1))]
        else:
            x_prime.insert(data.draw(st.integers(0, len(x_prime))),
                           data.draw(st.sampled_from([None, 0, 1, 2])))  # fmt: skip
    for metric in (dp.symmetric_distance(), dp.insert_delete_distance()):
        t = dp.t.make_drop_null(options("i32"), metric)
        d_in = metric.distance(x, x_prime)
        assert metric.distance(t(x), t(x_prime)) <= t.map(d_in)


def test_runtime_contracts_check_output_and_name_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_drop_null(options("bool"), dp.symmetric_distance())([None, False]) == [False]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_is_null(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    assert error.value.condition == "input-domain-vector-of-nullable"

"""The make_count model equals the code bit for bit, and a wrong count is refuted."""

import math

import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of
from certdp.core.types import INTEGER_TYPES, carrier
from certdp.prove.engine import solve
from certdp.transformations.count.smt_model import LENGTH_BITS, count_instance, count_model

_LENGTHS = st.one_of(
    st.integers(0, 300),
    st.sampled_from([127, 128, 255, 256, 2**24, 2**24 + 1, 2**31, 2**53 + 1, 2**63 - 1]),
    st.integers(0, 2**63 - 1),
)


@given(st.sampled_from((*INTEGER_TYPES, "f32", "f64")), _LENGTHS)
def test_count_model_is_the_code(name, n):
    TO = carrier(name)
    built = dp.t.make_count(
        dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), name
    )
    code = built.function(range(n))
    model = z3.simplify(count_model(z3.BitVecVal(n, LENGTH_BITS), TO))
    if TO.is_integer:
        assert type(code) is int and model.as_long() == code
    else:
        value = float_of(model)
        assert type(code) is float
        assert math.copysign(1.0, value) == math.copysign(1.0, code) and value == code


def test_count_without_saturation_is_refuted():
    for name in ("i8", "u8", "f32"):
        # the count of a long dataset leaves TO's range (integers) or is rounded (floats)
        outcome = solve(count_instance(carrier(name), "symmetric", 1, "domain", False), 60)
        assert outcome["status"] == "counterexample", outcome
        assert int(outcome["example"]["n"]) > carrier(name).max or name == "f32"
        assert int(outcome["example"]["n"]) > 2**24


def test_count_with_a_smaller_map_is_refuted():
    outcome = solve(count_instance(carrier("i32"), "symmetric", 2, "lengths", map_shift=-1), 60)
    assert outcome["status"] == "counterexample", outcome
    outcome = solve(
        count_instance(carrier("f64"), "insert_delete", 1, "datasets", map_shift=-1), 60
    )
    assert outcome["status"] == "counterexample", outcome


def test_count_model_is_proved_at_the_saturation_points():
    for name in ("i8", "u16", "f32"):
        assert (
            solve(count_instance(carrier(name), "symmetric", 1, "lengths"), 60)["status"]
            == "proved"
        )
        assert (
            solve(count_instance(carrier(name), "symmetric", 1, "domain"), 60)["status"] == "proved"
        )

"""The clamp and is_equal models equal the code bit for bit on random records."""

import math
import struct

import numpy as np
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of, float_sort, float_value, int_value
from certdp.core.types import INTEGER_TYPES, carrier
from certdp.transformations.clamp.smt_model import clamp_record
from certdp.transformations.is_equal.smt_model import is_equal_record


def _float_bits(value, T):
    return (
        struct.unpack("<I", struct.pack("<f", value))[0]
        if T == "f32"
        else (struct.unpack("<Q", struct.pack("<d", value))[0])
    )


def _ints(T):
    return st.one_of(st.sampled_from([T.min, T.max, 0]), st.integers(T.min, T.max))


@st.composite
def int_clamp_case(draw):
    T = carrier(draw(st.sampled_from(INTEGER_TYPES)))
    a, b = draw(_ints(T)), draw(_ints(T))
    return T, (min(a, b), max(a, b)), draw(st.lists(_ints(T), max_size=5))


@given(int_clamp_case())
def test_clamp_model_is_the_code_on_integers(case):
    T, (lower, upper), data = case
    built = dp.t.make_clamp(
        dp.vector_domain(dp.atom_domain(T=T.name)), dp.symmetric_distance(), (lower, upper)
    )
    lo, hi = int_value(lower, T.bits), int_value(upper, T.bits)
    model = [z3.simplify(clamp_record(int_value(v, T.bits), lo, hi, T)).as_long() for v in data]
    signed = [v - (1 << T.bits) if T.is_signed and v >> (T.bits - 1) else v for v in model]
    assert signed == [int(v) for v in built(data)]


def _floats(T):
    width = 32 if T == "f32" else 64
    return st.one_of(
        st.sampled_from([0.0, -0.0, math.inf, -math.inf, 1.0]),
        st.floats(allow_nan=False, width=width),
    )


@st.composite
def float_clamp_case(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    a, b = draw(_floats(T).filter(math.isfinite)), draw(_floats(T).filter(math.isfinite))
    data = draw(st.lists(_floats(T), max_size=5))
    return T, (min(a, b), max(a, b)), data


@given(float_clamp_case())
def test_clamp_model_is_the_code_on_floats(case):
    T, (lower, upper), data = case
    cast = np.float32 if T == "f32" else float
    built = dp.t.make_clamp(
        dp.vector_domain(dp.atom_domain(T=T, nan=False)), dp.symmetric_distance(),
        (cast(lower), cast(upper)),
    )  # fmt: skip
    sort = float_sort(T)
    lo, hi = float_value(lower, sort), float_value(upper, sort)
    model = [float_of(clamp_record(float_value(v, sort), lo, hi, carrier(T))) for v in data]
    code = [float(v) for v in built([cast(v) for v in data])]
    assert [_float_bits(v, T) for v in model] == [_float_bits(v, T) for v in code]


@given(st.data())
def test_is_equal_model_is_the_code(data):
    name = data.draw(st.sampled_from([*INTEGER_TYPES, "f32", "f64", "bool"]))
    T = carrier(name)
    if name == "bool":
        values = st.booleans()
    elif T.is_float:
        values = st.one_of(_floats(name), st.just(math.nan))
    else:
        values = _ints(T)
    value, records = data.draw(values), data.draw(st.lists(values, max_size=5))
    cast = np.float32 if name == "f32" else (lambda v: v)
    built = dp.t.make_is_equal(
        dp.vector_domain(dp.atom_domain(T=name)), dp.symmetric_distance(), cast(value)
    )
    if T.is_float:
        sort = float_sort(name)
        encode = lambda v: float_value(v, sort) if v == v else z3.fpNaN(sort)  # noqa: E731
    elif name == "bool":
        encode = z3.BoolVal
    else:
        encode = lambda v: int_value(v, T.bits)  # noqa: E731
    model = [z3.is_true(z3.simplify(is_equal_record(encode(r), encode(value), T))) for r in records]
    assert model == built([cast(r) for r in records])

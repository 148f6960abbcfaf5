"""Regressions for the referee's findings on the core lemma documents (coreB report).

Each test pins one fix: 0-d arrays in nested vector domains, the error bound of an f32 bound,
mixed-width integer range checks, ``>>`` with partial constructors, and ``-0.0`` distances.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.domains import carrier_bound
from certdp.core.errors import FailedFunctionError, MakeTransformationError
from certdp.core.partial import partial_constructor
from certdp.core.types import carrier


@pytest.mark.parametrize("size", [None, 2])
@pytest.mark.parametrize("value", [np.array(5), np.array(5.0), np.array([1, 2])[0:1].reshape(())])
def test_a_0d_array_is_not_a_vector_of_vectors(size, value):
    nested = dp.vector_domain(dp.vector_domain(dp.atom_domain(T="i32")), size=size)
    with pytest.raises(FailedFunctionError, match="0-d array"):
        nested.admit(value)
    assert nested.member(value) is False


def test_arrays_of_more_dimensions_still_enter_nested_vector_domains():
    nested = dp.vector_domain(dp.vector_domain(dp.atom_domain(T="i32"), size=2), size=2)
    admitted = nested.admit(np.array([[1, 2], [3, 4]], dtype=np.int32))
    assert [list(row) for row in admitted] == [[1, 2], [3, 4]]
    assert nested.member(np.array([[[1, 2]], [[3, 4]]])) is False  # rows are 2-d
    assert dp.vector_domain(dp.atom_domain(T="i32")).member(np.array(5)) is False


def _binade_bound(w: float) -> Fraction:
    e = math.frexp(abs(w))[1] - 1  # 2**e <= |w| < 2**(e + 1)
    return Fraction(2) ** (max(e, -126) - 24)


def test_an_f32_bound_is_within_half_a_spacing_of_the_python_float():
    f32 = carrier("f32")
    referee = 2.0**-126 - 2.0**-150 + 2.0**-170  # rounds up to 2**-126 from the binade below
    cases = [referee, -referee, 2.0**-149 * 1.5, 2.0**-150, 2.0**-127 * 1.75, 0.1, 1e38, 3.4e38]
    for e in range(-160, 127):
        # points across the binade, and just below its top (where rounding goes up a binade)
        cases += [math.ldexp(1 + k / 7 + k * 2.0**-30, e) for k in range(7)]
        cases += [math.ldexp(2 - 2.0**-24 + 2.0**-40, e), -math.ldexp(1.0 + 2.0**-25, e)]
    worst = Fraction(0)
    for w in cases:
        b = carrier_bound("lower bound", w, f32)
        assert b == float(np.float32(w))
        error = abs(Fraction(b) - Fraction(w))
        assert error <= _binade_bound(w), w
        worst = max(worst, error / _binade_bound(w))
    assert carrier_bound("x", referee, f32) == 2.0**-126
    # The referee's case exceeds the old statement 2**(e-24), e = -127, by almost a factor 2.
    assert abs(Fraction(2.0**-126) - Fraction(referee)) > Fraction(2) ** (-127 - 24)
    assert worst > Fraction(1, 2)  # the bound is nearly attained, so the test can fail


@pytest.mark.parametrize(
    "T, dtype, values, member",
    [
        ("i64", np.uint64, [2**63 - 1], True),  # float64 would round it up to 2**63
        ("i64", np.uint64, [2**63], False),
        ("u64", np.int64, [-(2**63), 5], False),
        ("u64", np.int64, [0, 2**63 - 1], True),
        ("i32", np.uint64, [2**31 - 1, 2**64 - 1], False),
        ("u8", np.int64, [0, 255], True),
        ("u8", np.int64, [-1], False),
    ],
)
def test_mixed_width_integer_arrays_are_range_checked_exactly(T, dtype, values, member):
    domain = dp.vector_domain(dp.atom_domain(T=T))
    array = np.array(values, dtype=dtype)
    assert domain.member(array) is member
    if member:
        assert [int(v) for v in domain.admit(array)] == values


def make_not_a_transformation(input_domain, input_metric, answer):
    return answer


def test_chaining_a_constructor_that_returns_no_transformation_is_a_typed_error():
    then_bogus = partial_constructor(make_not_a_transformation)
    space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
    clamp = dp.t.make_clamp(space[0], space[1], bounds=(0, 1))
    with pytest.raises(MakeTransformationError, match="^chain: the constructor returned a int"):
        clamp >> then_bogus(3)  # once: RecursionError after ~1000 constructor calls
    with pytest.raises(MakeTransformationError, match="^chain:"):
        then_bogus(3).__rrshift__(clamp)


def test_nothing_is_chained_after_a_measurement():
    laplace = dp.m.make_laplace(
        dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), 1.0
    )
    with pytest.raises(MakeTransformationError, match="^chain: a measurement"):
        laplace >> dp.t.then_clamp(bounds=(0.0, 1.0))


def test_a_negative_zero_d_in_is_validated_to_positive_zero():
    laplace = dp.m.make_laplace(
        dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), 1.0
    )
    from certdp.core.transformation import validate_d_in

    zero = validate_d_in(laplace.input_metric, -0.0)
    assert zero == 0 and math.copysign(1.0, zero) == 1.0
    assert math.copysign(1.0, laplace.map(-0.0)) == 1.0

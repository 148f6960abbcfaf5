"""Issue 18, part 5: hostile inputs found by the latest attack give an exact answer or a typed
``DPError`` naming the parameter, in bounded time."""

import decimal
import math
import time
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.conversion import MAX_EXACT_BITS, exact_scalar
from certdp.core.errors import DPError, FailedCastError
from certdp.numeric import inf_cast
from certdp.transformations.resize.make_resize import record_capacity

I32 = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
F64_SCALAR = dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64")
INT_SCALAR = dp.atom_domain(T="i32"), dp.absolute_distance("i32")
HUGE_LONGDOUBLE = np.longdouble("1e4000")


def _finfo_beyond_f64() -> bool:
    return np.finfo(np.longdouble).max > np.finfo(np.float64).max


needs_wide_longdouble = pytest.mark.skipif(
    not _finfo_beyond_f64(), reason="longdouble is binary64 on this platform"
)


# -- make_resize: sizes the platform cannot hold ---------------------------------------------


@pytest.mark.parametrize(
    "size",
    [2**64, 10**400, 2**53 + 1, record_capacity() + 1],
    ids=["2^64", "10^400", "2^53+1", "cap+1"],
)
def test_resize_refuses_sizes_beyond_the_memory_at_construction(size):
    with pytest.raises(dp.MakeTransformationError, match="^size: must be at most") as caught:
        dp.t.make_resize(*I32, size=size, constant=0)
    assert caught.value.parameter == "size"


def test_resize_capacity_is_memory_over_pointer_size():
    assert 1 <= record_capacity() <= 2**63 // 8


def test_resize_mo_as_an_array_is_a_typed_error():
    with pytest.raises(dp.MakeTransformationError, match="^MO: ") as caught:
        dp.t.make_resize(*I32, size=3, constant=0, MO=np.array([1, 2]))
    assert caught.value.parameter == "MO"


# -- deep compositions and chains -----------------------------------------------------------


def test_composition_built_in_a_loop_maps_and_invokes_at_depth_1000():
    query = dp.m.make_laplace(*INT_SCALAR, 10.0)
    composed = query
    for _ in range(1000):
        composed = dp.c.make_composition([composed, query])
    # 1001 leaves, each losing exactly float(0.1) (1/10 rounded up): their exact sum rounded up
    leaf = Fraction(query.map(1))
    assert composed.map(1) == inf_cast(1001 * leaf, "f64")
    release = composed(3)
    depth = 0
    while isinstance(release, list):
        assert len(release) == 2
        assert type(release[1]) is int
        depth += 1
        release = release[0]
    assert depth == 1000 and type(release) is int


def test_nested_composition_keeps_opendp_shape_and_is_at_most_the_nested_rounding():
    queries = [dp.m.make_laplace(*INT_SCALAR, scale) for scale in (3.0, 7.0, 11.0)]
    inner = dp.c.make_composition(queries[:2])
    outer = dp.c.make_composition([inner, queries[2]])
    release = outer(1)
    assert isinstance(release, list) and len(release) == 2 and len(release[0]) == 2
    losses = [Fraction(q.map(1)) for q in queries]
    # the leaves' exact sum rounded up once, at most the sums rounded up level by level
    assert outer.map(1) == inf_cast(sum(losses), "f64")
    level_by_level = inf_cast(Fraction(inf_cast(losses[0] + losses[1], "f64")) + losses[2], "f64")
    assert outer.map(1) <= level_by_level
    assert outer.map(1) == dp.c.make_composition(queries).map(1)


def test_chain_of_1000_transformations_maps_and_invokes():
    chain = I32 >> dp.t.then_clamp((0, 10))
    for _ in range(1000):
        chain = chain >> dp.t.then_clamp((0, 10))
    assert chain.map(1) == 1
    assert chain([1, 20, -3]) == [1, 10, 0]
    measured = chain >> dp.t.then_count() >> dp.m.then_laplace(1.0)
    assert measured.map(1) == 1.0
    assert type(measured([1, 2, 3])) is int


# -- longdouble beyond the f64 range ----------------------------------------------------------


@needs_wide_longdouble
def test_huge_longdouble_is_converted_exactly():
    value = exact_scalar(HUGE_LONGDOUBLE, "x")
    numerator, denominator = HUGE_LONGDOUBLE.as_integer_ratio()
    assert value == Fraction(numerator, denominator) and type(value) is Fraction


@needs_wide_longdouble
def test_huge_longdouble_everywhere_gives_an_answer_or_a_typed_error():
    cases = {
        "bounds": lambda v: dp.atom_domain(bounds=(0.0, v)),
        "scale": lambda v: dp.m.make_laplace(*F64_SCALAR, v),
        "d_in": lambda v: dp.m.make_laplace(*F64_SCALAR, 1.0).map(v),
        "d_out": lambda v: dp.m.make_laplace(*F64_SCALAR, 1.0).check(1.0, v),
        "delta": lambda v: dp.c.make_fix_delta(
            dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*INT_SCALAR, 1.0)), v
        ),
        "gaussian.scale": lambda v: dp.m.make_gaussian(*INT_SCALAR, v),
    }
    for name, case in cases.items():
        try:
            case(HUGE_LONGDOUBLE)
        except DPError as error:
            assert error.parameter, name


@needs_wide_longdouble
def test_huge_longdouble_gives_the_exact_answer_or_the_scale_rule():
    # as d_out it is the exact huge number; as a scale its 13288-bit numerator breaks the
    # scale rule (at most 1075 bits, as every float's)
    assert dp.m.make_laplace(*F64_SCALAR, 1.0).check(1.0, HUGE_LONGDOUBLE) is True
    assert dp.m.make_gaussian(*F64_SCALAR, 1.0).map(HUGE_LONGDOUBLE) == math.inf
    with pytest.raises(dp.MakeMeasurementError, match="^scale: .*1075 bits"):
        dp.m.make_laplace(*INT_SCALAR, HUGE_LONGDOUBLE)


@pytest.mark.parametrize(
    "value",
    [2**MAX_EXACT_BITS, -(2**20000), Fraction(1, 2**MAX_EXACT_BITS), decimal.Decimal("1e5000")],
    ids=["2^max", "-2^20000", "1/2^max", "Decimal 1e5000"],
)
def test_oversized_exact_values_are_refused_quickly(value):
    start = time.monotonic()
    with pytest.raises(FailedCastError, match="^x: "):
        exact_scalar(value, "x")
    with pytest.raises(DPError) as caught:
        dp.m.make_laplace(*INT_SCALAR, 1.0).map(value)
    assert caught.value.parameter == "d_in"
    repr(caught.value)
    assert time.monotonic() - start < 5


def test_huge_decimal_exponent_is_refused_without_building_it():
    start = time.monotonic()
    with pytest.raises(FailedCastError):
        exact_scalar(decimal.Decimal("1e100000000"), "x")
    assert time.monotonic() - start < 1


def test_largest_allowed_int_prints():
    value = 2**MAX_EXACT_BITS - 1
    assert exact_scalar(value, "x") == value
    domain_error = None
    try:
        dp.atom_domain(bounds=(0, value), T="i64")
    except DPError as error:
        domain_error = str(error)
    assert domain_error is not None and "i64" in domain_error


# -- fix_delta ------------------------------------------------------------------------------


def _zcdp_to_approx():
    return dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*INT_SCALAR, 1.0))


@pytest.mark.parametrize(
    "delta",
    [10**400, 2, -1, math.nan, math.inf, Fraction(1, 3)],
    ids=["10^400", "2", "-1", "nan", "inf", "1/3"],
)
def test_fix_delta_out_of_range_or_inexact_is_a_typed_error(delta):
    with pytest.raises(dp.MakeMeasurementError, match="^delta: ") as caught:
        dp.c.make_fix_delta(_zcdp_to_approx(), delta)
    assert caught.value.parameter == "delta"


def test_fix_delta_refuses_negative_zero_as_opendp_does():
    """OpenDP 0.16 refuses it ("delta (-0) must not be negative"); certdp at construction."""
    with pytest.raises(dp.MakeMeasurementError, match="^delta: must not be negative") as caught:
        dp.c.make_fix_delta(_zcdp_to_approx(), -0.0)
    assert caught.value.parameter == "delta"


@pytest.mark.parametrize("zero", [0.0, 0, Fraction(0)], ids=repr)
def test_fix_delta_zero_is_positive_zero(zero):
    epsilon, delta = dp.c.make_fix_delta(_zcdp_to_approx(), zero).map(1)
    assert type(delta) is float and delta == 0.0 and math.copysign(1, delta) == 1
    assert epsilon == math.inf


def test_fix_delta_exact_fraction_equals_its_float():
    by_fraction = dp.c.make_fix_delta(_zcdp_to_approx(), Fraction(1, 2**20)).map(1)
    by_float = dp.c.make_fix_delta(_zcdp_to_approx(), 2.0**-20).map(1)
    assert by_fraction == by_float


def test_fix_delta_non_number_is_also_a_type_error():
    with pytest.raises(TypeError):
        dp.c.make_fix_delta(_zcdp_to_approx(), "0.1")


# -- Gaussian scale with a huge denominator -------------------------------------------------


def test_gaussian_scale_with_huge_denominator_is_refused_quickly():
    start = time.monotonic()
    with pytest.raises(dp.MakeMeasurementError, match="^scale: ") as caught:
        dp.m.make_gaussian(*INT_SCALAR, Fraction(10**3000 + 1, 10**3000))
    assert caught.value.parameter == "scale"
    assert time.monotonic() - start < 2


def test_gaussian_scale_of_float_precision_is_accepted():
    finest = Fraction(2**1074 + 1, 2**1074)
    measurement = dp.m.make_gaussian(*INT_SCALAR, finest)
    assert type(measurement(0)) is int
    assert measurement.map(1) >= Fraction(1, 2) / finest**2


# -- found by the hunt ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "p",
    [np.array([1.0]), np.array([1, 2]), "1", True],
    ids=["1-element", "2-element", "str", "bool"],
)
def test_array2_domain_p_of_a_wrong_type_is_a_typed_error(p):
    with pytest.raises(dp.MakeDomainError, match="^p: ") as caught:
        dp.numpy.array2_domain(T="f64", norm=1.0, p=p)
    assert caught.value.parameter == "p"


@pytest.mark.parametrize("p", [1, 2.0, Fraction(2)])
def test_array2_domain_p_equal_to_one_or_two_is_accepted(p):
    assert dp.numpy.array2_domain(T="f64", norm=1.0, p=p).p == int(p)


@pytest.mark.parametrize(
    "d_in",
    [10**4000, Fraction(10**4000 + 1, 10**4000), decimal.Decimal("1e4100")],
    ids=["10^4000", "rational", "Decimal"],
)
def test_gaussian_map_of_a_huge_exact_d_in_is_infinite_not_an_error(d_in):
    # (d_in)^2 / 2 is far beyond f64 for the first and third: rounded up to +inf; the second
    # is about 1/2
    rho = dp.m.make_gaussian(*INT_SCALAR, 1.0).map(d_in) if type(d_in) is int else None
    if rho is not None:
        assert rho == math.inf
    measurement = dp.m.make_gaussian(*F64_SCALAR, 1.0)
    value = measurement.map(d_in)
    assert value >= Fraction(d_in) ** 2 / 2


@pytest.mark.parametrize(
    "scale",
    [Fraction(10**4000 + 1, 10**4000), Fraction(1, 2**1076)],
    ids=["10^4000 denominator", "2^-1076"],
)
def test_laplace_scale_with_huge_parts_is_refused_quickly(scale):
    start = time.monotonic()
    for space in (INT_SCALAR, F64_SCALAR):
        with pytest.raises(dp.MakeMeasurementError, match="^scale: .*1075 bits"):
            dp.m.make_laplace(*space, scale)
    assert time.monotonic() - start < 2


def test_nested_composition_under_runtime_contracts_is_the_leaves_sum():
    scales = [0.3, 0.7, 3.0, 1 / 3, 0.1 * 1024, 7.0, 11.0]
    queries = [dp.m.make_laplace(*INT_SCALAR, scale) for scale in scales]
    dp.enable_contracts()
    try:
        composed = queries[0]
        for query in queries[1:]:
            composed = dp.c.make_composition([composed, query])
        for d_in in (1, 2, 3, 17):
            exact = sum(Fraction(q.map(d_in)) for q in queries)
            assert composed.map(d_in) == inf_cast(exact, "f64")
        assert len(composed(1)) == 2
    finally:
        dp.disable_contracts()

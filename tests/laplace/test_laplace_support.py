"""The shared lemmas: discretization constants (and the rounding bound they promise) and
the privacy map with its edge cases."""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import FailedMapError, MakeMeasurementError
from certdp.measurements._laplace import (
    K_MAX,
    K_MIN,
    exact_scale,
    get_discretization_consts,
    laplace_map,
)
from certdp.samplers import nearest_grid_index


@pytest.mark.parametrize(
    "k, T, expected",
    [
        (None, "f64", (-1074, Fraction(0))),
        (None, "f32", (-149, Fraction(0))),
        (-10, "f64", (-10, Fraction(1, 1024) - Fraction(1, 2**1074))),
        (-1073, "f64", (-1073, Fraction(1, 2**1074))),
        (5, "f32", (5, 32 - Fraction(1, 2**149))),
        (np.int32(3), "f64", (3, 8 - Fraction(1, 2**1074))),
        (1023, "f64", (1023, 2**1023 - Fraction(1, 2**1074))),
    ],
)
def test_discretization_constants(k, T, expected):
    assert get_discretization_consts(k, T) == expected


def test_grid_limits_match_the_formats():
    assert K_MIN == {"f64": -1074, "f32": -149} and K_MAX == {"f64": 1023, "f32": 127}
    assert math.ldexp(1.0, K_MIN["f64"]) == 5e-324 and math.ldexp(1.0, K_MAX["f64"]) < math.inf


@pytest.mark.parametrize(
    "k, T",
    [
        (-1075, "f64"),
        (-150, "f32"),
        (1024, "f64"),
        (128, "f32"),
        (1.0, "f64"),
        (False, "f64"),
        ("3", "f64"),
    ],
)
def test_refused_k(k, T):
    with pytest.raises(MakeMeasurementError) as error:
        get_discretization_consts(k, T)
    assert error.value.parameter == "k"


def test_refused_type():
    with pytest.raises(MakeMeasurementError) as error:
        get_discretization_consts(None, "i32")
    assert error.value.parameter == "T"


@given(
    st.sampled_from(["f32", "f64"]).flatmap(
        lambda T: st.tuples(
            st.just(T),
            st.integers(K_MIN[T], 12),
            st.floats(-1e4, 1e4, width=32 if T == "f32" else 64),
            st.floats(-1e4, 1e4, width=32 if T == "f32" else 64),
        )
    )
)
def test_rounding_adds_at_most_the_relaxation(case):
    """|round_k(x) - round_k(x')| <= |x - x'| + 2^k - 2^k_min for values of T."""
    T, k, x, x_prime = case
    _, relaxation = get_discretization_consts(k, T)
    moved = abs(nearest_grid_index(x, k) - nearest_grid_index(x_prime, k)) * Fraction(2) ** k
    assert moved <= abs(Fraction(x) - Fraction(x_prime)) + relaxation


@pytest.mark.parametrize("T, k", [("f64", -1060), ("f32", -140), ("f64", -10), ("f32", 0)])
def test_relaxation_is_attained_where_floats_are_2_to_k_min_apart(T, k):
    """The largest value below a tie and the tie itself round to grid points 2^k apart; where
    those two values are 2^k_min apart (subnormal ties), the bound is attained exactly."""
    tie = math.ldexp(1.0, k - 1)
    if T == "f32":
        below = float(np.nextafter(np.float32(tie), np.float32(0)))
    else:
        below = float(np.nextafter(tie, 0.0))
    _, relaxation = get_discretization_consts(k, T)
    gap = Fraction(tie) - Fraction(below)
    moved = (nearest_grid_index(tie, k) - nearest_grid_index(below, k)) * Fraction(2) ** k
    assert moved == Fraction(2) ** k and moved <= gap + relaxation
    assert (moved == gap + relaxation) == (gap == Fraction(2) ** K_MIN[T])
    assert k > -200 or gap == Fraction(2) ** K_MIN[T]  # the subnormal cases are the tight ones


@pytest.mark.parametrize(
    "scale, relaxation, d_in, expected",
    [
        (Fraction(1), Fraction(0), 0, 0.0),
        (Fraction(1), Fraction(0), 2.5, 2.5),
        (Fraction(0), Fraction(0), 0.0, 0.0),  # d = 0 is decided before scale = 0
        (Fraction(0), Fraction(0), 1e-300, math.inf),
        (Fraction(0), Fraction(1, 8), 0.0, math.inf),
        (Fraction(3), Fraction(0), 1, 0.33333333333333337),
        (Fraction(1), Fraction(3, 1024), 0.0, 0.0029296875),
        (Fraction(1, 10**300), Fraction(0), 1e300, math.inf),
        (Fraction(2), Fraction(0), Fraction(1, 3), 0.16666666666666669),
        (Fraction(1), Fraction(0), np.float32(0.5), 0.5),
    ],
)
def test_laplace_map_values(scale, relaxation, d_in, expected):
    assert laplace_map(scale, relaxation)(d_in) == expected


@given(st.fractions(0, 100), st.fractions(Fraction(1, 1000), 100), st.fractions(0, 10))
def test_laplace_map_never_rounds_down(d_in, scale, relaxation):
    value = laplace_map(scale, relaxation)(d_in)
    exact = (d_in + relaxation) / scale
    assert Fraction(value) >= exact and Fraction(value) - exact <= math.ulp(value)


@pytest.mark.parametrize("d_in", [-1, -1e-300, math.nan, math.inf, -math.inf, True, None, "0"])
def test_laplace_map_refuses_bad_d_in(d_in):
    with pytest.raises(FailedMapError) as error:
        laplace_map(Fraction(1), Fraction(0))(d_in)
    assert error.value.parameter == "d_in"


@pytest.mark.parametrize(
    "scale, expected",
    [
        (0, Fraction(0)),
        (0.5, Fraction(1, 2)),
        (Fraction(2, 3), Fraction(2, 3)),
        (np.float64(3.0), Fraction(3)),
    ],
)
def test_exact_scale(scale, expected):
    assert exact_scale(scale) == expected


@pytest.mark.parametrize("scale", [-1, -0.0001, math.nan, math.inf, True, "1", None, 1j])
def test_exact_scale_refuses(scale):
    with pytest.raises(MakeMeasurementError) as error:
        exact_scale(scale)
    assert error.value.parameter == "scale"


@pytest.mark.parametrize(
    "scale, expected",
    [
        (Fraction(np.int64(3), np.int64(2)), Fraction(3, 2)),
        (Fraction(np.int64(2**62), np.int64(3)), Fraction(2**62, 3)),
        (Fraction(np.uint64(2**64 - 1), np.uint64(5)), Fraction(2**64 - 1, 5)),
        (Fraction(np.int8(7)), Fraction(7)),
        (np.int64(3), Fraction(3)),
        (np.uint8(0), Fraction(0)),
    ],
)
def test_exact_scale_of_numpy_integer_fields_is_exact_with_int_fields(scale, expected):
    """A Fraction keeps NumPy integer fields (and a NumPy integer is its own numerator): called
    directly, exact_scale raised an untyped AttributeError (no ``bit_length``); now the value is
    rebuilt exactly from ``int`` of the fields, as the boundary (core/conversion.py) does."""
    exact = exact_scale(scale)
    assert exact == expected
    assert type(exact) is Fraction
    assert type(exact.numerator) is int and type(exact.denominator) is int


def test_exact_scale_refuses_a_negative_numpy_field_fraction_by_its_rule():
    with pytest.raises(MakeMeasurementError, match="must not be negative, got Fraction\\(-3, 2\\)"):
        exact_scale(Fraction(np.int64(-3), np.int64(2)))


class _Rational:
    """A class registered as ``numbers.Rational`` with the fields given."""

    def __init__(self, numerator, denominator):
        self.numerator, self.denominator = numerator, denominator


Rational.register(_Rational)


@pytest.mark.parametrize(
    "scale, kinds",
    [
        (_Rational(1.5, 2), "float and int"),
        (_Rational(np.float64(3), np.int64(2)), "float64 and int64"),
        (_Rational(True, 2), "bool and int"),
        (np.timedelta64(3), "timedelta64 and int"),
    ],
)
def test_exact_scale_refuses_a_rational_of_non_integers_typed(scale, kinds):
    with pytest.raises(MakeMeasurementError) as error:
        exact_scale(scale)
    assert isinstance(error.value, TypeError)
    assert error.value.parameter == "scale"
    assert "must be a rational of integers" in str(error.value) and kinds in str(error.value)


def test_exact_scale_refuses_a_rational_with_denominator_zero():
    with pytest.raises(MakeMeasurementError, match="denominator must not be 0") as error:
        exact_scale(_Rational(1, np.int64(0)))
    assert error.value.parameter == "scale"


def test_exact_scale_reads_a_long_double_exactly():
    """``float()`` of a long double rounds it to binary64, and ``math.isinf`` calls a finite
    one beyond the binary64 range infinite; exact_scale reads it in its own format."""
    one_ulp_above = np.longdouble(1) + np.finfo(np.longdouble).eps
    assert exact_scale(one_ulp_above) == Fraction(*one_ulp_above.as_integer_ratio())
    assert exact_scale(np.longdouble("0.25")) == Fraction(1, 4)
    huge = np.longdouble(2) ** 2000  # finite where long double is wider than binary64
    if np.isfinite(huge):
        with pytest.raises(MakeMeasurementError, match="at most 1075 bits"):
            exact_scale(huge)
    with pytest.raises(MakeMeasurementError, match="must be finite"):
        exact_scale(np.longdouble("inf"))


# The contract's pmf cross-check at the largest floats on a fine grid: the centre is ~2**1057,
# the exponent |z - centre| / b ~ 2**997, whose integer digits the working precision must cover.
@pytest.mark.parametrize("scale", [0.5, 0.1, 965.480173418064])
@pytest.mark.parametrize("x", [1e300, 1.7976931348623157e308])
def test_pmf_cross_check_at_huge_exponents(x, scale):
    from certdp.contracts.contract import as_rational
    from certdp.measurements._laplace.contract_support import grid_index, pmf_cross_check

    centre = grid_index(x, "f64", -60)
    inverse_scale = as_rational(Fraction(2) ** -60 / Fraction(scale))
    pmf_cross_check(-1, centre, inverse_scale)
    pmf_cross_check(centre + 1, 0, inverse_scale)


def test_pmf_cross_check_still_detects_a_relative_error_of_1e_25(monkeypatch):
    import sympy

    from certdp.contracts.contract import as_rational
    from certdp.core.errors import ContractError
    from certdp.measurements._laplace import contract_support
    from certdp.measurements._laplace.contract_support import grid_index, pmf_cross_check

    exact_pmf = contract_support._pmf
    monkeypatch.setattr(
        contract_support,
        "_pmf",
        lambda z, centre, r: exact_pmf(z, centre, r) * (1 + sympy.Rational(1, 10**25)),
    )
    centre = grid_index(1e300, "f64", -60)
    with pytest.raises(ContractError, match="pmf-cross-check"):
        pmf_cross_check(-1, centre, as_rational(Fraction(2) ** -60 / Fraction(0.1)))


@pytest.mark.parametrize("T", [np.int64, np.int32, np.uint64, np.int8])
def test_maps_read_numpy_integers_as_python_integers_without_wrapping(T):
    """A NumPy integer given straight to the map (not through ``Measurement.map``) must not carry
    fixed-width arithmetic into the exact computation: 2^62 squared wraps in int64."""
    from certdp.measurements._gaussian.gaussian_map import gaussian_map
    from certdp.measurements._laplace.laplace_map import laplace_map

    big = int(np.iinfo(T).max)
    assert Fraction(laplace_map(Fraction(1, 10**300), Fraction(0))(T(3))) >= 3 * 10**300
    assert laplace_map(Fraction(7, 3), Fraction(0))(T(big)) >= Fraction(big) * Fraction(3, 7)
    rho = gaussian_map(Fraction(1), Fraction(0))(T(big))
    assert rho >= Fraction(big) ** 2 / 2


def test_maps_refuse_a_numpy_integer_subclass():
    from certdp.measurements._laplace.laplace_map import laplace_map

    class Evil(np.int64):
        def __int__(self):
            return 0

    with pytest.raises(FailedMapError, match="d_in"):
        laplace_map(Fraction(1), Fraction(0))(Evil(5))


def test_maps_take_the_exact_value_of_longdouble_and_numpy_field_fractions():
    """Found by the referee of rounded_map: a longdouble was rounded to a float first (below
    the true value), and a Fraction with NumPy fields wrapped around (0.0 for a distance 2^64)."""
    from certdp.measurements._gaussian.gaussian_map import gaussian_map
    from certdp.measurements._laplace.laplace_map import laplace_map

    tiny = np.longdouble(1) + np.longdouble(2) ** -60
    if tiny != 1:  # where longdouble is wider than f64
        assert Fraction(laplace_map(Fraction(1), Fraction(0))(tiny)) > 1
    wide = Fraction(np.uint64(2**64 - 1))
    assert Fraction(laplace_map(Fraction(1), Fraction(1))(wide)) >= 2**64
    assert Fraction(gaussian_map(Fraction(1), Fraction(1))(wide)) >= Fraction(2**128, 2)
    assert laplace_map(Fraction(0), Fraction(1))(wide) == math.inf


@pytest.mark.parametrize("base", [float, np.float64, int])
def test_maps_refuse_subclasses_of_number_types(base):
    from certdp.measurements._laplace.laplace_map import laplace_map

    class Sly(base):
        pass

    with pytest.raises(FailedMapError, match="d_in"):
        laplace_map(Fraction(1), Fraction(0))(Sly(5))


class _LongDouble(np.longdouble):
    """A subclass of NumPy's long double (it could override as_integer_ratio or __float__)."""


class _Float64(np.float64):
    pass


@pytest.mark.parametrize(
    "scale",
    [
        _LongDouble(np.longdouble(1) + np.finfo(np.longdouble).eps),
        _LongDouble("1e4000"),
        _Float64(0.5),
    ],
)
def test_exact_scale_refuses_a_numpy_float_subclass_typed(scale):
    """refgate F5: ``type(scale) is not np.longdouble`` sent a subclass of long double through
    ``float()``: 1 + 2**-63 became 1 (a wrong value), 1e4000 an untyped OverflowError.  The
    boundary's rule (core/conversion.py) now applies: refused, typed, naming scale."""
    assert type(scale) is not np.longdouble and isinstance(scale, np.floating)
    with pytest.raises(MakeMeasurementError, match="subclass of a NumPy scalar type") as error:
        exact_scale(scale)
    assert isinstance(error.value, TypeError)
    assert error.value.parameter == "scale"


class _Float(float):
    def __float__(self):
        return 2.0


class _Int(int):
    numerator = property(lambda self: 5)


def test_exact_scale_reads_a_float_subclass_as_stored_and_refuses_an_int_subclass():
    """The stored double, not what an overriding ``__float__`` says; an ``int`` subclass's
    ``numerator`` is never asked (it is refused as a rational of non-integers)."""
    assert exact_scale(_Float(0.75)) == Fraction(3, 4)
    with pytest.raises(MakeMeasurementError, match="rational of integers") as error:
        exact_scale(_Int(3))
    assert error.value.parameter == "scale"


def test_exact_scale_tests_the_sizes_before_reducing():
    """refgate F6: the 1075-bit refusal comes before ``Fraction`` reduces the fields (a gcd of
    4,000,000-bit integers took 37 s before the same refusal)."""
    import time

    bits = 4 * 10**6
    huge = Fraction((1 << bits) - 1, 3 ** (bits * 10 // 16), _normalize=False)
    start = time.monotonic()
    with pytest.raises(MakeMeasurementError, match="at most 1075 bits"):
        exact_scale(huge)
    assert time.monotonic() - start < 5

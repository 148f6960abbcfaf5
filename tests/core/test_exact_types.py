"""Referee report coreA: values are recognised by their exact type, never through a subclass.

A subclass of a NumPy scalar type may override ``__int__``, ``__float__`` or ``item`` and so
denote one number to a type test and another to the arithmetic; an object may fake its
``__class__``.  Each such value is refused with a typed error wherever a NumPy scalar is
accepted.  Also: carrier types only by name, typed errors for ``timedelta64``, exact-typed
distances in ``Measurement.check`` and ``ordered``, and metrics defined at infinity.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.conversion import exact_argument, exact_scalar
from certdp.core.errors import (
    DPError,
    FailedCastError,
    FailedFunctionError,
    FailedMapError,
    MakeDomainError,
)
from certdp.core.measures import ApproximateDivergence, MaxDivergence
from certdp.core.metrics import (
    absolute_distance,
    exact,
    l1_distance,
    l2_distance,
    record_key,
    symmetric_distance,
)
from certdp.core.types import CarrierType, carrier, infer_type
from certdp.numeric.floats import is_representable, round_rational
from certdp.numeric.integers import checked_add, exact_cast


class EvilInt(np.int64):
    def __int__(self):
        return 5

    def __index__(self):
        return 5

    def item(self):
        return 5


class EvilFloat(np.float64):
    def __float__(self):
        return 0.5

    def item(self):
        return 0.5

    def as_integer_ratio(self):
        return (1, 2)


class EvilStr(np.str_):
    def __str__(self):
        return "i8"


class SecretInt(np.int32):
    def __int__(self):
        raise RuntimeError("secret=42")

    item = __int__


class FakeInt:
    """Claims to be a NumPy int64 through ``__class__``."""

    __class__ = property(lambda self: np.int64)  # type: ignore[assignment]

    def __int__(self):
        return 5

    def item(self):
        return 5


def impostors():
    return [EvilInt(1000), EvilFloat(1e300), SecretInt(7), FakeInt(), EvilStr("x")]


IMPOSTOR_IDS = ["int64-subclass", "float64-subclass", "raising", "fake-class", "str_-subclass"]


@pytest.mark.parametrize("value", impostors(), ids=IMPOSTOR_IDS)
def test_exact_scalar_refuses_impostors(value):
    with pytest.raises(DPError) as caught:
        exact_scalar(value, "scale")
    assert caught.value.parameter == "scale"
    assert "secret" not in str(caught.value)
    if type(value) is FakeInt:  # not a number: passed on unchanged, never read as 5
        assert exact_argument((value, 1.0), "bounds")[0] is value
    else:
        with pytest.raises(DPError):
            exact_argument((value, 1.0), "bounds")


@pytest.mark.parametrize("value", impostors(), ids=IMPOSTOR_IDS)
@pytest.mark.parametrize("name", ["i8", "i64", "u64", "i128", "f32", "f64", "bool", "String"])
def test_carrier_exact_refuses_impostors(value, name):
    assert CarrierType(name).exact(value) is None
    assert not CarrierType(name).contains(value)


@pytest.mark.parametrize("value", impostors(), ids=IMPOSTOR_IDS)
def test_metrics_refuse_impostors(value):
    with pytest.raises(FailedCastError):
        exact(value)
    if type(value) is FakeInt:  # an arbitrary object: its own record, never the int 5
        assert record_key(value) != record_key(5)
        assert symmetric_distance().distance([value], [5]) == 2
    else:
        with pytest.raises(FailedCastError):
            record_key(value)
        with pytest.raises(DPError):
            symmetric_distance().distance([value], [1])
    with pytest.raises(DPError):
        absolute_distance("f64").distance(value, 1.0)


@pytest.mark.parametrize("value", impostors(), ids=IMPOSTOR_IDS)
@pytest.mark.parametrize("name", ["i8", "i64", "f32", "f64"])
def test_domains_refuse_impostors(value, name):
    atoms = dp.atom_domain(T=name)
    assert not atoms.member(value)
    with pytest.raises(FailedFunctionError):
        atoms.admit(value)
    vectors = dp.vector_domain(atoms)
    assert not vectors.member([value, 1])
    objects = np.empty(2, dtype=object)
    objects[0], objects[1] = value, 1
    assert not vectors.member(objects)
    with pytest.raises(DPError):
        dp.atom_domain(bounds=(value, 2000), T=name)


def test_record_key_keeps_exact_numpy_scalars():
    assert record_key(np.int64(3)) == record_key(3)
    assert record_key(np.float32(0.5)) == record_key(0.5)
    assert record_key(np.array([1, 2])) == ("row", (("int", 1), ("int", 2)))


@pytest.mark.parametrize("value", impostors(), ids=IMPOSTOR_IDS)
def test_numeric_lemmas_refuse_impostors(value):
    with pytest.raises(DPError):
        exact_cast(value, "f64")
    with pytest.raises(DPError):
        checked_add(value, 1, "i64")
    with pytest.raises(DPError):
        round_rational(value, "f64", "up")
    assert not is_representable(value)


def test_exact_numpy_scalars_still_accepted():
    assert exact_scalar(np.int8(-3), "x") == -3
    assert exact_scalar(np.longlong(7), "x") == 7
    assert CarrierType("i8").exact(np.int16(100)) == 100
    assert CarrierType("f32").exact(np.float32(0.1)) == float(np.float32(0.1))
    assert exact(np.float16(0.5)) == Fraction(1, 2)
    assert exact_cast(np.uint64(2**64 - 1), "u64") == 2**64 - 1
    assert checked_add(np.int32(1), np.int64(2), "i64") == 3


# carrier types by name only ------------------------------------------------------------


@pytest.mark.parametrize("name", ["i7", "f16", "timedelta64", "", "I8"])
def test_carrier_type_names_are_validated(name):
    with pytest.raises(MakeDomainError) as caught:
        CarrierType(name)
    assert caught.value.parameter == "T"


def test_carrier_type_name_must_be_a_str():
    with pytest.raises(MakeDomainError):
        CarrierType(3)


class LyingCarrier(CarrierType):
    @property
    def max(self):
        return 10**100


def test_carrier_accepts_only_exact_carrier_types():
    liar = LyingCarrier("i8")
    for build in (
        lambda: carrier(liar),
        lambda: dp.atom_domain(T=liar),
        lambda: absolute_distance(liar),
        lambda: l1_distance(liar),
    ):
        with pytest.raises(MakeDomainError):
            build()
    assert carrier(CarrierType("i8")) == CarrierType("i8")


def test_carrier_compares_classes_by_identity():
    class AlwaysEqual(type):
        def __eq__(cls, other):
            return True

        def __hash__(cls):
            return hash(int)

    class Impostor(metaclass=AlwaysEqual):
        pass

    with pytest.raises(MakeDomainError):
        carrier(Impostor)
    assert carrier(int) == CarrierType("i32")
    assert carrier(str) == CarrierType("String")


def test_infer_type_refuses_timedelta64():
    for value in (np.timedelta64(1, "s"), np.timedelta64(3), np.datetime64("2020-01-01")):
        with pytest.raises(MakeDomainError):
            infer_type(value)
    with pytest.raises(MakeDomainError):
        dp.atom_domain(bounds=(np.timedelta64(1, "s"), np.timedelta64(2, "s")))
    with pytest.raises(MakeDomainError):
        infer_type(EvilInt(3))


def test_infer_type_unchanged_for_exact_types():
    assert infer_type(np.uint16(3)) == CarrierType("u16")
    assert infer_type(np.longlong(3)) == CarrierType("i64")
    assert infer_type(3) == CarrierType("i32")
    assert infer_type(np.float32(1)) == CarrierType("f32")
    assert infer_type(np.longdouble(1)) == CarrierType("f64")
    assert infer_type(1.0) == CarrierType("f64")
    assert infer_type(True) == CarrierType("bool")
    assert infer_type(np.str_("a")) == CarrierType("String")


# Measurement.check and ordered ------------------------------------------------------------


def laplace(scale):
    return dp.m.make_laplace(dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), scale)


def test_measurement_check_refuses_arrays():
    built = laplace(0.3)
    guaranteed = built.map(1)
    narrowed = np.float32(guaranteed)
    assert float(narrowed) < guaranteed
    assert built.check(1, float(narrowed)) is False
    for d_out in (np.array([narrowed]), np.array(guaranteed), [guaranteed], "1.0", True):
        if isinstance(d_out, np.ndarray) and d_out.ndim == 0:
            assert built.check(1, d_out) is True  # a 0-d array is its element
            continue
        with pytest.raises(FailedMapError) as caught:
            built.check(1, d_out)
        assert caught.value.parameter == "d_out"
    assert built.check(1, guaranteed) is True


def approximate_gaussian():
    zcdp = dp.m.make_gaussian(dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), 1.0)
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(zcdp), 1e-6)


def test_approximate_check_refuses_arrays_and_wrong_lengths():
    built = approximate_gaussian()
    epsilon, delta = built.map(1)
    assert built.check(1, (epsilon, delta)) is True
    below = (float(np.float32(epsilon)), 1e-6)
    for d_out in (
        np.array([epsilon, delta], dtype=np.float32),
        (epsilon, delta, 0.0),
        (epsilon,),
        (np.array([epsilon]), delta),
        epsilon,
    ):
        with pytest.raises(FailedMapError) as caught:
            built.check(1, d_out)
        assert caught.value.parameter == "d_out"
    assert below[0] < epsilon or built.check(1, below) is True


def test_ordered_refuses_non_exact_distances():
    g = float(np.float32(0.1)) + 1e-9
    approximate = ApproximateDivergence(MaxDivergence())
    with pytest.raises(FailedMapError) as caught:
        approximate.ordered((g, 1e-7), np.array([0.1, 1e-7], dtype=np.float32))
    assert caught.value.parameter == "d_b"
    with pytest.raises(FailedMapError):
        approximate.ordered((1.0, 0.0, "junk"), (1.0, 1.0))
    with pytest.raises(FailedMapError):
        approximate.ordered((1.0, 0.0), [1.0, 1.0])
    with pytest.raises(FailedMapError):
        MaxDivergence.ordered(1.0, np.float32(2.0))
    with pytest.raises(FailedMapError):
        MaxDivergence.ordered(1.0, math.nan)
    with pytest.raises(FailedMapError):
        MaxDivergence.ordered(True, 2)
    assert MaxDivergence.ordered(1, Fraction(3, 2)) is True
    assert approximate.ordered((1, 0.0), (Fraction(1), 1e-9)) is True
    assert approximate.ordered((2.0, 0.0), (1.0, 1.0)) is False


# metrics at infinity ------------------------------------------------------------------


def test_l1_l2_return_infinity_instead_of_overflow():
    a = [1.7e308, 1.7e308, math.inf]
    b = [-1.7e308, -1.7e308, 0.0]
    assert l1_distance("f64").distance(a, b) == math.inf
    assert l2_distance("f64").squared_distance(a, b) == math.inf
    assert l1_distance("f64").distance(a[::-1], b[::-1]) == math.inf
    assert l1_distance("f64").close(a, b, math.inf)
    assert not l1_distance("f64").close(a, b, 1e308)


def test_close_is_defined_at_infinity_and_refuses_nan():
    inf = math.inf
    assert symmetric_distance().close([1, 2], [3], inf)
    assert absolute_distance("f64").close(0.0, inf, inf)
    assert absolute_distance("f64").close(0.0, 1.0, np.float64(inf))
    assert l2_distance("f64").close([0.0], [inf], inf)
    assert not absolute_distance("f64").close(0.0, 1.0, -inf)
    assert not l2_distance("f64").close([0.0], [0.0], -inf)
    for metric, a, b in (
        (symmetric_distance(), [1], [1]),
        (absolute_distance("f64"), 0.0, 0.0),
        (l2_distance("f64"), [0.0], [0.0]),
    ):
        with pytest.raises(FailedMapError) as caught:
            metric.close(a, b, math.nan)
        assert caught.value.parameter == "d"
    assert absolute_distance("f64").close(0.0, 0.5, Fraction(1, 2))
    assert not absolute_distance("f64").close(0.0, 0.5, 0.25)


class RaisingClass:
    """Its ``__class__`` raises: ``isinstance`` would propagate the error."""

    __class__ = property(lambda self: 1 / 0)  # type: ignore[assignment]


def test_a_raising_class_attribute_is_never_read():
    value = RaisingClass()
    vectors = dp.vector_domain(dp.atom_domain(T="i32"))
    assert not vectors.member(value)
    assert not vectors.member([value])
    assert not dp.atom_domain(T="f64").member(value)
    with pytest.raises(DPError):
        exact_scalar(value, "scale")
    with pytest.raises(MakeDomainError):
        dp.vector_domain(value)
    with pytest.raises(MakeDomainError):
        carrier(value)
    with pytest.raises(FailedCastError):
        exact(value)
    with pytest.raises(FailedCastError):
        checked_add(value, 1, "i64")


def test_a_finite_longdouble_beyond_the_largest_float_becomes_its_exact_fraction():
    """Regression: float() of np.longdouble('1e4000') is inf, and Fraction(inf) raised an
    untyped OverflowError; the finite value is now its exact Fraction."""
    value = np.longdouble("1e4000")
    if not np.isfinite(value) or float(value) != math.inf:
        pytest.skip("this platform's longdouble has no finite value beyond the largest float")
    exact = exact_scalar(value, "x")
    assert type(exact) is Fraction and exact == Fraction(*value.as_integer_ratio())
    assert exact_scalar(-value, "x") == -exact


def test_carrier_reads_the_type_spellings_opendp_accepts():
    """OpenDP 0.16 reads NumPy scalar classes and the strings "int", "float", "str" as type
    names; so does carrier. A subclass of a NumPy class and other strings stay refused."""
    spellings = {
        np.float32: "f32",
        np.float64: "f64",
        np.int8: "i8",
        np.int16: "i16",
        np.int32: "i32",
        np.int64: "i64",
        np.longlong: "i128",
        np.uint8: "u8",
        np.uint16: "u16",
        np.uint32: "u32",
        np.uint64: "u64",
        np.ulonglong: "u128",
        np.bool_: "bool",
        np.str_: "String",
        "int": "i32",
        "float": "f64",
        "str": "String",
        float: "f64",
    }
    for spelling, name in spellings.items():
        assert carrier(spelling) == CarrierType(name), spelling

    class MyFloat32(np.float32):
        pass

    for refused in (MyFloat32, np.float16, np.longdouble, "double", "Float", " float", "f16"):
        with pytest.raises(MakeDomainError) as error:
            carrier(refused)
        assert error.value.parameter == "T"
    assert dp.atom_domain(T=np.float32) == dp.atom_domain(T="f32")

"""Error messages under a lowered integer-printing limit (``sys.set_int_max_str_digits(640)``,
the smallest Python allows): every refusal of a huge exact value is a typed DPError whose text
prints, never the untyped ValueError Python raises when it is asked to print a long integer.
Every number in a message goes through ``errors.shown``."""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, shown

B = 7000  # within the 14,000-bit cap of the boundary, far beyond 640 digits
HUGE = [
    2**B,
    -(2**B),
    2**B + 1,
    Fraction(2**B + 1, 2**B),
    Fraction(1, 3**2500),
    Fraction(-(3**2500), 7),
    [2**B],
    [-(2**B)],
    (2**B, -(2**B)),
]


@pytest.fixture(autouse=True)
def _lowered_limit():
    from certdp.core import features

    saved_features = set(features._enabled)
    features._enabled.add("contrib")
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    yield
    sys.set_int_max_str_digits(saved)
    features._enabled.clear()
    features._enabled.update(saved_features)


def test_the_limit_is_active():
    with pytest.raises(ValueError):
        str(2**B)


def test_shown_prints_huge_numbers_in_containers():
    text = shown((2**B, [Fraction(1, 3**2500), 1.5], (3,)))
    assert text == (
        f"(an integer of {B + 1} bits, [a rational of {(3**2500).bit_length()}-bit numerator or "
        "denominator, 1.5], (3,))"
    )
    cyclic = [1]
    cyclic.append(cyclic)
    assert shown(cyclic) == repr(cyclic) == "[1, [...]]"
    assert shown(()) == "()" and shown([]) == "[]"


f64 = dp.atom_domain(T="f64", nan=False)
i32 = dp.atom_domain(T="i32")
i64 = dp.atom_domain(T="i64")
vf = dp.vector_domain(f64)
vi = dp.vector_domain(i32)
bf = dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0)), size=10)
ab, sym = dp.absolute_distance(T="f64"), dp.symmetric_distance()


def lap():
    return dp.m.make_laplace(f64, ab, 1.0)


def gau():
    return dp.m.make_gaussian(f64, ab, 1.0)


CASES = {
    "atom bounds lo": lambda v: dp.atom_domain(bounds=(v, 1.0)),
    "atom bounds hi": lambda v: dp.atom_domain(bounds=(0.0, v)),
    "atom bounds int": lambda v: dp.atom_domain(bounds=(0, v), T="i64"),
    "atom bounds int lo": lambda v: dp.atom_domain(bounds=(v, 0), T="i32"),
    "atom bounds both": lambda v: dp.atom_domain(bounds=(v, v)),
    "atom nan": lambda v: dp.atom_domain(T="f64", nan=v),
    "vector size": lambda v: dp.vector_domain(f64, size=v),
    "clamp": lambda v: dp.t.make_clamp(vf, sym, (0.0, v)),
    "clamp lo": lambda v: dp.t.make_clamp(vf, sym, (v, 0.0)),
    "clamp int": lambda v: dp.t.make_clamp(vi, sym, (0, v)),
    "is_equal": lambda v: dp.t.make_is_equal(vf, sym, v),
    "is_equal int": lambda v: dp.t.make_is_equal(vi, sym, v),
    "resize size": lambda v: dp.t.make_resize(vf, sym, v, 0.0),
    "resize const": lambda v: dp.t.make_resize(vf, sym, 3, v),
    "resize const int": lambda v: dp.t.make_resize(vi, sym, 3, v),
    "count TO": lambda v: dp.t.make_count(vf, sym, TO=v),
    "sum map": lambda v: dp.t.make_sum(bf, sym).map(v),
    "mean map": lambda v: dp.t.make_mean(bf, sym).map(v),
    "bfcs size": lambda v: dp.t.make_bounded_float_checked_sum(v, (0.0, 1.0)),
    "bfcs bounds": lambda v: dp.t.make_bounded_float_checked_sum(10, (0.0, v)),
    "bfos size": lambda v: dp.t.make_bounded_float_ordered_sum(v, (0.0, 1.0)),
    "bfos bounds": lambda v: dp.t.make_bounded_float_ordered_sum(10, (v, 1.0)),
    "sbfcs size": lambda v: dp.t.make_sized_bounded_float_checked_sum(v, (0.0, 1.0)),
    "sbfos size": lambda v: dp.t.make_sized_bounded_float_ordered_sum(v, (0.0, 1.0)),
    "sbfos b": lambda v: dp.t.make_sized_bounded_float_ordered_sum(10, (0.0, v)),
    "bims": lambda v: dp.t.make_bounded_int_monotonic_sum((0, v)),
    "bios": lambda v: dp.t.make_bounded_int_ordered_sum((v, 0)),
    "biss": lambda v: dp.t.make_bounded_int_split_sum((0, v)),
    "bims T": lambda v: dp.t.make_bounded_int_monotonic_sum((0, v), T="i32"),
    "sbics size": lambda v: dp.t.make_sized_bounded_int_checked_sum(v, (0, 1)),
    "sbics b": lambda v: dp.t.make_sized_bounded_int_checked_sum(10, (0, v)),
    "sbims size": lambda v: dp.t.make_sized_bounded_int_monotonic_sum(v, (0, 1)),
    "sbios size": lambda v: dp.t.make_sized_bounded_int_ordered_sum(v, (0, 1)),
    "sbiss size": lambda v: dp.t.make_sized_bounded_int_split_sum(v, (0, 1)),
    "sbiss b": lambda v: dp.t.make_sized_bounded_int_split_sum(10, (v, 1)),
    "laplace scale": lambda v: dp.m.make_laplace(f64, ab, v),
    "laplace int scale": lambda v: dp.m.make_laplace(i32, dp.absolute_distance(T="i32"), v),
    "laplace k": lambda v: dp.m.make_laplace(f64, ab, 1.0, k=v),
    "laplace map": lambda v: lap().map(v),
    "laplace check": lambda v: lap().check(1.0, v),
    "laplace check din": lambda v: lap().check(v, 1.0),
    "laplace invoke": lambda v: lap()(v),
    "gaussian scale": lambda v: dp.m.make_gaussian(f64, ab, v),
    "gaussian k": lambda v: dp.m.make_gaussian(f64, ab, 1.0, k=v),
    "gaussian map": lambda v: gau().map(v),
    "gaussian invoke": lambda v: gau()(v),
    "gaussian int invoke": lambda v: dp.m.make_gaussian(i32, dp.absolute_distance(T="i32"), 1.0)(v),
    "int laplace": lambda v: dp.m.make_integer_laplace(i32, dp.absolute_distance(T="i32"), v),
    "int laplace k": lambda v: dp.m.make_integer_laplace(
        i32, dp.absolute_distance(T="i32"), 1.0, k=v
    ),
    "cks20": lambda v: dp.m.make_float_laplace_cks20(f64, ab, v),
    "cks20 k": lambda v: dp.m.make_float_laplace_cks20(f64, ab, 1.0, k=v),
    "vcks20": lambda v: dp.m.make_vector_float_laplace_cks20(vf, dp.l1_distance(T="f64"), v),
    "vil": lambda v: dp.m.make_vector_integer_laplace(vi, dp.l1_distance(T="i32"), v),
    "vil invoke": lambda v: dp.m.make_vector_integer_laplace(vi, dp.l1_distance(T="i32"), 1.0)([v]),
    "vec gauss invoke": lambda v: dp.m.make_gaussian(vf, dp.l2_distance(T="f64"), 1.0)([v]),
    "fix_delta": lambda v: dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gau()), v),
    "fix_delta map": lambda v: dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gau()), 1e-6).map(v),
    "fix_delta check": lambda v: dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gau()), 1e-6).check(
        1.0, (v, 1e-6)
    ),
    "fix_delta check2": lambda v: dp.c.make_fix_delta(
        dp.c.make_zCDP_to_approxDP(gau()), 1e-6
    ).check(1.0, (1.0, v)),
    "z2a map": lambda v: dp.c.make_zCDP_to_approxDP(gau()).map(v),
    "z2a delta": lambda v: dp.c.make_zCDP_to_approxDP(gau()).map(1.0).delta(v),
    "z2a eps": lambda v: dp.c.make_zCDP_to_approxDP(gau()).map(1.0).epsilon(v),
    "p2z map": lambda v: dp.c.make_pureDP_to_zCDP(lap()).map(v),
    "comp map": lambda v: dp.c.make_composition([lap(), lap()]).map(v),
    "comp check": lambda v: dp.c.make_composition([lap(), lap()]).check(1.0, v),
    "np_clamp norm": lambda v: dp.numpy.make_np_clamp(dp.numpy.array2_domain(T="f64"), sym, v, 1),
    "np_clamp p": lambda v: dp.numpy.make_np_clamp(dp.numpy.array2_domain(T="f64"), sym, 1.0, v),
    "np_clamp origin": lambda v: dp.numpy.make_np_clamp(
        dp.numpy.array2_domain(T="f64"), sym, 1.0, 1, origin=v
    ),
    "array2 norm": lambda v: dp.numpy.array2_domain(norm=v, p=1, T="f64"),
    "array2 num_columns": lambda v: dp.numpy.array2_domain(num_columns=v, T="f64"),
    "array2 size": lambda v: dp.numpy.array2_domain(size=v, T="f64"),
    "array2 origin": lambda v: dp.numpy.array2_domain(norm=1.0, p=1, origin=v, T="f64"),
    "np_sum map": lambda v: dp.numpy.make_np_sum(
        dp.numpy.array2_domain(norm=1.0, p=1, size=10, T="f64"), sym
    ).map(v),
    "bs param": lambda v: dp.binary_search_param(lambda s: dp.m.make_laplace(f64, ab, s), 1.0, v),
    "bs param din": lambda v: dp.binary_search_param(
        lambda s: dp.m.make_laplace(f64, ab, s), v, 1.0
    ),
    "bs bounds": lambda v: dp.binary_search(lambda x: x > 5, bounds=(0, v)),
    "bs bounds f": lambda v: dp.binary_search(lambda x: x > 5.0, bounds=(0.0, v)),
    "bs bounds neg": lambda v: dp.binary_search(lambda x: x > 5, bounds=(v, 0)),
    "bs chain": lambda v: dp.binary_search_chain(lambda s: dp.m.make_laplace(f64, ab, s), 1.0, v),
    "invoke sum": lambda v: dp.t.make_sum(
        dp.vector_domain(dp.atom_domain(bounds=(0, 10), T="i32")), sym
    )([v]),
    "clamp invoke": lambda v: dp.t.make_clamp(vf, sym, (0.0, 1.0))([v]),
    "clamp invoke int": lambda v: dp.t.make_clamp(vi, sym, (0, 1))([v]),
    "count invoke": lambda v: dp.t.make_count(vf, sym)([v]),
}


# Constructors added after the suite was written (issue 21): the same rule.
nullable = dp.vector_domain(dp.atom_domain(T="f64", nan=True))
vi64 = dp.vector_domain(i64)
CASES.update(
    {
        "impute_constant": lambda v: dp.t.make_impute_constant(nullable, sym, v),
        "impute_uniform": lambda v: dp.t.make_impute_uniform_float(nullable, sym, (0.0, v)),
        "geometric scale": lambda v: dp.m.make_geometric(i32, dp.absolute_distance(T="i32"), v),
        "count_by_categories": lambda v: dp.t.make_count_by_categories(vi64, sym, [1, 2, v]),
        "count_by map": lambda v: dp.t.make_count_by(vi64, sym).map(v),
        "count_distinct map": lambda v: dp.t.make_count_distinct(vi64, sym).map(v),
        "find": lambda v: dp.t.make_find(vi64, sym, [1, v]),
        "find_bin": lambda v: dp.t.make_find_bin(vi64, sym, [1, v]),
        "cast invoke": lambda v: dp.t.make_cast(vi64, sym, "i32")([v]),
        "cast_default invoke": lambda v: dp.t.make_cast_default(vi64, sym, "i32")([v]),
        "identity map": lambda v: dp.t.make_identity(vi64, sym).map(v),
    }
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_huge_values_give_typed_errors_that_print(name):
    for value in HUGE:
        try:
            CASES[name](value)
        except DPError as error:
            assert str(error) and repr(error) and error.parameter, (name, value)

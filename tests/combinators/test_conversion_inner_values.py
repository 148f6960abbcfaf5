"""Conversions and a hostile inner measurement (issue #21): a hand-built measurement whose map
returns something that is not a distance of its output measure gets a typed DPError naming
the argument and the rule, from make_fix_delta, make_zCDP_to_approxDP, make_approximate,
make_fixed_approxDP_to_approxDP and composition, never a raw AttributeError or TypeError.  The
shared tests ``is_delta``/``is_distance`` (_conversion/inner_values.tex), and the exact sum of
make_fix_delta's test-time contract."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

import certdp.prelude as dp
from certdp.combinators._conversion import is_delta, is_distance
from certdp.combinators.fix_delta import contract as fix_delta_contract
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import DPError, FailedMapError
from certdp.core.measures import PrivacyProfile
from certdp.core.transformation import Measurement


class _Disguised:
    """Claims to be a PrivacyProfile (and a float) through ``__class__``."""

    __class__ = PrivacyProfile

    def epsilon(self, delta):
        return 0.0

    def delta(self, epsilon):
        return 0.0


class _FloatSubclass(float):
    pass


HOSTILE = {
    "float": 0.5,
    "tuple of three": (1.0, 2.0, 3.0),
    "disguised profile": _Disguised(),
    "string": "0.5",
    "None": None,
    "float subclass": _FloatSubclass(0.5),
    "bool": True,
}
#: the same, less the one that is a valid loss (a number) where a number is expected
NOT_NUMBERS = {name: value for name, value in HOSTILE.items() if name != "float"}


def _forged(numerator, denominator) -> Fraction:
    """A Fraction built without its constructor, with any stored fields."""
    value = object.__new__(Fraction)
    value._numerator, value._denominator = numerator, denominator
    return value


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _hand_built(measure, value):
    return Measurement(
        input_domain=dp.atom_domain(T=float),
        function=lambda x: x,
        input_metric=dp.absolute_distance(T=float),
        output_measure=measure,
        privacy_map=lambda d_in: value,
    )


SMOOTHED = dp.smoothed_max_divergence()
SMOOTHED_PAIR = dp.approximate(dp.smoothed_max_divergence())


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("measure", [SMOOTHED, SMOOTHED_PAIR], ids=["profile", "pair"])
def test_fix_delta_refuses_a_value_that_is_not_a_profile(measure, value):
    hostile = HOSTILE[value]
    distance = (hostile, 0.0) if measure is SMOOTHED_PAIR else hostile
    fixed = dp.c.make_fix_delta(_hand_built(measure, distance), 1e-6)  # built: type unknown yet
    with pytest.raises(FailedMapError) as error:
        fixed.map(1.0)
    assert error.value.parameter == "measurement"
    assert "must give a PrivacyProfile" in str(error.value)


@pytest.mark.parametrize(
    "curve", [lambda e: "x", lambda e: None, lambda e: (0.0, 0.0), lambda e: math.nan]
)
@pytest.mark.parametrize("measure", [SMOOTHED, SMOOTHED_PAIR], ids=["profile", "pair"])
def test_fix_delta_refuses_a_profile_whose_curve_is_not_a_number(measure, curve):
    profile = PrivacyProfile(curve)
    distance = (profile, 0.0) if measure is SMOOTHED_PAIR else profile
    fixed = dp.c.make_fix_delta(_hand_built(measure, distance), 1e-6)
    with pytest.raises(FailedMapError) as error:
        fixed.map(1.0)
    assert error.value.parameter == "curve"


@pytest.mark.parametrize("value", NOT_NUMBERS)
@pytest.mark.parametrize(
    "measure", [dp.max_divergence(), dp.zero_concentrated_divergence()], ids=["pure", "zcdp"]
)
def test_approximate_refuses_a_loss_that_is_not_a_number(measure, value):
    converted = dp.c.make_approximate(_hand_built(measure, HOSTILE[value]))
    with pytest.raises(FailedMapError) as error:
        converted.map(1.0)
    assert error.value.parameter == "measurement"
    assert "non-negative number" in str(error.value)


@pytest.mark.parametrize("loss", [-1.0, math.nan, Fraction(-1, 2)])
def test_approximate_refuses_a_negative_or_nan_loss(loss):
    converted = dp.c.make_approximate(_hand_built(dp.max_divergence(), loss))
    with pytest.raises(FailedMapError):
        converted.map(1.0)


@pytest.mark.parametrize("loss", [_forged(1, -2), _forged(1, 0), _forged(0, 0)], ids=repr)
def test_approximate_refuses_a_forged_fraction(loss):
    """Its comparisons cross-multiply the stored fields: 1/(-2) would pass ``>= 0``."""
    assert loss >= 0  # what a test without the denominator check would accept
    converted = dp.c.make_approximate(_hand_built(dp.max_divergence(), loss))
    with pytest.raises(FailedMapError) as error:
        converted.map(1.0)
    assert error.value.parameter == "measurement"


@pytest.mark.parametrize("fixed", [_forged(0, 0), _forged(1, -2)], ids=repr)
def test_fix_delta_refuses_a_forged_inner_delta(fixed):
    profile = PrivacyProfile(lambda epsilon: 0.0)
    built = dp.c.make_fix_delta(_hand_built(SMOOTHED_PAIR, (profile, fixed)), 1e-6)
    with pytest.raises(FailedMapError) as error:
        built.map(1.0)
    assert error.value.parameter == "measurement"
    assert "inner map's delta" in str(error.value)


def test_approximate_keeps_a_number():
    for loss in (0, 0.5, Fraction(1, 3), math.inf):
        assert dp.c.make_approximate(_hand_built(dp.max_divergence(), loss)).map(1.0) == (
            loss,
            0.0,
        )


@pytest.mark.parametrize("value", NOT_NUMBERS)
@pytest.mark.parametrize(
    "build",
    [
        lambda v: dp.c.make_zCDP_to_approxDP(_hand_built(dp.zero_concentrated_divergence(), v)),
        lambda v: dp.c.make_zCDP_to_approxDP(
            _hand_built(dp.approximate(dp.zero_concentrated_divergence()), (v, 0.0))
        ),
        lambda v: dp.c.make_zCDP_to_approxDP(
            _hand_built(dp.approximate(dp.zero_concentrated_divergence()), (0.5, v))
        ),
        lambda v: dp.c.make_fixed_approxDP_to_approxDP(
            _hand_built(dp.approximate(dp.max_divergence()), v)
        ),
        lambda v: dp.c.make_fixed_approxDP_to_approxDP(
            _hand_built(dp.approximate(dp.max_divergence()), (v, 0.0))
        ),
        lambda v: dp.c.make_composition([_hand_built(dp.max_divergence(), v)] * 2),
        lambda v: dp.c.make_composition(
            [_hand_built(dp.approximate(dp.max_divergence()), (0.5, v))] * 2
        ),
    ],
    ids=[
        "zcdp",
        "zcdp-pair-rho",
        "zcdp-pair-delta",
        "fixed",
        "fixed-epsilon",
        "composition",
        "composition-delta",
    ],  # fmt: skip
)
def test_other_conversions_give_typed_errors(build, value):
    """The value is refused when the map runs or, for the zCDP curve (whose rho is read lazily),
    when the profile is evaluated: always a DPError, never a raw Python error."""
    with pytest.raises(DPError):
        distance = build(HOSTILE[value]).map(1.0)
        profile = distance[0] if type(distance) is tuple else distance
        if type(profile) is PrivacyProfile:
            profile.epsilon(1e-6)
        else:  # a pass-through value that is no distance would be a bug
            raise AssertionError(f"answered {distance!r}")


@pytest.mark.parametrize(
    "value, distance, delta",
    [
        (0, True, True),
        (1, True, True),
        (0.25, True, True),
        (Fraction(1, 3), True, True),
        (2.0, True, False),
        (math.inf, True, False),
        (-0.0, True, True),
        (-1e-300, False, False),
        (math.nan, False, False),
        (True, False, False),
        (_FloatSubclass(0.5), False, False),
        (Fraction(1, 2).__class__(1, 2), True, True),
        ("0.5", False, False),
        (None, False, False),
        (_Disguised(), False, False),
        (mpmath.mpf(0.5), False, False),
        (_forged(1, 2), True, True),
        (_forged(1, -2), False, False),
        (_forged(-1, -2), False, False),
        (_forged(1, 0), False, False),
        (_forged(0, 0), False, False),
        (_forged(-1, 0), False, False),
    ],
)
def test_the_shared_tests(value, distance, delta):
    assert is_distance(value) is distance
    assert is_delta(value) is delta


def test_fix_delta_and_zcdp_share_one_is_delta():
    from certdp.combinators.fix_delta import make_fix_delta as fix_module
    from certdp.combinators.zCDP_to_approxDP import make_zCDP_to_approxDP as zcdp_module

    fix = __import__(fix_module.__module__, fromlist=["is_delta"])
    zcdp = __import__(zcdp_module.__module__, fromlist=["is_delta"])
    assert fix.is_delta is zcdp.is_delta is is_delta
    assert not hasattr(fix, "_is_delta") and not hasattr(zcdp, "_is_delta")


def test_the_contract_sums_deltas_exactly(monkeypatch):
    """A stated delta that the bound plus the inner delta exceeds by 1e-300: an 80-digit mpmath
    sum rounds 1e-6 + 1e-300 back to 1e-6 and would accept it; the exact sum refuses it."""
    delta = 1e-6
    inner = _hand_built(SMOOTHED_PAIR, (PrivacyProfile(lambda e: 0.0), 1e-300))
    inner.inner_zcdp = None
    monkeypatch.setattr(fix_delta_contract, "component_divergence", lambda *_: Fraction(1))
    monkeypatch.setattr(fix_delta_contract, "mp_cdp_delta", lambda rho, e: mpmath.mpf(delta))
    contract = fix_delta_contract.CONTRACT
    with mpmath.workdps(80):
        assert mpmath.mpf(delta) + mpmath.mpf(1e-300) == mpmath.mpf(delta)  # what it missed
    with pytest.raises(PrivacyViolation):
        contract.check_pair(None, {"measurement": inner}, 0.0, 1.0, 1.0, (1.0, delta))
    monkeypatch.setattr(fix_delta_contract, "mp_cdp_delta", lambda rho, e: mpmath.mpf(delta / 2))
    assert contract.check_pair(None, {"measurement": inner}, 0.0, 1.0, 1.0, (1.0, delta)) <= 1


def test_exact_reads_an_mpmath_number_as_its_rational():
    with mpmath.workdps(80):
        third = mpmath.mpf(1) / 3
        assert (
            fix_delta_contract._exact(third)
            == Fraction(*third.man_exp[:1]) * Fraction(2) ** (third.man_exp[1])
        )
    with mpmath.workdps(80):
        third = mpmath.mpf(1) / 3
        expected = Fraction(third.man_exp[0]) * Fraction(2) ** third.man_exp[1]
    # read outside workdps (at 53 bits): the 80-digit value keeps every digit (refconv F1)
    assert fix_delta_contract._exact(third) == expected
    assert abs(expected - Fraction(1, 3)) < Fraction(1, 10**79)
    assert fix_delta_contract._exact(mpmath.mpf(0.1)) == Fraction(0.1)
    assert fix_delta_contract._exact(mpmath.mpf(0)) == 0
    tiny = mpmath.exp(-(10**10))  # no Fraction is built from its exponent
    assert 0 < tiny <= mpmath.mpf(2) ** -1200
    assert fix_delta_contract._exact(tiny) == Fraction(1, 2**1200)

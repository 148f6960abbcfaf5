"""Issue #18: every place a user's number enters certdp takes a forged ``Fraction`` (made by
``object.__new__`` with its fields set by hand) only through
``core.exact_type.is_exact_fraction`` (Lemma [exact fraction] of core/exact_type.tex): a
non-positive or zero denominator, non-``int`` fields (``bool``, an ``int`` subclass, a NumPy
integer), unset fields or unreduced fields (Fraction's equality compares the stored fields) are
rebuilt as the value they denote or refused with a typed error naming the parameter."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.conversion import MAX_EXACT_BITS, exact_argument, exact_scalar, is_exact
from certdp.core.errors import DPError, FailedCastError, FailedFunctionError, FailedMapError, shown
from certdp.core.exact_type import fraction_field_bits, is_exact_fraction
from certdp.core.metrics import exact
from certdp.numeric import inf_cast
from certdp.numeric.integers import exact_cast
from certdp.samplers.noisy_top_k import exact_score


def forged(numerator, denominator) -> Fraction:
    value = object.__new__(Fraction)
    value._numerator, value._denominator = numerator, denominator
    return value


class Int(int):
    pass


ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


def stub(loss, measure):
    """A measurement whose map returns ``loss`` at every ``d_in``."""
    return dp.Measurement(*ATOM[:1], lambda x: x, ATOM[1], measure, lambda d_in: loss)


BAD_FIELDS = [(1, -2), (1, 0), (0, 0), (2, 4), (-3, 6), (True, 2), (1, True), (Int(1), 2),
              (1, Int(2)), (np.int64(1), 2), (1, np.int64(2))]  # fmt: skip


def test_the_premise_an_unreduced_fraction_is_unequal_to_its_value():
    assert forged(2, 4) != Fraction(1, 2)
    assert hash(forged(2, 4)) == hash(Fraction(1, 2))  # equal hashes, unequal: a set keeps both
    assert len({forged(2, 4), Fraction(1, 2)}) == 2


@pytest.mark.parametrize("fields", BAD_FIELDS, ids=repr)
def test_is_exact_fraction_refuses_forged_fields(fields):
    assert is_exact_fraction(forged(*fields)) is False
    assert is_exact(forged(*fields)) is False


def test_is_exact_fraction_refuses_unset_fields_and_other_classes_without_raising():
    assert is_exact_fraction(object.__new__(Fraction)) is False
    assert is_exact_fraction(0.5) is False and is_exact_fraction(1) is False

    class Sub(Fraction):
        pass

    assert is_exact_fraction(Sub(1, 2)) is False


def test_fraction_field_bits_measures_only_int_fields_in_constant_time(monkeypatch):
    """Lemma [field bits]: the larger bit length of the int-itself fields, 0 for an unset one
    or none, and no gcd (a forged unreduced Fraction of a million bits is measured)."""
    made = Fraction(-8, 3)  # the constructor's own gcd runs here, before the count
    calls = []
    real_gcd = math.gcd
    monkeypatch.setattr(math, "gcd", lambda *a: calls.append(a) or real_gcd(*a))
    assert fraction_field_bits(forged(2**1_000_000, 2**999_999)) == 1_000_001
    assert fraction_field_bits(made) == 4
    assert fraction_field_bits(forged(np.int64(2**40), 3)) == 2
    assert fraction_field_bits(forged(Int(2**70), True)) == 0
    assert fraction_field_bits(object.__new__(Fraction)) == 0
    assert calls == []


@pytest.mark.parametrize("value", [Fraction(1, 2), Fraction(-3, 7), Fraction(0), forged(1, 2)])
def test_is_exact_fraction_keeps_what_the_constructor_stores(value):
    assert is_exact_fraction(value) is True


@pytest.mark.parametrize("fields", [(2, 4), (-3, 6), (1, -2), (np.int64(2), 4)], ids=repr)
def test_the_boundary_rebuilds_an_unreduced_or_signed_fraction_as_its_value(fields):
    value = exact_scalar(forged(*fields), "x")
    honest = Fraction(int(fields[0]), int(fields[1]))
    assert value == honest and (value.numerator, value.denominator) == (
        honest.numerator,
        honest.denominator,
    )
    assert is_exact_fraction(value)


@pytest.mark.parametrize("fields", [(1, 0), (True, 2), (1, Int(2))], ids=repr)
def test_the_boundary_refuses_a_zero_denominator_or_non_integer_fields(fields):
    with pytest.raises(FailedCastError) as error:
        exact_scalar(forged(*fields), "x")
    assert error.value.parameter == "x"


def test_the_boundary_refuses_a_fraction_with_unset_fields():
    with pytest.raises(FailedCastError) as error:
        exact_scalar(object.__new__(Fraction), "x")
    assert error.value.parameter == "x"


def _approx_zcdp_gaussian():
    dp.enable_features("contrib")
    return dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*ATOM, scale=1.0))


def test_fix_delta_takes_an_unreduced_delta_as_its_value():
    """Before the fix, delta 2/4 was refused: its equality with the float 0.5 compared fields."""
    m = _approx_zcdp_gaussian()
    honest = dp.c.make_fix_delta(m, Fraction(1, 2)).map(1.0)
    assert dp.c.make_fix_delta(m, forged(2, 4)).map(1.0) == honest


@pytest.mark.parametrize("fields", [(1, -2), (2, 4), (np.int64(1), 2)], ids=repr)
def test_inf_cast_rounds_a_forged_fraction_as_its_value(fields):
    honest = Fraction(int(fields[0]), int(fields[1]))
    assert inf_cast(forged(*fields), "f64") == inf_cast(honest, "f64")


@pytest.mark.parametrize("fields", [(1, 0), (True, 2)], ids=repr)
def test_inf_cast_refuses_a_forged_fraction_typed(fields):
    with pytest.raises(FailedCastError) as error:  # was ZeroDivisionError for (1, 0)
        inf_cast(forged(*fields), "f64")
    assert error.value.parameter == "value"


def test_exact_cast_rebuilds_or_refuses_a_forged_fraction():
    assert exact_cast(forged(4, -2), "i32") == -2  # Fraction(4, -2) is -2
    assert exact_cast(forged(3, 6), "f64") == 0.5
    with pytest.raises(FailedCastError) as error:  # was ZeroDivisionError
        exact_cast(forged(4, 0), "i32")
    assert error.value.parameter == "value"


def test_metric_exact_rebuilds_or_refuses_a_forged_fraction():
    assert exact(forged(1, -2)) == Fraction(-1, 2)
    assert exact(forged(2, 4)) == Fraction(1, 2)
    with pytest.raises(FailedCastError) as error:
        exact(forged(1, 0), "d")
    assert error.value.parameter == "d"
    assert dp.absolute_distance(T="f64").close(0.0, 1.0, forged(2, 2)) is True
    with pytest.raises(DPError):
        dp.absolute_distance(T="f64").close(0.0, 1.0, forged(1, 0))


def test_noisy_top_k_scores_rebuild_or_refuse_a_forged_fraction():
    assert exact_score(forged(1, -2), "x") == (-1, 2)
    assert exact_score(forged(2, 4), "x") == (1, 2)
    for fields in [(1, 0), (True, 2)]:
        with pytest.raises(FailedFunctionError) as error:
            exact_score(forged(*fields), "x")
        assert error.value.parameter == "x"


@pytest.mark.parametrize("fields", [(1, -2), (1, 0)], ids=repr)
def test_composition_refuses_a_forged_negative_or_zero_denominator_loss(fields):
    composed = dp.c.make_composition([stub(forged(*fields), dp.max_divergence())] * 2)
    with pytest.raises(FailedMapError):
        composed.map(1.0)


def test_composition_adds_an_unreduced_loss_as_its_value():
    honest = dp.c.make_composition([stub(Fraction(1, 3), dp.max_divergence())] * 2).map(1.0)
    loss = forged(2, 6)
    assert dp.c.make_composition([stub(loss, dp.max_divergence())] * 2).map(1.0) == honest


def _user(loss, measure=None):
    dp.enable_features("contrib", "honest-but-curious")
    return dp.m.make_user_measurement(
        *ATOM, measure or dp.max_divergence(), lambda x: x, lambda d_in: loss
    )


@pytest.mark.parametrize("fields", [(1, -2), (1, 0), (True, 2)], ids=repr)
def test_user_measurement_refuses_a_forged_loss(fields):
    with pytest.raises(FailedMapError) as error:
        _user(forged(*fields)).map(1.0)
    assert error.value.parameter == "privacy_map"


def test_user_measurement_rounds_an_unreduced_loss_as_its_value():
    assert _user(forged(3, 6)).map(1.0) == _user(Fraction(1, 2)).map(1.0) == 0.5


@pytest.mark.parametrize("fields", [(1, -2), (1, 0)], ids=repr)
def test_renyi_curve_refuses_a_forged_value(fields):
    curve = _user(lambda alpha: forged(*fields), dp.renyi_divergence()).map(1.0)
    with pytest.raises(FailedMapError):
        curve(2.0)


def test_renyi_curve_takes_an_unreduced_value_as_its_value():
    honest = _user(lambda alpha: Fraction(1, 2), dp.renyi_divergence()).map(1.0)(2.0)
    assert _user(lambda alpha: forged(2, 4), dp.renyi_divergence()).map(1.0)(2.0) == honest


@pytest.mark.parametrize("fields", [(1, -2), (1, 0), (True, 2)], ids=repr)
def test_pure_to_zcdp_refuses_a_forged_inner_epsilon(fields):
    dp.enable_features("contrib")
    converted = dp.c.make_pureDP_to_zCDP(stub(forged(*fields), dp.max_divergence()))
    with pytest.raises(FailedMapError) as error:
        converted.map(1.0)
    assert error.value.parameter == "measurement"


def test_pure_to_zcdp_converts_an_unreduced_inner_epsilon_as_its_value():
    dp.enable_features("contrib")
    honest = dp.c.make_pureDP_to_zCDP(stub(Fraction(1, 2), dp.max_divergence())).map(1.0)
    assert dp.c.make_pureDP_to_zCDP(stub(forged(2, 4), dp.max_divergence())).map(1.0) == honest


@pytest.mark.parametrize("fields", [(1, -2), (1, 0), (True, 2)], ids=repr)
def test_select_private_candidate_refuses_a_forged_inner_epsilon(fields):
    dp.enable_features("contrib")
    inner = dp.Measurement(*ATOM[:1], lambda x: (1.0, x), ATOM[1], dp.max_divergence(),
                           lambda d_in: forged(*fields))  # fmt: skip
    selected = dp.c.make_select_private_candidate(inner, 0.5, 0.0)
    with pytest.raises(FailedMapError) as error:
        selected.map(1.0)
    assert error.value.parameter == "measurement"


@pytest.mark.parametrize("fields", [(np.int64(1), 2), (1, 0), (2, 4)], ids=repr)
def test_shown_prints_a_fraction_with_foreign_or_forged_fields(fields):
    assert "Fraction" in shown(forged(*fields))  # was AttributeError for a NumPy field


def test_shown_still_describes_a_huge_fraction_by_its_size():
    assert "bit" in shown(Fraction(1, 3**2000))


def test_a_profile_is_asked_at_the_value_of_an_unreduced_epsilon():
    from certdp.core.measures import PrivacyProfile

    seen = []
    profile = PrivacyProfile(lambda epsilon: seen.append(epsilon) or Fraction(1, 4))
    assert profile.delta(forged(2, 4)) == Fraction(1, 4)
    assert seen == [Fraction(1, 2)] and is_exact_fraction(seen[0])  # rebuilt, then handed on


@pytest.mark.parametrize("fields", [(2, 4), (-1, -2)], ids=repr)
def test_accuracy_reads_a_forged_alpha_as_its_value(fields):
    honest = dp.laplacian_scale_to_accuracy(1.0, Fraction(1, 2))
    assert dp.laplacian_scale_to_accuracy(1.0, forged(*fields)) == honest


def test_accuracy_refuses_a_forged_alpha_with_a_zero_denominator_typed():
    with pytest.raises(DPError) as error:
        dp.laplacian_scale_to_accuracy(1.0, forged(1, 0))
    assert error.value.parameter == "alpha"


# Referee refforged, finding 1: a huge Fraction is built without any gcd (Fraction.__pow__
# does not normalise; about 0.1 s), and the boundary must refuse or describe it by its size
# before reducing anything: no math.gcd may run on a field of more than MAX_EXACT_BITS bits.
HUGE = Fraction(2, 3) ** 1_000_000  # a 1.58M-bit denominator
HUGE_FORGED = forged(2 * 3**9000, 4 * 5**9000)  # unreduced int fields of over 14000 bits


@pytest.fixture
def huge_gcds(monkeypatch):
    """The calls of math.gcd (used by is_exact_fraction and by Fraction's constructor) on an
    argument of more than MAX_EXACT_BITS bits, counted while the test runs."""
    calls = []
    gcd = math.gcd

    def counting(*args):
        if any(abs(int(a)).bit_length() > MAX_EXACT_BITS for a in args):
            calls.append(len(args))
        return gcd(*args)

    monkeypatch.setattr(math, "gcd", counting)
    return calls


def _laplace_check(value):
    return dp.m.make_laplace(*ATOM, scale=1.0).check(1.0, value)


def _laplace_map(value):
    return dp.m.make_laplace(*ATOM, scale=1.0).map(value)


@pytest.mark.parametrize("value", [HUGE, HUGE_FORGED], ids=["huge", "huge-forged"])
@pytest.mark.parametrize(
    "call",
    [
        lambda v: exact_scalar(v, "x"),
        lambda v: exact_argument(v, "x"),
        _laplace_check,
        _laplace_map,
    ],
    ids=["exact_scalar", "exact_argument", "laplace.check d_out", "laplace.map d_in"],
)
def test_a_huge_fraction_is_refused_at_the_boundary_without_a_gcd(huge_gcds, value, call):
    with pytest.raises(DPError) as caught:
        call(value)
    assert caught.value.parameter in ("x", "d_out", "d_in")
    assert huge_gcds == []


@pytest.mark.parametrize("value", [HUGE, HUGE_FORGED], ids=["huge", "huge-forged"])
def test_shown_describes_a_huge_fraction_by_its_size_without_a_gcd(huge_gcds, value):
    bits = max(value._numerator.bit_length(), value._denominator.bit_length())
    assert shown(value) == f"a rational of {bits}-bit numerator or denominator"
    assert huge_gcds == []


@pytest.mark.parametrize("value", [HUGE, HUGE_FORGED], ids=["huge", "huge-forged"])
def test_composition_and_a_user_map_refuse_a_huge_inner_loss_typed_without_a_gcd(
    huge_gcds, value
):
    # a deliberate refusal (lead's decision): an inner loss over MAX_EXACT_BITS bits is
    # refused by the boundary, where main summed and rounded it
    composed = dp.c.make_composition([stub(value, dp.max_divergence()), stub(1.0, dp.max_divergence())])
    with pytest.raises(FailedMapError):
        composed.map(1.0)
    user = _user(value)
    with pytest.raises(FailedMapError) as caught:
        user.map(1.0)
    assert caught.value.parameter == "privacy_map"
    assert huge_gcds == []


def test_the_size_cap_on_a_forged_fraction_is_tested_before_it_is_reduced():
    with pytest.raises(FailedCastError, match="more than 14000 bits") as caught:
        exact_scalar(forged(2 * 3**9000, 2 * 5**9000), "x")
    assert caught.value.parameter == "x"
    # an exact Fraction of the same value's size passes (the cap is on the stored fields)
    assert exact_scalar(Fraction(3**8000, 5**6000), "x") == Fraction(3**8000, 5**6000)


class Boom(Fraction):
    """Referee refforged, finding 2: a Fraction subclass whose numerator property raises."""

    @property
    def numerator(self):
        raise ZeroDivisionError("boom")


def test_a_fraction_subclass_whose_numerator_raises_is_refused_typed():
    with pytest.raises(FailedCastError) as caught:
        exact_scalar(Boom(1, 2), "x")
    assert caught.value.parameter == "x"
    with pytest.raises(DPError) as caught:
        dp.m.make_laplace(*ATOM, scale=Boom(1, 2))
    assert caught.value.parameter == "scale"
    with pytest.raises(DPError) as caught:
        _laplace_map(Boom(1, 2))
    assert caught.value.parameter == "d_in"
    user = _user(Boom(1, 2))
    with pytest.raises(FailedMapError):
        user.map(1.0)


def test_a_huge_field_beside_an_unset_one_is_measured_and_shown_by_its_size():
    """Each field is read on its own: an unset denominator does not hide a huge numerator
    (shown() describes it by its size, in constant time, instead of printing it)."""
    value = object.__new__(Fraction)
    Fraction._numerator.__set__(value, 3 ** (2**21))
    assert fraction_field_bits(value) == (3 ** (2**21)).bit_length()
    assert shown(value) == f"a rational of {(3 ** (2**21)).bit_length()}-bit numerator or denominator"
    assert not is_exact(value)
    with pytest.raises(FailedCastError, match="numerator or denominator"):
        exact_scalar(value, "scale")

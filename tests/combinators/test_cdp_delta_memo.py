"""cdp_delta with a memo shared by the calls of one profile returns the bits it returns without
one (cdp_delta.tex, "the memo"); the memo is used; a key missing a part it needs is caught."""

from __future__ import annotations

import importlib
import math
import random
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.measures import PrivacyProfile

from ..rounding.flips import flipped

CDP = "certdp.combinators._conversion.cdp_delta"
module = importlib.import_module(CDP)


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def bisection_epsilons(rho: float, delta: float) -> list[float]:
    """The epsilons PrivacyProfile.epsilon evaluates, in order (memo-free curve)."""
    seen = []

    def curve(epsilon):
        seen.append(epsilon)
        return module.cdp_delta(rho, epsilon)

    PrivacyProfile(curve).epsilon(delta)
    return seen


@pytest.mark.parametrize(
    ("rho", "delta"),
    [(0.5, 1e-6), (1e-12, 1e-6), (1.3877787807814457e-12, 1e-300), (3.0, 1e-9), (1e-300, 0.5)],
)
def test_a_shared_memo_changes_no_value_along_a_bisection(rho, delta):
    memo = {}
    epsilons = bisection_epsilons(rho, delta)
    for epsilon in epsilons + epsilons[::-1]:  # every value twice, in both orders
        assert bits(module.cdp_delta(rho, epsilon, memo)) == bits(module.cdp_delta(rho, epsilon))


@given(
    rho=st.floats(min_value=5e-324, max_value=1e300),
    epsilons=st.lists(st.floats(min_value=0.0, max_value=1e300), min_size=1, max_size=8),
)
def test_a_shared_memo_changes_no_value_anywhere(rho, epsilons):
    memo = {}
    for epsilon in epsilons + [e / 2**600 for e in epsilons]:
        assert bits(module.cdp_delta(rho, epsilon, memo)) == bits(module.cdp_delta(rho, epsilon))


def test_the_memo_saves_work_at_tiny_epsilons(monkeypatch):
    """Below about rho 2^-53 the epsilons of a bisection give the same ar_e at the same order:
    the rest is computed once."""
    calls = []
    real = module._from_ar_e
    monkeypatch.setattr(module, "_from_ar_e", lambda a, r: calls.append((a, r)) or real(a, r))
    memo, rho = {}, 1e-12
    epsilons = [2.0**-k for k in range(100, 1000, 7)]
    values = {bits(module.cdp_delta(rho, e, memo)) for e in epsilons}
    assert len(calls) < len(epsilons) / 4 and len(values) <= len(calls)


def test_the_profile_of_make_zCDP_to_approxDP_uses_a_memo_and_gives_the_same_epsilon():
    dp.enable_features("contrib")
    gaussian = dp.m.make_gaussian(
        dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), 3.0
    )
    profile = dp.c.make_zCDP_to_approxDP(gaussian).map(1.0)
    rho = gaussian.map(1.0)
    plain = PrivacyProfile(lambda epsilon: module.cdp_delta(rho, epsilon))
    for delta in (1e-6, 1e-12, 1e-300, 0.3):
        assert bits(profile.epsilon(delta)) == bits(plain.epsilon(delta))
        epsilon = profile.epsilon(delta)
        assert bits(profile.delta(epsilon)) == bits(plain.delta(epsilon))


def test_a_key_without_ar_e_is_caught():
    """A memo keyed on the order alone would hand one epsilon's delta to another: a copy with
    that key returns a different value along a bisection, which the tests above reject."""
    copy = flipped(CDP, "tail-key", 'key = ("tail", a, ar_e)', 'key = ("tail", a)')
    rng = random.Random(5)
    a, rho, memo = 3.0, 0.25, {}
    differs = False
    for _ in range(20):
        epsilon = rng.uniform(0.0, 2.0)
        got = copy.delta_at_order(a, rho, epsilon, memo)
        differs |= bits(got) != bits(module.delta_at_order(a, rho, epsilon))
    assert differs
    assert not math.isnan(got)


def test_a_full_memo_is_emptied_and_changes_no_value():
    """Past MEMO_CAP entries the memo is emptied before the next store (cdp_delta.tex, "the
    memo"): it never holds more, and every value is still the memo-free one."""
    memo, rho = {}, 0.5
    epsilons = [1.0 + i * 1e-6 for i in range(3 * module.MEMO_CAP)]
    for epsilon in epsilons + epsilons[::-1]:
        assert bits(module.cdp_delta(rho, epsilon, memo)) == bits(module.cdp_delta(rho, epsilon))
        assert 1 <= len(memo) <= module.MEMO_CAP


def test_rho_passes_the_boundary():
    """rho passes exact_scalar as epsilon does: a NumPy float is its float, a float subclass is
    refused naming rho."""
    import numpy as np

    from certdp.core.errors import FailedMapError

    class F(float):
        pass

    assert bits(module.cdp_delta(np.float64(0.5), 1.0)) == bits(module.cdp_delta(0.5, 1.0))
    with pytest.raises(FailedMapError) as caught:
        module.cdp_delta(F(0.5), 1.0)
    assert caught.value.parameter == "rho"

"""Regression tests from referee report referee-memo (session 7, perf-search at cd9cd87): both
failed there. The memo of make_zCDP_to_approxDP's profile is now bounded (cdp_delta.MEMO_CAP,
emptied when full), and rho passes exact_scalar, so a float subclass is refused naming rho.
The tests are the referee's, assertions unchanged.
"""

from __future__ import annotations

import tracemalloc

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedMapError
from certdp.core.measures import zero_concentrated_divergence
from certdp.core.transformation import Measurement


def _zcdp(rho):
    """A zCDP measurement whose map returns ``rho`` as given (like OpenDP's user measurement)."""
    return Measurement(
        input_domain=dp.atom_domain(T=float),
        function=lambda x: x,
        input_metric=dp.absolute_distance(T=float),
        output_measure=zero_concentrated_divergence(),
        privacy_map=lambda d_in: rho,
    )


def _profile(rho=0.5):
    dp.enable_features("contrib")
    return dp.c.make_zCDP_to_approxDP(_zcdp(rho)).map(1.0)


def _memo_of(profile) -> dict:
    cells = [c.cell_contents for c in profile._curve.__closure__ or ()]
    memos = [c for c in cells if isinstance(c, dict)]
    assert len(memos) == 1, "the profile's curve should close over exactly one memo dict"
    return memos[0]


def test_memo_of_a_profile_is_bounded():
    """The memo of make_zCDP_to_approxDP's profile (make_zCDP_to_approxDP.py, label memo;
    cdp_delta.py, label tail-memo) keeps one entry per distinct (a, ar_e) for the whole life of
    the profile and never evicts: a caller that scans epsilons (a plot, a grid search, an
    accountant polling a long-lived profile) grows memory without limit (~165 B per call,
    measured with tracemalloc; ~1 MB/s at ~140 us per call), ending in a MemoryError, an
    untyped exception. The memo only pays off inside one bisection (tiny epsilons sharing
    ar_e), so a bounded cache (or one per PrivacyProfile.epsilon call) loses nothing. OpenDP 0.16
    keeps no state in the profile."""
    profile = _profile()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(5000):
            profile.delta(1.0 + i * 1e-6)  # distinct epsilons, no bisection
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(_memo_of(profile)) <= 1024, f"{len(_memo_of(profile))} entries kept"
    assert grown < 256 * 1024, f"{grown} bytes retained by one profile after 5000 calls"


def test_float_subclass_rho_error_names_rho():
    """Pre-existing (also on main), found while attacking the memo's key types: a zCDP
    measurement whose map returns a float subclass (any user measurement returning e.g. a
    ``class F(float)`` value) passes cdp_delta's ``_f64`` (label float-kept: ``isinstance``)
    and then fails deep inside with ``FailedCastError('rhs: neg_inf_mul needs an int, float or
    Fraction, not F')``: the error names an internal operand ``rhs`` of ``neg_inf_mul``, not the
    parameter ``rho`` and its rule (COMMON.md: 'a typed DPError subclass naming the parameter
    and the rule'). numpy.float64 is accepted; a plain float subclass is not. The correct
    behaviour is either to take its float value or to refuse it as ``rho`` at the boundary."""

    class F(float):
        pass

    profile = _profile(F(0.5))
    try:
        value = profile.delta(1.0)
    except DPError as error:
        assert isinstance(error, FailedMapError), repr(error)
        assert getattr(error, "parameter", None) == "rho", repr(error)
        assert "rhs" not in str(error), str(error)
    else:
        assert value == _profile(0.5).delta(1.0)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))

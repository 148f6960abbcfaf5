"""make_fully_adaptive_composition over RenyiDivergence: the odometer's reported loss is a lazy
curve, at every order the exact sum of the charged queries' curves rounded up once; compared with
OpenDP 0.16's numbers; the filter over it stays refused (typed, naming the rule)."""

from __future__ import annotations

import math
import threading
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.numeric import inf_cast

SPACE = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
ORDERS = (1.5, 2.0, 10.0)


@pytest.fixture(autouse=True)
def _features():
    """User measurements need both features (as in OpenDP); the odometer may be OUTDATED."""
    dp.enable_features("contrib", "honest-but-curious")
    yield


def gaussian_rdp(scale, ran=None):
    """A user measurement whose map is the Gaussian mechanism's Rényi curve."""

    def function(x):
        if ran is not None:
            ran.append(scale)
        return x

    return dp.m.make_user_measurement(
        *SPACE,
        output_measure=dp.renyi_divergence(),
        function=function,
        privacy_map=lambda d_in: lambda alpha: alpha * d_in**2 / (2 * scale**2),
    )


def exact_rounded(scales, d_in, alpha):
    total = sum(
        (Fraction(alpha * d_in**2 / (2 * s**2)) for s in scales), Fraction(0)
    )  # the parts' float values, added exactly
    return inf_cast(total, "f64")


# OpenDP 0.16: q = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())(0.0),
# answering gaussian_rdp(1.0), (3.0), (7.0) in turn; after each, q.privacy_loss(d)(alpha).hex()
# at d in (1.0, 2.0) and alpha in (1.5, 2.0, 10.0).
OPENDP = {
    1.0: {
        1.0: ["0x1.8000000000000p-1", "0x1.0000000000000p+0", "0x1.4000000000000p+2"],
        2.0: ["0x1.8000000000000p+1", "0x1.0000000000000p+2", "0x1.4000000000000p+4"],
    },
    3.0: {
        1.0: ["0x1.aaaaaaaaaaaabp-1", "0x1.1c71c71c71c72p+0", "0x1.638e38e38e38fp+2"],
        2.0: ["0x1.aaaaaaaaaaaabp+1", "0x1.1c71c71c71c72p+2", "0x1.638e38e38e38fp+4"],
    },
    7.0: {
        1.0: ["0x1.b280dee95c4cbp-1", "0x1.21ab3f463d887p+0", "0x1.6a160f17cceaap+2"],
        2.0: ["0x1.b280dee95c4cbp+1", "0x1.21ab3f463d887p+2", "0x1.6a160f17cceaap+4"],
    },
}


def test_reported_curve_against_opendp_and_the_exact_sum():
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())
    queryable = odometer(0.0)
    # OpenDP 0.16 reports the zero curve before any query
    assert all(queryable.privacy_loss(1.0)(alpha) == 0.0 for alpha in ORDERS)
    answered, ran = [], []
    for scale in (1.0, 3.0, 7.0):
        assert queryable(gaussian_rdp(scale, ran)) == 0.0
        answered.append(scale)
        for d_in in (1.0, 2.0):
            curve = queryable.privacy_loss(d_in)
            for alpha, theirs in zip(ORDERS, OPENDP[scale][d_in]):
                ours = curve(alpha)
                assert ours == exact_rounded(answered, d_in, alpha)
                # OpenDP rounds up at each addition: never below certdp's single rounding
                assert ours <= float.fromhex(theirs)
                if len(answered) <= 2:
                    assert ours == float.fromhex(theirs)
    assert ran == [1.0, 3.0, 7.0]


def test_a_returned_curve_is_a_snapshot():
    queryable = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())(0.0)
    queryable(gaussian_rdp(1.0))
    before = queryable.privacy_loss(1.0)
    queryable(gaussian_rdp(1.0))
    assert before(2.0) == 1.0 and queryable.privacy_loss(1.0)(2.0) == 2.0


def test_orders_outside_the_definition_and_bad_curves_are_typed():
    queryable = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())(0.0)
    queryable(gaussian_rdp(1.0))
    curve = queryable.privacy_loss(1.0)
    for alpha in (1.0, 0.5, math.inf, math.nan, "2"):
        with pytest.raises(dp.FailedMapError) as caught:
            curve(alpha)
        assert caught.value.parameter == "alpha"
    # a curve that gives a negative value at some order: refused when read there
    negative = dp.m.make_user_measurement(
        *SPACE, dp.renyi_divergence(), lambda x: x, lambda d: lambda a: 1.0 - a
    )
    queryable(negative)
    with pytest.raises(dp.FailedMapError):
        queryable.privacy_loss(1.0)(2.0)


def test_queries_under_another_measure_are_refused_before_running():
    queryable = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())(0.0)
    ran = []
    pure = dp.m.make_user_measurement(
        *SPACE, dp.max_divergence(), lambda x: ran.append(x), lambda d: 1.0
    )
    with pytest.raises(dp.MeasureMismatchError):
        queryable(pure)
    assert ran == [] and queryable.privacy_loss(1.0)(2.0) == 0.0


def test_threads_charge_every_answered_curve():
    queryable = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())(0.0)
    start = threading.Barrier(4)

    def work():
        start.wait()
        for _ in range(10):
            queryable(gaussian_rdp(1.0))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert queryable.privacy_loss(1.0)(2.0) == 40.0


def test_the_filter_over_a_renyi_odometer_is_refused_naming_the_rule():
    """OpenDP 0.16 aborts the process here; certdp refuses, typed: a curve budget cannot be
    checked at every order (make_fully_adaptive_composition.tex, 'Rényi divergence')."""
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())
    with pytest.raises(dp.MakeMeasurementError) as caught:
        dp.c.make_privacy_filter(odometer, d_in=1.0, d_out=lambda alpha: alpha)
    assert caught.value.parameter == "odometer"
    assert "the measures with a proven filter" in str(caught.value)
    assert "RenyiDivergence" in str(caught.value)

"""make_composition: pure DP and zCDP maps add (exact sum rounded up), bad inputs, contract."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators.composition.contract import CONTRACT
from certdp.contracts.contract import PrivacyViolation, contract_of
from certdp.core.errors import ContractError, MakeMeasurementError
from tests.laplace.stats import no_shrinking

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


def gaussian(scale):
    return dp.m.make_gaussian(*ATOM, scale)


def laplace(scale):
    return dp.m.make_laplace(*ATOM, scale)


def attached_laplace(scale):
    """A Laplace measurement carrying its arguments and contract, as the strategies build."""
    measurement = laplace(scale)
    measurement.contract_arguments = {
        "input_domain": ATOM[0],
        "input_metric": ATOM[1],
        "scale": scale,
    }
    measurement.contract = contract_of(dp.m.make_laplace)
    return measurement


def test_zcdp_maps_add():
    composed = dp.c.make_composition([gaussian(1.0), gaussian(2.0), gaussian(3.0)])
    assert composed.output_measure == dp.zero_concentrated_divergence()
    exact = sum(Fraction(1, 2) / Fraction(s) ** 2 * Fraction(1, 4) for s in (1, 2, 3))
    value = composed.map(0.5)
    assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0))
    assert composed.map(3.0) == 6.125


def test_pure_maps_add_and_release_lists():
    composed = dp.c.make_composition((laplace(1.0), laplace(0.5)))
    assert composed.output_measure == dp.max_divergence()
    assert composed.map(1.0) == 3.0
    released = composed(2.0)
    assert isinstance(released, list) and len(released) == 2
    assert all(isinstance(value, float) for value in released)


def test_infinite_inner_map_gives_infinity():
    assert dp.c.make_composition([laplace(0.0), laplace(1.0)]).map(1.0) == math.inf
    assert dp.c.make_composition([laplace(0.0)]).map(0.0) == 0.0


def test_overflow_gives_infinity():
    composed = dp.c.make_composition([laplace(5e-324), laplace(5e-324)])
    assert composed.map(1e300) == math.inf


@pytest.mark.parametrize(
    "measurements, message",
    [
        ([], "non-empty"),
        (None, "non-empty"),
        ([1.0], "only measurements"),
        ([laplace(1.0), gaussian(1.0)], "one output measure"),
        (
            [
                laplace(1.0),
                dp.m.make_laplace(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 1.0),
            ],
            "one input domain",
        ),
        (
            [dp.c.make_zCDP_to_approxDP(gaussian(1.0))],
            "MaxDivergence, ZeroConcentratedDivergence, Approximate\\(MaxDivergence\\) or "
            "Approximate\\(ZeroConcentratedDivergence\\), got SmoothedMaxDivergence",
        ),
    ],
)
def test_bad_arguments(measurements, message):
    with pytest.raises(MakeMeasurementError, match=message) as error:
        dp.c.make_composition(measurements)
    assert error.value.parameter == "measurements"


def test_bad_d_in_is_refused_by_the_inner_maps():
    with pytest.raises(dp.FailedMapError):
        dp.c.make_composition([laplace(1.0)]).map(-1.0)


def test_contract_holds():
    assert CONTRACT.verify().examples > 0


def test_contract_refutes_a_map_that_keeps_only_the_largest_loss():
    kwargs = {"measurements": [attached_laplace(1.0), attached_laplace(1.0)]}
    fixed = dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))
    with no_shrinking(), pytest.raises(PrivacyViolation):
        fixed.verify(map_override=lambda d_in: float(d_in))


def test_runtime_enforcement():
    dp.enable_contracts()
    composed = dp.c.make_composition([laplace(1.0), laplace(2.0)])
    assert composed.map(1.0) == 1.5
    composed._map = lambda d_in: 1.0
    with pytest.raises(ContractError) as error:
        composed.map(1.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        dp.c.make_composition([])
    assert error.value.condition == "measurements-non-empty-list"


def stub(loss, measure):
    """A measurement whose map returns ``loss`` at every ``d_in``."""
    return dp.Measurement(*ATOM[:1], lambda x: x, ATOM[1], measure, lambda d_in: loss)


APPROX_PURE = dp.approximate(dp.max_divergence())
APPROX_ZCDP = dp.approximate(dp.zero_concentrated_divergence())


@pytest.mark.parametrize("scale, delta", [(1.0, 1e-6), (3.5, 1e-9), (0.1, 0.25)])
def test_approximate_pure_dp_pairs_add_as_in_opendp(scale, delta):
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    inner = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian(scale)), delta)
    composed = dp.c.make_composition([inner, inner, inner])
    assert composed.output_measure == APPROX_PURE
    o_space = odp.atom_domain(T=float, nan=False), odp.absolute_distance(T=float)
    o_inner = odp.c.make_fix_delta(
        odp.c.make_zCDP_to_approxDP(odp.m.make_gaussian(*o_space, scale)), delta
    )
    assert composed.map(1.0) == odp.c.make_composition([o_inner] * 3).map(1.0)
    epsilon, delta_one = inner.map(1.0)
    total = composed.map(1.0)
    exact = (3 * Fraction(epsilon), 3 * Fraction(delta_one))
    assert all(Fraction(t) >= e > Fraction(math.nextafter(t, 0)) for t, e in zip(total, exact))


@pytest.mark.parametrize(
    "losses",
    [
        [(0.1, 1e-7), (0.2, 2e-7)],
        [(1.0, 0.0), (0.5, 0.5), (0.25, 0.25)],
        [(1e-300, 5e-324), (1e300, 1e-300)],
    ],
)
@pytest.mark.parametrize("measure", ["pure", "zcdp"])
def test_approximate_pairs_add_coordinate_wise_as_in_opendp(losses, measure):
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib", "honest-but-curious")
    inner = dp.max_divergence() if measure == "pure" else dp.zero_concentrated_divergence()
    o_inner = odp.max_divergence() if measure == "pure" else odp.zero_concentrated_divergence()
    composed = dp.c.make_composition([stub(loss, dp.approximate(inner)) for loss in losses])
    o_space = odp.atom_domain(T=float, nan=False), odp.absolute_distance(T=float)
    o_parts = [
        odp.m.make_user_measurement(
            *o_space, odp.approximate(o_inner), lambda x: x, lambda d, loss=loss: loss
        )
        for loss in losses
    ]
    ours, theirs = composed.map(1.0), odp.c.make_composition(o_parts).map(1.0)
    for coordinate in (0, 1):
        exact = sum((Fraction(loss[coordinate]) for loss in losses), Fraction(0))
        assert Fraction(ours[coordinate]) >= exact  # never below the exact sum
        assert ours[coordinate] <= theirs[coordinate]  # rounded once: never above OpenDP
        assert ours[coordinate] > math.nextafter(float(exact), 0) or exact == 0


def test_the_composed_sum_is_rounded_once_and_can_be_below_opendps():
    # 0.1 + 0.2 + 0.3: OpenDP rounds each partial sum up; certdp rounds the exact sum once
    composed = dp.c.make_composition([stub(v, APPROX_ZCDP) for v in ((0.1, 0), (0.2, 0), (0.3, 0))])
    value = composed.map(1.0)[0]
    exact = Fraction(0.1) + Fraction(0.2) + Fraction(0.3)
    assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0))


def test_approximate_infinities_and_overflow_stay_per_coordinate():
    composed = dp.c.make_composition(
        [stub((math.inf, 0.1), APPROX_PURE), stub((1.0, 0.2), APPROX_PURE)]
    )
    epsilon, delta = composed.map(1.0)
    assert epsilon == math.inf
    assert Fraction(delta) >= Fraction(0.1) + Fraction(0.2)
    composed = dp.c.make_composition([stub((1.7e308, 1e-9), APPROX_ZCDP)] * 2)
    assert composed.map(1.0) == (math.inf, 2e-9)


@pytest.mark.parametrize(
    "loss, message",
    [
        (1.0, "must be a pair"),
        ((1.0,), "must be a pair"),
        ((1.0, -0.5), "non-negative"),
        ((math.nan, 0.0), "non-negative"),
        ((True, 0.0), "non-negative int, float or Fraction"),
    ],
)
def test_an_inner_map_returning_no_loss_is_a_typed_map_error(loss, message):
    composed = dp.c.make_composition([stub(loss, APPROX_PURE)])
    with pytest.raises(dp.FailedMapError, match=message):
        composed.map(1.0)


def test_make_basic_composition_is_opendps_deprecated_name():
    with pytest.warns(DeprecationWarning, match="renamed make_composition"):
        composed = dp.c.make_basic_composition([laplace(1.0), laplace(2.0)])
    assert composed.map(1.0) == 1.5
    assert dp.c.make_basic_composition is not dp.c.make_composition


VECTOR = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()


def _vector_stub(loss, measure):
    return dp.Measurement(VECTOR[0], list, VECTOR[1], measure, lambda d_in: loss)


@pytest.mark.parametrize(
    "measure, loss",
    [
        (dp.max_divergence(), 0.5),
        (dp.zero_concentrated_divergence(), 0.5),
        (APPROX_PURE, (0.5, 1e-9)),
        (APPROX_ZCDP, (0.5, 1e-9)),
    ],
)
def test_interactive_parts_concurrent_except_under_approximate_zcdp(measure, loss):
    dp.enable_features("contrib")
    try:
        inner = dp.c.make_adaptive_composition(*VECTOR, measure, 1, [loss])
        first, second = dp.c.make_composition([inner, inner])([1.0])
        assert second(_vector_stub(loss, measure)) == [1.0]
        if measure == APPROX_ZCDP:  # only the latest release may be queried (as in OpenDP)
            with pytest.raises(dp.FailedFunctionError, match="sequentiality: .*part 1"):
                first(_vector_stub(loss, measure))
        else:
            assert first(_vector_stub(loss, measure)) == [1.0]
    finally:
        dp.disable_features("contrib")


def test_nested_interactive_parts_are_retired_in_order_under_approximate_zcdp():
    dp.enable_features("contrib")
    try:
        loss = (0.25, 0.0)
        inner = dp.c.make_adaptive_composition(*VECTOR, APPROX_ZCDP, 1, [loss])
        pair = dp.c.make_composition([inner, inner])
        (a, b), c = dp.c.make_composition([pair, inner])([1.0])
        for retired in (a, b):
            with pytest.raises(dp.FailedFunctionError, match="sequentiality"):
                retired(_vector_stub(loss, APPROX_ZCDP))
        assert c(_vector_stub(loss, APPROX_ZCDP)) == [1.0]
    finally:
        dp.disable_features("contrib")

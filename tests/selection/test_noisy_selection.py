"""make_noisy_top_k, make_noisy_max and make_report_noisy_max_gumbel.

The OpenDP 0.16.0 numbers below were computed with OpenDP in the shared venv while writing these
tests: ``dp.m.make_noisy_top_k(dp.vector_domain(dp.atom_domain(T=...)), dp.linf_distance(T=...,
monotonic=...), measure, k=k, scale=scale).map(d_in)`` (the same for ``make_noisy_max`` and
``make_report_noisy_max_gumbel``), and their outputs at ``scale=0.0`` (deterministic).
"""

from fractions import Fraction

import pytest
from scipy import stats

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import DPError, FailedFunctionError, FailedMapError, MakeMeasurementError
from certdp.measurements._selection.contract_support import ranking_law
from certdp.measurements.noisy_max.contract import CONTRACT as MAX_CONTRACT
from certdp.measurements.noisy_top_k.contract import CONTRACT as TOP_K_CONTRACT
from certdp.measurements.report_noisy_max_gumbel.contract import CONTRACT as GUMBEL_CONTRACT
from certdp.numeric.floats import next_down

PURE, ZCDP = dp.max_divergence(), dp.zero_concentrated_divergence()


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def space(T="i32", monotonic=False, size=None):
    atom = dp.atom_domain(T=T, nan=False) if T.startswith("f") else dp.atom_domain(T=T)
    return dp.vector_domain(atom, size=size), dp.linf_distance(T=T, monotonic=monotonic)


def exact_bound(k, scale, d_in, monotonic, zcdp) -> Fraction:
    loss = (1 if monotonic else 2) * Fraction(d_in) / Fraction(scale)
    return k * loss * loss / 8 if zcdp else k * loss


def is_rounded_up(value, exact) -> bool:
    """Is ``value`` the smallest f64 at or above the exact rational?"""
    return Fraction(value) >= exact and Fraction(next_down(value)) < exact


# -- exact numbers against OpenDP 0.16 -----------------------------------------------------------
#: (monotonic, measure, k, d_in, OpenDP's map) at scale 1.0 over i32 scores.
INTEGER_MAPS = [
    (False, PURE, 1, 1, 2.0), (False, PURE, 2, 2, 8.0), (False, PURE, 3, 3, 18.0),
    (False, ZCDP, 1, 1, 0.5), (False, ZCDP, 2, 2, 4.0), (False, ZCDP, 3, 3, 13.5),
    (True, PURE, 1, 1, 1.0), (True, PURE, 2, 2, 4.0), (True, PURE, 3, 3, 9.0),
    (True, ZCDP, 1, 1, 0.125), (True, ZCDP, 2, 2, 1.0), (True, ZCDP, 3, 3, 3.375),
]  # fmt: skip


@pytest.mark.parametrize("monotonic, measure, k, d_in, opendp", INTEGER_MAPS)
def test_integer_maps_equal_opendp(monotonic, measure, k, d_in, opendp):
    m = dp.m.make_noisy_top_k(*space("i32", monotonic), measure, k=k, scale=1.0)
    assert m.map(d_in) == opendp
    assert m.map(0) == 0.0


#: (monotonic, measure, k, OpenDP's map(0.3), OpenDP's map(1e-3)) at scale 0.7 over f64 scores.
FLOAT_MAPS = [
    (False, PURE, 1, 0.8571428571428572, 0.0028571428571428576),
    (False, PURE, 3, 2.5714285714285716, 0.008571428571428574),
    (False, ZCDP, 1, 0.09183673469387757, 1.0204081632653065e-06),
    (False, ZCDP, 3, 0.27551020408163274, 3.0612244897959194e-06),
    (True, PURE, 1, 0.4285714285714286, 0.0014285714285714288),
    (True, PURE, 3, 1.2857142857142858, 0.004285714285714287),
    (True, ZCDP, 1, 0.022959183673469392, 2.551020408163266e-07),
    (True, ZCDP, 3, 0.06887755102040818, 7.653061224489798e-07),
]


@pytest.mark.parametrize("monotonic, measure, k, at_03, at_0001", FLOAT_MAPS)
def test_float_maps_are_rounded_up_and_at_most_opendp(monotonic, measure, k, at_03, at_0001):
    m = dp.m.make_noisy_top_k(*space("f64", monotonic), measure, k=k, scale=0.7)
    for d_in, opendp in ((0.3, at_03), (1e-3, at_0001)):
        value = m.map(d_in)
        exact = exact_bound(k, 0.7, d_in, monotonic, measure is ZCDP)
        assert is_rounded_up(value, exact)
        # OpenDP rounds each float step up: equal, or above certdp's by a step or two
        assert value <= opendp and Fraction(opendp) - Fraction(value) < Fraction(value) / 2**50


def test_noisy_max_and_gumbel_maps_equal_opendp():
    for monotonic, pure, zcdp in ((False, 2.0, 0.5), (True, 1.0, 0.125)):
        assert dp.m.make_noisy_max(*space("i32", monotonic), PURE, scale=1.0).map(1) == pure
        assert dp.m.make_noisy_max(*space("i32", monotonic), ZCDP, scale=1.0).map(1) == zcdp
        gumbel = dp.m.make_report_noisy_max_gumbel(*space("i32", monotonic), scale=1.0)
        assert gumbel.map(1) == pure  # OpenDP: 2.0 and 1.0 (max-divergence)
        assert gumbel.output_measure == PURE


def test_zero_scale_is_infinite_and_huge_losses_saturate():
    m = dp.m.make_noisy_top_k(*space("f64"), PURE, k=2, scale=0.0)
    assert m.map(1.0) == float("inf") and m.map(0.0) == 0.0  # OpenDP: inf, 0.0
    huge = dp.m.make_noisy_top_k(*space("f64"), ZCDP, k=2, scale=1e-300)
    assert huge.map(1e300) == float("inf")  # OpenDP raises an overflow error here


def test_zero_scale_releases_the_exact_ranking_like_opendp():
    top3 = dp.m.make_noisy_top_k(*space(), PURE, k=3, scale=0.0)
    assert top3([1, 5, 5]) == [2, 1, 0]  # OpenDP: [2, 1, 0] (ties to the larger index)
    bottom3 = dp.m.make_noisy_top_k(*space(), PURE, k=3, scale=0.0, negate=True)
    assert bottom3([1, 5, 5]) == [0, 2, 1]  # OpenDP: [0, 2, 1]
    assert dp.m.make_noisy_max(*space(), PURE, scale=0.0)([1, 5, 3]) == 1  # OpenDP: 1
    assert dp.m.make_noisy_max(*space(), PURE, scale=0.0, negate=True)([2, 1, 1]) == 2
    gumbel_max = dp.m.make_report_noisy_max_gumbel(*space(), scale=0.0)
    gumbel_min = dp.m.make_report_noisy_max_gumbel(*space(), scale=0.0, optimize="min")
    # OpenDP 0.16 gives the same: "max" -> 1, "min" -> 0
    assert gumbel_max([1, 5, 3]) == 1 and gumbel_min([1, 5, 3]) == 0


def test_short_and_empty_vectors():
    # Issue #22's rule (k larger than the candidates is refused): OpenDP 0.16 releases all 3
    # indices of [1, 5, 5] at k = 4 (and [] on the empty vector); certdp refuses at invocation,
    # an error on the length alone, which vectors at a finite L-infinity distance share.
    for measure, scale in [(PURE, 1.0), (ZCDP, 1.0), (PURE, 0.0)]:
        top = dp.m.make_noisy_top_k(*space(), measure, k=4, scale=scale)
        for short in ([1, 5, 5], []):
            with pytest.raises(FailedFunctionError, match=r"at least k = 4 scores") as error:
                top(short)
            assert type(error.value) is FailedFunctionError
            assert error.value.parameter == "arg"
        assert sorted(top([1, 5, 5, 0])) == [0, 1, 2, 3]  # exactly k scores: answered
        assert len(set(top([1, 5, 5, 0, 9]))) == 4
    # OpenDP 0.16 raises FailedFunction("candidates set is empty") here; certdp a typed error
    for measure in (PURE, ZCDP):
        with pytest.raises(FailedFunctionError, match="at least one score") as error:
            dp.m.make_noisy_max(*space(), measure, scale=1.0)([])
        assert error.value.parameter == "arg"
    assert dp.m.make_noisy_max(*space(), ZCDP, scale=1.0)([7]) == 0


def test_infinite_scores_are_clamped_not_refused():
    m = dp.m.make_noisy_top_k(*space("f64"), PURE, k=2, scale=1.0)
    out = m([float("inf"), 0.0, float("-inf")])
    assert len(out) == 2 and len(set(out)) == 2 and set(out) <= {0, 1, 2}


# -- the release against its exact law ----------------------------------------------------------
@pytest.mark.parametrize("measure", [PURE, ZCDP])
def test_release_matches_exact_law(measure):
    x, scale, k, draws = [0, 1, 2], 1.0, 2, 3000
    noise = "exponential" if measure is PURE else "gumbel"
    law = ranking_law(x, scale, k, False, noise)
    m = dp.m.make_noisy_top_k(*space(), measure, k=k, scale=scale)
    counts = {outcome: 0 for outcome in law}
    for _ in range(draws):
        counts[tuple(m(x))] += 1
    outcomes = sorted(law)
    expected = [float(law[o]) * draws for o in outcomes]
    result = stats.chisquare([counts[o] for o in outcomes], expected)
    assert result.pvalue > 1e-7


def test_exact_laws_differ_between_the_two_algorithms():
    # permute-and-flip and the exponential mechanism are different releases (OpenDP #2911)
    pf = ranking_law([1, -1], 1, 1, False, "exponential")
    em = ranking_law([1, -1], 1, 1, False, "gumbel")
    assert abs(float(pf[(0,)]) - 0.9323323583816936) < 1e-12  # 1 - e^-2 / 2
    assert abs(float(em[(0,)]) - 0.8807970779778824) < 1e-12  # e / (e + 1/e)


# -- bad input -----------------------------------------------------------------------------------
def _refused(error, parameter, call):
    with pytest.raises(error) as info:
        call()
    assert info.value.parameter == parameter
    return str(info.value)


def test_bad_arguments_are_refused_naming_the_parameter():
    top = dp.m.make_noisy_top_k
    d, m = space()
    assert "at least 1" in _refused(MakeMeasurementError, "k", lambda: top(d, m, PURE, 0, 1.0))
    assert "integer" in _refused(DPError, "k", lambda: top(d, m, PURE, True, 1.0))
    sized = space(size=3)
    assert "must not exceed" in _refused(
        MakeMeasurementError, "k", lambda: top(*sized, PURE, 4, 1.0)
    )
    assert "negative" in _refused(MakeMeasurementError, "scale", lambda: top(d, m, PURE, 1, -1.0))
    assert "NaN" in _refused(
        MakeMeasurementError, "scale", lambda: top(d, m, PURE, 1, float("nan"))
    )
    _refused(MakeMeasurementError, "scale", lambda: top(d, m, PURE, 1, float("inf")))
    _refused(DPError, "negate", lambda: top(d, m, PURE, 1, 1.0, negate=1))
    nan_domain = dp.vector_domain(dp.atom_domain(T="f64"))
    assert "NaN" in _refused(
        MakeMeasurementError,
        "input_domain",
        lambda: top(nan_domain, dp.linf_distance(T="f64"), PURE, 1, 1.0),
    )
    _refused(
        MakeMeasurementError, "input_domain", lambda: top(dp.atom_domain(T="i32"), m, PURE, 1, 1.0)
    )
    _refused(
        MakeMeasurementError, "input_metric", lambda: top(d, dp.l1_distance(T="i32"), PURE, 1, 1.0)
    )
    _refused(
        MakeMeasurementError,
        "input_metric",
        lambda: top(d, dp.linf_distance(T="i64"), PURE, 1, 1.0),
    )
    _refused(
        MakeMeasurementError,
        "output_measure",
        lambda: top(d, m, dp.smoothed_max_divergence(), 1, 1.0),
    )
    gumbel = dp.m.make_report_noisy_max_gumbel
    assert '"max" or "min"' in _refused(
        MakeMeasurementError, "optimize", lambda: gumbel(d, m, 1.0, optimize="maximum")
    )
    _refused(MakeMeasurementError, "optimize", lambda: gumbel(d, m, 1.0, optimize=None))
    _refused(MakeMeasurementError, "k", lambda: dp.m.make_noisy_max(*space(size=0), PURE, 1.0))


def test_bad_distances_are_refused():
    m = dp.m.make_noisy_top_k(*space("f64"), PURE, k=1, scale=1.0)
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(DPError):
            m.map(bad)
    with pytest.raises(FailedMapError):
        dp.m.make_noisy_top_k(*space("f64"), PURE, k=1, scale=1.0).privacy_map(float("inf"))


def test_partial_constructors():
    d, m = space()
    chained = (d, m) >> dp.m.then_noisy_top_k(ZCDP, 2, 1.0)
    assert chained.map(1) == 1.0  # OpenDP: 1.0
    assert ((d, m) >> dp.m.then_noisy_max(PURE, 1.0)).map(1) == 2.0
    assert ((d, m) >> dp.m.then_report_noisy_max_gumbel(1.0)).map(1) == 2.0


# -- contracts -----------------------------------------------------------------------------------
@pytest.mark.parametrize("contract", [TOP_K_CONTRACT, MAX_CONTRACT, GUMBEL_CONTRACT])
def test_contracts_hold(contract):
    contract.verify(max_examples=25)


def test_under_charged_zcdp_map_is_refuted():
    """The charge of OpenDP #2911 with the range ignored (rho = (d_in / scale)^2 / 8 for
    non-monotonic scores) is refuted with a concrete pair."""

    def under(d_in):
        return float((Fraction(d_in) / 1) ** 2 / 8)

    with pytest.raises(PrivacyViolation):
        _verify_fixed(TOP_K_CONTRACT, {"output_measure": ZCDP, "k": 1}, under)


def test_pure_map_ignoring_the_range_is_refuted():
    with pytest.raises(PrivacyViolation):
        _verify_fixed(MAX_CONTRACT, {"output_measure": PURE}, lambda d_in: float(d_in))


def _verify_fixed(contract, fixed, wrong_map):
    """Verify with the arguments pinned to a non-monotonic space of i32 scores in [-3, 3] at
    scale 1.0 (small exact laws)."""
    from dataclasses import replace

    from hypothesis import strategies as st

    d = dp.vector_domain(dp.atom_domain(bounds=(-3, 3), T="i32"))
    m = dp.linf_distance(T="i32")
    base = {"input_domain": d, "input_metric": m, "scale": 1.0, "negate": False, **fixed}
    pinned = replace(contract, arguments=lambda: st.just(base), d_in=lambda built: st.just(1))
    pinned.verify(max_examples=100, map_override=wrong_map)


def test_runtime_contracts():
    dp.enable_contracts()
    try:
        m = dp.m.make_noisy_top_k(*space(), ZCDP, k=2, scale=1.0)
        assert m.map(1) == 1.0
        assert len(m([3, 1, 2])) == 2
    finally:
        dp.disable_contracts()

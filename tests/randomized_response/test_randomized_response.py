"""Randomized response (bool, categorical, bit vector) and the debiasing of bit vectors.

The OpenDP 0.16.0 numbers below were computed with OpenDP in the shared venv while writing these
tests (``dp.m.make_randomized_response_bool(p).map(1)``, ``dp.m.make_randomized_response(cats,
p).map(1)``, ``dp.m.make_randomized_response_bitvec(dp.bitvector_domain(max_weight=m),
dp.discrete_distance(), f=f).map(1)``, ``dp.m.debias_randomized_response_bitvec(answers, f)``).
certdp's ε is the smallest f64 at least the exact value, so it equals OpenDP's or lies below it
where OpenDP's float arithmetic rounded past the exact value (checked against an mpmath interval).
"""

import math
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from mpmath.libmp import to_rational
from scipy import stats

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedFunctionError, MakeDomainError, MakeMeasurementError
from certdp.measurements.randomized_response.contract import CONTRACT as CATEGORICAL
from certdp.measurements.randomized_response_bitvec.contract import CONTRACT as BITVEC
from certdp.measurements.randomized_response_bool.contract import CONTRACT as BOOL
from certdp.numeric.floats import next_down

#: χ² tests reject at this p-value: a correct sampler fails one with probability 1e-7.
ALPHA = 1e-7


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _ends(interval) -> tuple[Fraction, Fraction]:
    """The two ends of an mpmath interval, as exact rationals."""
    return tuple(Fraction(*to_rational(end)) for end in interval._mpi_)


def smallest_float_at_least(value: float, exact_log_ratio: Fraction, c: int = 1) -> bool:
    """Is ``value`` the smallest f64 >= ``c ln(q)`` (an mpmath interval encloses the log)?"""
    saved, mpmath.iv.prec = mpmath.iv.prec, 300
    try:
        q = mpmath.iv.mpf(exact_log_ratio.numerator) / exact_log_ratio.denominator
        lo, hi = _ends(c * mpmath.iv.log(q))
    finally:
        mpmath.iv.prec = saved
    assert hi - lo < Fraction(1, 2**200)
    return Fraction(value) >= hi and Fraction(next_down(value)) < lo


# -- exact numbers against OpenDP 0.16 -----------------------------------------------------------
@pytest.mark.parametrize(
    "prob, opendp",
    [(0.75, 1.0986122886681098), (0.99, 4.59511985013459), (0.6, 0.4054651081081644),
     (0.9999999999999999, 36.73680056967711)],
)  # fmt: skip
def test_bool_epsilon_matches_opendp_and_is_the_rounded_up_exact_value(prob, opendp):
    m = dp.m.make_randomized_response_bool(prob)
    assert m.map(0) == 0.0
    eps = m.map(1)
    assert eps == opendp or eps == next_down(opendp)
    p = Fraction(prob)
    assert smallest_float_at_least(eps, p / (1 - p))


def test_bool_epsilon_edges():
    assert dp.m.make_randomized_response_bool(0.5).map(1) == 0.0  # OpenDP: 0.0
    assert dp.m.make_randomized_response_bool(0.75).map(0.5) == 0.0


@pytest.mark.parametrize("build", [
    lambda: dp.m.make_randomized_response_bool(1.0),
    lambda: dp.m.make_randomized_response(["a", "b", "c"], 1.0),
    lambda: dp.m.make_randomized_response([0, 1], 1.0),
])  # fmt: skip
def test_prob_one_is_refused(build):
    """Issue #22's rule (p outside (0, 1) is refused): OpenDP 0.16 accepts prob = 1 with
    map inf; certdp refuses it at construction, exactly MakeMeasurementError naming prob."""
    with pytest.raises(MakeMeasurementError, match=r"1\) .*1 excluded") as raised:
        build()
    assert type(raised.value) is MakeMeasurementError
    assert raised.value.parameter == "prob"


def test_the_largest_prob_below_one_is_accepted_with_opendps_map():
    """1 - 2**-53, just inside: OpenDP 0.16's maps 36.73680056967711 (bool) and
    37.42994775023705 (three categories); certdp's is the same or one step below, and is the
    least float at or above the exact loss."""
    p = 1 - 2**-53
    for m, opendp, ratio in [
        (dp.m.make_randomized_response_bool(p), 36.73680056967711, Fraction(p) / (1 - Fraction(p))),
        (dp.m.make_randomized_response(["a", "b", "c"], p), 37.42994775023705,
         2 * Fraction(p) / (1 - Fraction(p))),
    ]:  # fmt: skip
        eps = m.map(1)
        assert eps == opendp or eps == next_down(opendp)
        assert smallest_float_at_least(eps, ratio)


@pytest.mark.parametrize(
    "categories, prob, opendp",
    [(["a", "b", "c"], 0.99, 5.288267030694535), ([1, 2, 3, 4], 0.5, 1.0986122886681098),
     (["a", "b"], 0.75, 1.0986122886681098), (["x", "y", "z", "w", "v"], 0.9, 3.583518938456111)],
)  # fmt: skip
def test_categorical_epsilon_matches_opendp(categories, prob, opendp):
    m = dp.m.make_randomized_response(categories, prob)
    eps = m.map(1)
    assert eps == opendp or eps == next_down(opendp)
    p, k = Fraction(prob), len(categories)
    assert smallest_float_at_least(eps, p * (k - 1) / (1 - p))
    assert m.map(0) == 0.0


def test_categorical_at_the_float_nearest_one_over_k_charges_the_true_loss():
    # 1/3 rounds to an f64 below 1/3: the truthful answer is then slightly *less* likely than
    # each other one, a loss of |ln(p (k - 1) / (1 - p))| > 0; OpenDP 0.16 reports 0.0
    m = dp.m.make_randomized_response(["a", "b", "c"], 1 / 3)
    p = Fraction(1 / 3)
    assert m.map(1) > 0
    assert smallest_float_at_least(m.map(1), (1 - p) / (2 * p))


@pytest.mark.parametrize(
    "weight, f, opendp",
    [(4, 0.95, 0.8006676684558611), (1, 0.5, 2.1972245773362196), (1, 1.0, 0.0),
     (3, 0.25, 11.67546089433188), (0, 0.5, 0.0)],
)  # fmt: skip
def test_bitvec_epsilon_matches_opendp(weight, f, opendp):
    domain = dp.bitvector_domain(max_weight=weight, size=24)
    m = dp.m.make_randomized_response_bitvec(domain, dp.discrete_distance(), f=f)
    eps = m.map(1)
    assert eps == opendp or eps == next_down(opendp)
    if opendp:
        q = Fraction(f) / 2
        assert smallest_float_at_least(eps, (1 - q) / q, c=2 * weight)
    assert m.map(0) == 0.0


def test_bitvec_partial_form_and_opendp_example_with_a_length():
    import numpy as np

    space = dp.bitvector_domain(max_weight=4, size=24), dp.discrete_distance()
    m = space >> dp.m.then_randomized_response_bitvec(f=0.95)
    data = np.packbits([0] * 12 + [1] + [0] * 7 + [1, 1, 0, 0])
    release = np.frombuffer(m(data.tobytes()), dtype=np.uint8)
    assert release.shape == (3,)
    assert m.map(1) == 0.800667668455861


def test_debias_matches_opendp():
    # OpenDP 0.16: debias_randomized_response_bitvec([b"\x01\x80", b"\x03\x00"], 0.5)
    assert dp.m.debias_randomized_response_bitvec([b"\x01\x80", b"\x03\x00"], 0.5) == (
        [3.0, 1.0] + [-1.0] * 13 + [1.0]
    )
    # OpenDP 0.16: debias_randomized_response_bitvec([b"\x01", b"\x01", b"\xf0"], 0.25)
    assert dp.m.debias_randomized_response_bitvec([b"\x01", b"\x01", b"\xf0"], 0.25) == [
        2.1666666666666665, -0.5, -0.5, -0.5,
        0.8333333333333334, 0.8333333333333334, 0.8333333333333334, 0.8333333333333334,
    ]  # fmt: skip


def test_debias_is_exact_then_rounded_and_may_differ_from_opendp_by_an_ulp():
    # OpenDP 0.16: debias_randomized_response_bitvec([b"\x01"] * 3, 0.7)[0] == 6.5 (floats)
    answers, f = [b"\x01"] * 3, 0.7
    estimate = dp.m.debias_randomized_response_bitvec(answers, f)[0]
    exact = (3 - 3 * Fraction(f) / 2) / (1 - Fraction(f))
    assert exact < Fraction(6.5)
    assert estimate == 6.499999999999999 == math.nextafter(6.5, 0)
    # nearest: no binary64 value is closer to the exact estimate
    for other in (math.nextafter(estimate, 0), math.nextafter(estimate, 7)):
        assert abs(Fraction(other) - exact) > abs(Fraction(estimate) - exact)


# -- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize("prob", [0.4, 1.5, -0.0, float("nan"), 1, 1.0, "0.75", None])
def test_bool_refuses_prob_outside_half_to_one(prob):
    with pytest.raises(MakeMeasurementError, match=r"prob: must be a float in \[0.5, 1\)"):
        dp.m.make_randomized_response_bool(prob)


def test_bool_refuses_non_bool_constant_time_and_non_bool_data():
    with pytest.raises(MakeMeasurementError, match="constant_time"):
        dp.m.make_randomized_response_bool(0.75, constant_time=1)
    with pytest.raises(FailedFunctionError):
        dp.m.make_randomized_response_bool(0.75)(1)


@pytest.mark.parametrize(
    "categories, prob, rule",
    [
        ([], 0.9, "at least two"),
        (["a"], 0.9, "at least two"),
        (["a", "a", "b"], 0.9, "distinct"),
        ([0.0, -0.0], 0.9, "distinct"),
        ([1.0, float("nan")], 0.9, "NaN"),
        (["a", 1], 0.9, "values of String"),
        ("ab", 0.9, "list of categories"),
        (["a", "b", "c"], 0.3, r"\[1/3, 1\)"),
        (["a", "b", "c"], 1.01, r"\[1/3, 1\)"),
        (["a", "b", "c"], 1.0, r"\[1/3, 1\) .*1 excluded"),
        (["a", "b"], float("nan"), r"\[1/2, 1\)"),
    ],
)
def test_categorical_refusals_name_the_rule(categories, prob, rule):
    with pytest.raises(MakeMeasurementError, match=rule):
        dp.m.make_randomized_response(categories, prob)


def test_bitvec_refusals_name_the_rule():
    metric = dp.discrete_distance()
    with pytest.raises(MakeMeasurementError, match="fix the length"):
        dp.m.make_randomized_response_bitvec(dp.bitvector_domain(max_weight=4), metric, 0.5)
    with pytest.raises(MakeMeasurementError, match="bound the weight"):
        dp.m.make_randomized_response_bitvec(dp.bitvector_domain(size=8), metric, 0.5)
    domain = dp.bitvector_domain(max_weight=1, size=8)
    for f in (0.0, -0.5, 1.5, float("nan"), 1):
        with pytest.raises(MakeMeasurementError, match=r"f: must be a float in \(0, 1\]"):
            dp.m.make_randomized_response_bitvec(domain, metric, f)
    with pytest.raises(MakeMeasurementError, match="input_metric"):
        dp.m.make_randomized_response_bitvec(domain, dp.symmetric_distance(), 0.5)
    with pytest.raises(MakeMeasurementError, match="input_domain"):
        dp.m.make_randomized_response_bitvec(dp.atom_domain(T="bool"), metric, 0.5)


def test_bitvector_domain_rules():
    domain = dp.bitvector_domain(max_weight=2, size=16)
    assert domain.member(b"\x03\x00") and not domain.member(b"\x07\x00")
    m = dp.m.make_randomized_response_bitvec(domain, dp.discrete_distance(), 0.5)
    for wrong, rule in [(b"\x01", "length"), (b"\x01\x00\x00", "length"), (b"\x07\x00", "weight"),
                        ([0, 1], "type"), (bytearray(2), "type")]:  # fmt: skip
        with pytest.raises(FailedFunctionError, match=rule):
            m(wrong)
    for kwargs, name in [({"size": 12}, "size"), ({"size": -8}, "size"),
                         ({"max_weight": -1}, "max_weight"), ({"max_weight": 2**32}, "max_weight"),
                         ({"max_weight": True}, "max_weight")]:  # fmt: skip
        with pytest.raises(MakeDomainError, match=name):
            dp.bitvector_domain(**kwargs)


@pytest.mark.parametrize(
    "answers, f, rule",
    [([], 0.5, "non-empty"), ([b"\x01", b"\x01\x00"], 0.5, "same length"),
     ([b"\x01", [1]], 0.5, "bytes"), ([b"\x01"], 1.0, r"\(0, 1\)"), ([b"\x01"], 0.0, r"\(0, 1\)")],
)  # fmt: skip
def test_debias_refusals(answers, f, rule):
    with pytest.raises(DPError, match=rule):
        dp.m.debias_randomized_response_bitvec(answers, f)


# -- the output laws (χ² against the exact probabilities) ----------------------------------------
def chi_square_p_value(counts: Counter, law: dict, n: int) -> float:
    outcomes = sorted(law, key=repr)
    observed = [counts[o] for o in outcomes]
    expected = [float(law[o]) * n for o in outcomes]
    assert sum(observed) == n, "an outcome outside the support was released"
    return stats.chisquare(observed, expected).pvalue


def test_bool_releases_the_truth_with_probability_prob():
    m, n = dp.m.make_randomized_response_bool(0.75), 20_000
    for x in (True, False):
        counts = Counter(m(x) for _ in range(n))
        law = {x: Fraction(3, 4), not x: Fraction(1, 4)}
        assert chi_square_p_value(counts, law, n) > ALPHA


def test_categorical_law_on_a_category_and_outside():
    categories, prob, n = ["a", "b", "c", "d"], 0.625, 16_000
    m = dp.m.make_randomized_response(categories, prob)
    counts = Counter(m("b") for _ in range(n))
    other = (1 - Fraction(prob)) / 3
    law = {c: Fraction(prob) if c == "b" else other for c in categories}
    assert chi_square_p_value(counts, law, n) > ALPHA
    counts = Counter(m("zz") for _ in range(n))  # not a category: uniform
    assert chi_square_p_value(counts, {c: Fraction(1, 4) for c in categories}, n) > ALPHA


@pytest.mark.parametrize("f", [0.5, 0.95])
def test_every_bit_flips_with_probability_f_over_two_the_last_included(f):
    size, n = 24, 4000
    domain = dp.bitvector_domain(max_weight=3, size=size)
    m = dp.m.make_randomized_response_bitvec(domain, dp.discrete_distance(), f)
    x = bytes([0b1000_0001, 0, 0b1000_0000])  # first bit and last bit set
    flips = [0] * size
    value = int.from_bytes(x, "little")
    for _ in range(n):
        out = int.from_bytes(m(x), "little") ^ value
        for i in range(size):
            flips[i] += out >> i & 1
    q = f / 2
    for i in range(size):  # a two-sided binomial test per bit, Bonferroni over the bits
        assert stats.binomtest(flips[i], n, q).pvalue > ALPHA / size, (i, flips[i])
    assert flips[size - 1] > 0  # the last bit is randomized (OpenDP #2707)


# -- contracts ------------------------------------------------------------------------------------
@pytest.mark.parametrize("contract", [BOOL, CATEGORICAL, BITVEC], ids=lambda c: c.name)
def test_contract_holds(contract):
    report = contract.verify()
    assert report.examples > 0


def test_a_map_charging_ninety_percent_is_refuted():
    from certdp.contracts.contract import PrivacyViolation

    for contract in (BOOL, CATEGORICAL, BITVEC):
        with pytest.raises(PrivacyViolation):
            contract.verify(map_override=lambda d_in: 0.0 if d_in < 1 else 1e-300)


def test_runtime_contracts_check_the_maps():
    dp.enable_contracts()
    assert dp.m.make_randomized_response_bool(0.75).map(1) == 1.0986122886681098
    assert dp.m.make_randomized_response(["a", "b", "c"], 0.99).map(1) == 5.288267030694535
    domain = dp.bitvector_domain(max_weight=4, size=8)
    m = dp.m.make_randomized_response_bitvec(domain, dp.discrete_distance(), 0.95)
    assert m.map(1) == 0.800667668455861
    assert len(m(b"\x0f")) == 1

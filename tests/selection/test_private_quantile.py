"""make_private_quantile: maps beside OpenDP 0.16's, releases, bad inputs, contract."""

import dataclasses
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, MakeMeasurementError, MakeTransformationError
from certdp.measurements.private_quantile.contract import CONTRACT
from certdp.measurements.private_quantile.smt_model import composed_bound

CANDIDATES = {"i32": [0, 10, 20, 30], "i64": [1, 2], "f32": [-1.5, 0.1, 2.5],
              "f64": [0.0, 10.0, 20.0, 30.0]}  # fmt: skip
SD = dp.symmetric_distance()
METRICS = {"sd": SD, "idd": dp.insert_delete_distance()}
MEASURES = {"pure": dp.max_divergence(), "zcdp": dp.zero_concentrated_divergence()}


def domain(T, size=None):
    atom = dp.atom_domain(T=T, nan=False) if T.startswith("f") else dp.atom_domain(T=T)
    return dp.vector_domain(atom, size=size)


def quantile(
    T="f64", size=None, metric="sd", measure="pure", alpha=0.5, scale=1.0, candidates=None
):
    candidates = CANDIDATES[T] if candidates is None else candidates
    return dp.m.make_private_quantile(
        domain(T, size), METRICS[metric], MEASURES[measure], candidates, alpha, scale
    )


# OpenDP 0.16: dp.m.make_private_quantile(dp.vector_domain(<atom of T>, size=size), <metric>,
#   <measure>, <candidates of T above>, alpha, scale).map(d_in) for d_in = 0, 1, 2, 3, 4
#   (contrib enabled; atom_domain(T=T, nan=False) for floats).  certdp's map equals it.
OPENDP_EQUAL = [
    ("f32", 100, "sd", "pure", 5e-324, 1.0, (0.0, 0.0, 2.0, 2.0, 4.0)),
    ("f32", 100, "sd", "zcdp", 0.3, 1.0, (0.0, 0.0, 0.5, 0.5, 2.0)),
    ("f32", 1000000, "sd", "pure", 0.3, 1.0, (0.0, 0.0, 2.0, 2.0, 4.0)),
    ("f32", 7, "sd", "zcdp", 0.3, 1.0, (0.0, 0.0, 0.5, 0.5, 2.0)),
    ("f32", None, "sd", "pure", 5e-324, 1.0, (0.0, 2.0, 4.0, 6.0, 8.0)),
    ("f32", None, "sd", "pure", 0.3, 1.0, (0.0, 1.4000000000000001, 2.8000000000000003, 4.2, 5.6000000000000005)),
    ("f32", None, "sd", "zcdp", 0.5, 1.0, (0.0, 0.125, 0.5, 1.125, 2.0)),
    ("f64", 100, "sd", "pure", 1 - 2**-53, 1.0, (0.0, 0.0, 2.0, 2.0, 4.0)),
    ("f64", 100, "sd", "zcdp", 0.5, 1.0, (0.0, 0.0, 0.5, 0.5, 2.0)),
    ("f64", 1000000, "sd", "zcdp", 0.3, 1.0, (0.0, 0.0, 0.5, 0.5, 2.0)),
    ("f64", None, "sd", "pure", 0.3, 1.0, (0.0, 1.4000000000000001, 2.8000000000000003, 4.2, 5.6000000000000005)),
    ("f64", None, "sd", "zcdp", 5e-324, 1.0, (0.0, 0.5, 2.0, 4.5, 8.0)),
    ("f64", None, "sd", "pure", 1 - 2**-53, 3.0, (0.0, 0.6666000000000001, 1.3332000000000002, 1.9998, 2.6664000000000003)),
    ("f64", 7, "idd", "pure", 5e-324, 0.5, (0.0, 0.0, 4.000000000000001, 4.000000000000001, 8.000000000000002)),
    ("f64", 100, "idd", "pure", 0.3, 3.0, (0.0, 0.0, 0.6666666666666667, 0.6666666666666667, 1.3333333333333335)),
    ("i32", 100, "sd", "pure", 0.5, 1.0, (0.0, 0.0, 2.0, 2.0, 4.0)),
    ("i32", 1000000, "sd", "pure", 1 - 2**-53, 1.0, (0.0, 0.0, 2.0, 2.0, 4.0)),
    ("i32", 7, "sd", "pure", 0.3, 1.0, (0.0, 0.0, 2.0, 2.0, 4.0)),
    ("i32", None, "sd", "pure", 5e-324, 1.0, (0.0, 2.0, 4.0, 6.0, 8.0)),
    ("i32", None, "sd", "pure", 0.5, 1.0, (0.0, 1.0, 2.0, 3.0, 4.0)),
    ("i32", None, "sd", "pure", 1 - 2**-53, 1.0, (0.0, 1.9998, 3.9996, 5.9994000000000005, 7.9992)),
    ("i32", None, "idd", "pure", 0.5, 0.5, (0.0, 2.0, 4.0, 6.0, 8.0)),
    ("i32", 1000000, "idd", "zcdp", 0.5, 0.5, (0.0, 0.0, 2.0, 2.0, 8.0)),
    ("i64", 100, "sd", "zcdp", 0.5, 1.0, (0.0, 0.0, 0.5, 0.5, 2.0)),
    ("i64", 1000000, "sd", "zcdp", 0.3, 1.0, (0.0, 0.0, 0.5, 0.5, 2.0)),
    ("i64", 7, "sd", "zcdp", 1 - 2**-53, 1.0, (0.0, 0.0, 0.5, 0.5, 2.0)),
    ("i64", None, "sd", "pure", 0.5, 1.0, (0.0, 1.0, 2.0, 3.0, 4.0)),
    ("i64", None, "sd", "zcdp", 0.5, 1.0, (0.0, 0.125, 0.5, 1.125, 2.0)),
]  # fmt: skip

# Where the formula's value is no float: OpenDP 0.16's map (same call as above) rounds up step
# by step, certdp's once; (..., OpenDP's maps, certdp's maps).
OPENDP_ABOVE = [
    ("i32", None, "sd", "zcdp", 0.3, 1.0,
     (0.0, 0.24500000000000005, 0.9800000000000002, 2.2050000000000005, 3.920000000000001),
     (0.0, 0.24500000000000002, 0.9800000000000001, 2.205, 3.9200000000000004)),
    ("i32", None, "idd", "zcdp", 0.5, 3.0,
     (0.0, 0.013888888888888893, 0.05555555555555557, 0.125, 0.2222222222222223),
     (0.0, 0.01388888888888889, 0.05555555555555556, 0.125, 0.22222222222222224)),
    ("i32", 7, "sd", "zcdp", 5e-324, 3.0,
     (0.0, 0.0, 0.05555555555555559, 0.05555555555555559, 0.22222222222222235),
     (0.0, 0.0, 0.055555555555555566, 0.055555555555555566, 0.22222222222222227)),
    ("f64", 7, "sd", "zcdp", 5e-324, 1.0,
     (0.0, 0.0, 0.5000000000000003, 0.5000000000000003, 2.0000000000000013),
     (0.0, 0.0, 0.5000000000000001, 0.5000000000000001, 2.0000000000000004)),
    ("f64", None, "idd", "zcdp", 1 - 2**-53, 0.5,
     (0.0, 1.9996000200000001, 7.998400080000001, 17.996400180000006, 31.993600320000002),
     (0.0, 1.9996000200000001, 7.998400080000001, 17.996400180000002, 31.993600320000002)),
    # size 1500, alpha 0.3: den = (2**64 - 1) // 1500 and fl(0.1 * den) > den / 10
    ("f64", 1500, "sd", "zcdp", 0.3, 0.1,
     (0.0, 0.0, 50.0, 50.0, 200.0),
     (0.0, 0.0, 49.99999999999999, 49.99999999999999, 199.99999999999997)),
]  # fmt: skip


@pytest.mark.parametrize("T, size, metric, measure, alpha, scale, maps", OPENDP_EQUAL)
def test_maps_equal_opendps(T, size, metric, measure, alpha, scale, maps):
    m = quantile(T, size, metric, measure, alpha, scale)
    assert tuple(m.map(d_in) for d_in in range(5)) == maps
    assert repr(m.output_measure) == repr(MEASURES[measure])


def _exact(size, measure, alpha, scale, d_in):
    return composed_bound(size, measure == "zcdp", alpha, scale, d_in)


@pytest.mark.parametrize("T, size, metric, measure, alpha, scale, opendp, ours", OPENDP_ABOVE)
def test_maps_below_opendps_are_the_least_floats_above_the_exact_value(
    T, size, metric, measure, alpha, scale, opendp, ours
):
    m = quantile(T, size, metric, measure, alpha, scale)
    found = tuple(m.map(d_in) for d_in in range(5))
    assert found == ours and found != opendp
    for d_in, (value, theirs) in enumerate(zip(found, opendp)):
        exact = _exact(size, measure, alpha, scale, d_in)
        assert exact <= Fraction(value) <= Fraction(theirs)
        if value > 0:  # the next float down is below the exact value: rounded up once
            assert Fraction(math.nextafter(value, 0.0)) < exact


# OpenDP 0.16 at scale 0 (the exact argmin of the scores, ties to the larger index):
# dp.m.make_private_quantile(dp.vector_domain(<atom>), dp.symmetric_distance(), <measure>,
#   candidates, alpha, 0.0)(data), the same under both measures.
SCALE_ZERO = [
    ("f64", [1.0, 2.0, 3.0], [2.0, 2.0, 2.1], {5e-324: 2.0, 0.5: 2.0, 1 - 2**-53: 3.0, 0.3: 2.0}),
    ("i32", [0, 10, 20, 30], [1, 2, 3, 11, 12, 25], {5e-324: 0, 0.5: 10, 1 - 2**-53: 30, 0.3: 10}),
    ("f64", [0.0, 10.0], [5.0], {5e-324: 0.0, 0.5: 10.0, 1 - 2**-53: 10.0, 0.3: 0.0}),
    ("i32", [0, 5, 9], [], {5e-324: 9, 0.5: 9, 1 - 2**-53: 9, 0.3: 9}),
]


@pytest.mark.parametrize("T, candidates, data, expected", SCALE_ZERO)
@pytest.mark.parametrize("measure", ["pure", "zcdp"])
def test_scale_zero_releases_opendps_candidate(T, candidates, data, expected, measure):
    for alpha, value in expected.items():
        m = quantile(T, None, "sd", measure, alpha, 0.0, candidates=candidates)
        released = m(data)
        assert released == value and type(released) is type(value)
        assert m.map(0) == 0.0 and m.map(1) == math.inf


def test_an_f32_candidate_is_released_as_its_f32_value():
    # OpenDP 0.16: ...(dp.vector_domain(dp.atom_domain(T="f32", nan=False)), symmetric_distance(),
    #   max_divergence(), [0.1, 0.2], 0.5, 0.0)([0.1, 0.1, 0.1]) == 0.10000000149011612
    m = quantile("f32", None, "sd", "pure", 0.5, 0.0, candidates=[0.1, 0.2])
    assert m([0.1, 0.1, 0.1]) == 0.10000000149011612


def test_releases_are_candidates():
    for measure in MEASURES:
        m = quantile("i32", None, "sd", measure, 0.5, 1.0)
        for _ in range(20):
            assert m(list(range(40))) in CANDIDATES["i32"]


def test_numpy_candidates_and_partial_form():
    space = domain("f64"), dp.symmetric_distance()
    built = space >> dp.m.then_private_quantile(
        dp.max_divergence(), np.linspace(0.0, 1.0, 5), 0.5, 1.0
    )
    assert [built.map(d) for d in range(4)] == [0.0, 1.0, 2.0, 3.0]
    assert built([0.5] * 9) in (0.0, 0.25, 0.5, 0.75, 1.0)
    direct = dp.m.make_private_quantile(*space, dp.max_divergence(), [0.0, 1.0], 0.5, 0.0)
    assert direct([0.9, 0.9]) == 1.0


def test_opendps_keyword_partial_form_chains_after_a_transformation():
    # as OpenDP 0.16's Theil-Sen example builds its median (keywords, numpy candidates)
    median = dp.m.then_private_quantile(
        output_measure=dp.zero_concentrated_divergence(),
        candidates=np.linspace(0, 10, 100),
        alpha=0.5,
        scale=1.0,
    )
    chained = dp.t.make_drop_null(dp.vector_domain(dp.atom_domain(T=float)), SD) >> median
    # OpenDP 0.16: the same chain's map(1) == 0.125 (unknown size, alpha 1/2, scale 1)
    assert chained.map(1) == 0.125
    assert chained([1.0, float("nan"), 5.0] * 30) in set(np.linspace(0, 10, 100).tolist())


def test_an_int_scale_is_read_as_its_float():
    assert quantile(scale=1).map(3) == quantile(scale=1.0).map(3) == 3.0


T_ERR, M_ERR = MakeTransformationError, MakeMeasurementError


@pytest.mark.parametrize(
    "kwargs, error, parameter, message",
    [
        ({"candidates": [1.0, 1.0, 2.0]}, T_ERR, "candidates", "strictly increasing"),
        ({"candidates": [-0.0, 0.0]}, T_ERR, "candidates", "strictly increasing"),
        ({"candidates": [1.0, float("nan")]}, T_ERR, "candidates", "non-NaN"),
        ({"candidates": []}, T_ERR, "candidates", "non-empty"),
        ({"candidates": "abc"}, T_ERR, "candidates", "list"),
        ({"alpha": -0.1}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": 1.1}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": float("nan")}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        # issue #22's rule: OpenDP 0.16 accepts alpha 0 and 1, certdp refuses them
        ({"alpha": 0.0}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": -0.0}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": 1.0}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": 0}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": 1}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": Fraction(1, 10**400)}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": Decimal(1)}, T_ERR, "alpha", r"open interval \(0, 1\)"),
        ({"alpha": "0.5"}, T_ERR, "alpha", "float"),
        ({"scale": -1.0}, M_ERR, "scale", "finite and non-negative"),
        ({"scale": float("nan")}, M_ERR, "scale", "finite and non-negative"),
        ({"scale": float("inf")}, M_ERR, "scale", "finite and non-negative"),
        ({"scale": -2}, M_ERR, "scale", "finite and non-negative"),
        ({"scale": 10**400}, M_ERR, "scale", "beyond f64"),
        ({"scale": "1.0"}, M_ERR, "scale", "must be a float"),
        ({"scale": True}, M_ERR, "scale", "must be a float"),
        ({"scale": 1e308, "alpha": 0.3}, M_ERR, "scale", "overflows f64"),
        ({"output_measure": dp.approximate(dp.max_divergence())}, M_ERR, "output_measure", "max_divergence"),
        ({"input_metric": dp.linf_distance(T="f64")}, T_ERR, "input_metric", "symmetric"),
        ({"input_domain": dp.vector_domain(dp.atom_domain(T="f64"))}, T_ERR, "input_domain", "nan"),
        ({"input_domain": dp.vector_domain(dp.atom_domain(T="String"))}, T_ERR, "input_domain", "numeric"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_naming_the_parameter(kwargs, error, parameter, message):
    arguments = {"input_domain": domain("f64"), "input_metric": dp.symmetric_distance(),
                 "output_measure": dp.max_divergence(), "candidates": [0.0, 1.0],
                 "alpha": 0.5, "scale": 1.0} | kwargs  # fmt: skip
    with pytest.raises(error, match=message) as raised:
        dp.m.make_private_quantile(**arguments)
    assert raised.value.parameter == parameter
    assert isinstance(raised.value, dp.DPError)


def test_data_outside_the_domain_is_refused_at_invocation():
    m = quantile("f64", 3)
    for bad in ([1.0, 2.0], [1.0, float("nan"), 2.0], ["a", "b", "c"]):
        with pytest.raises(dp.FailedFunctionError):
            m(bad)


def test_contract_verifies():
    report = CONTRACT.verify(max_examples=30)
    assert report.examples > 0 and report.max_tightness <= 1


def test_contract_refutes_half_the_map():
    kwargs = {"input_domain": domain("i32"), "input_metric": dp.symmetric_distance(),
              "output_measure": dp.max_divergence(), "candidates": [0, 1, 2], "alpha": 0.5,
              "scale": 1.0}  # fmt: skip
    built = dp.m.make_private_quantile(**kwargs)
    fixed = dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))
    with pytest.raises(PrivacyViolation):
        fixed.verify(map_override=lambda d_in: built.map(d_in) / 2, max_examples=60)


def test_contract_at_run_time():
    dp.enable_contracts()
    with pytest.raises(ContractError) as raised:
        dp.m.make_private_quantile(
            domain("f64"), dp.symmetric_distance(), dp.max_divergence(), [2.0, 2.0], 0.5, 1.0
        )
    assert raised.value.condition == "candidates-distinct"
    with pytest.raises(ContractError) as raised:
        dp.m.make_private_quantile(
            domain("f64"), dp.symmetric_distance(), dp.max_divergence(), [1.0], 0.5, -1.0
        )
    assert raised.value.condition == "scale-finite"
    m = quantile("i32", None, "sd", "zcdp", 0.3, 1.0)
    assert m.map(1) == 0.24500000000000002
    assert m([1, 2, 3]) in CANDIDATES["i32"]


def test_a_bounded_float_domain_is_accepted():
    # OpenDP 0.16 refuses atom_domain(bounds=(0.0, 10.0)) here (no nan=False); certdp's scores
    # accept it, as it holds no NaN: the proof's "Bounded domains" difference
    bounded = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0)))
    m = dp.m.make_private_quantile(bounded, SD, dp.max_divergence(), [1.0, 2.0], 0.5, 0.0)
    assert m.map(0) == 0.0 and m([2.0, 2.0, 9.0]) == 2.0


@pytest.mark.parametrize("measure", ["pure", "zcdp"])
def test_release_matches_the_exact_law_of_noisy_max_of_the_negated_scores(measure):
    from scipy import stats

    from certdp.measurements._selection.contract_support import ranking_law

    candidates, data, draws = [0, 5, 10], [1, 2, 6, 7, 8, 12], 3000
    m = quantile("i32", None, "sd", measure, 0.5, 1.0, candidates=candidates)
    scores = dp.t.make_quantile_score_candidates(domain("i32"), SD, candidates, 0.5)(data)
    assert scores == [6, 2, 4]  # |1/2 * #below - 1/2 * #above| scaled by den = 2
    noise = "exponential" if measure == "pure" else "gumbel"
    law = ranking_law(scores, 2, 1, True, noise)  # noise scale 1.0 * den
    counts = dict.fromkeys(candidates, 0)
    for _ in range(draws):
        counts[m(data)] += 1
    expected = [float(law[(i,)]) * draws for i in range(3)]
    assert stats.chisquare([counts[c] for c in candidates], expected).pvalue > 1e-7


# OpenDP 0.16 accepts unsorted candidates, a bare range and a Fraction or Decimal alpha; the
# literals below were computed with opendp.prelude in the shared venv:
# odp.m.make_private_quantile(vector_domain(atom_domain(T=int)), symmetric_distance(),
#     max_divergence(), CANDIDATES, ALPHA, SCALE) on DATA = [1, 2, 3, 4, 6, 7, 8].
OPENDP_DATA = [1, 2, 3, 4, 6, 7, 8]


@pytest.mark.parametrize(
    "candidates, released",
    [([10, 0, 5], 5), ((5, 3, 1), 5), (range(0, 100, 10), 90), (np.array([9, 4, 1]), 4)],
)
def test_unsorted_candidates_and_range_release_a_candidate_of_the_sorted_copy(candidates, released):
    """OpenDP sorts a copy of the candidates (scale 0.0: the release is the exact arg-min of
    the scores of the sorted copy); OpenDP's releases: [10, 0, 5] -> 5, (5, 3, 1) -> 5,
    range(0, 100, 10) -> 90 (np.array [9, 4, 1]: the same rule, 4)."""
    m = dp.m.make_private_quantile(
        domain("i64"), dp.symmetric_distance(), dp.max_divergence(), candidates, 0.5, 0.0
    )
    assert m(OPENDP_DATA) == released
    assert m.map(1) == math.inf  # OpenDP: inf at scale 0


def test_unsorted_candidates_score_as_the_sorted_copy():
    """The measurement built on an unsorted list has the map and the release law of the one
    built on its sorted copy: at scale 0 every release equals it, and the maps are equal."""
    unsorted = dp.m.make_private_quantile(
        domain("f64"), dp.symmetric_distance(), dp.max_divergence(), [7.5, -1.0, 3.0], 0.3, 1.0
    )
    ordered = dp.m.make_private_quantile(
        domain("f64"), dp.symmetric_distance(), dp.max_divergence(), [-1.0, 3.0, 7.5], 0.3, 1.0
    )
    assert [unsorted.map(d) for d in range(4)] == [ordered.map(d) for d in range(4)]
    exact = dp.m.make_private_quantile(
        domain("f64"), dp.symmetric_distance(), dp.max_divergence(), [7.5, -1.0, 3.0], 0.3, 0.0
    )
    assert {exact([0.0, 1.0, 2.0, 4.0, 9.0]) for _ in range(10)} == {3.0}


@pytest.mark.parametrize(
    "alpha, map_1",
    [(Fraction(1, 3), 1.3334000000000001), (Decimal("0.3"), 1.4000000000000001),
     (Fraction(1, 2), 1.0)],
)  # fmt: skip
def test_fraction_and_decimal_alpha_read_as_their_nearest_float(alpha, map_1):
    """OpenDP reads alpha as an f64; its map at d_in = 1 (candidates [0, 5, 10], scale 1.0):
    Fraction(1, 3) -> 1.3334000000000001, Decimal('0.3') -> 1.4000000000000001,
    Fraction(1, 2) -> 1.0.  certdp's equals the map built on float(alpha)."""
    m = dp.m.make_private_quantile(
        domain("i64"), dp.symmetric_distance(), dp.max_divergence(), [0, 5, 10], alpha, 1.0
    )
    floated = dp.m.make_private_quantile(
        domain("i64"), dp.symmetric_distance(), dp.max_divergence(), [0, 5, 10], float(alpha), 1.0
    )
    assert m.map(1) == floated.map(1) == map_1


@pytest.mark.parametrize("alpha", [0.0, -0.0, 1.0, 0, 1])
@pytest.mark.parametrize("measure", ["pure", "zcdp"])
def test_alpha_zero_or_one_is_refused_at_construction(alpha, measure):
    """Issue #22's rule (OpenDP 0.16 accepts both ends): exactly MakeTransformationError."""
    for size in (None, 5):
        with pytest.raises(MakeTransformationError, match=r"open interval \(0, 1\)") as raised:
            quantile("i32", size, "sd", measure, alpha, 1.0)
        assert type(raised.value) is MakeTransformationError
        assert raised.value.parameter == "alpha"


@pytest.mark.parametrize("alpha", [Fraction(10**400), Decimal("NaN"), Fraction(3, 2)])
def test_bad_fraction_or_decimal_alpha_is_refused(alpha):
    with pytest.raises(MakeTransformationError) as raised:
        dp.m.make_private_quantile(
            domain("i64"), dp.symmetric_distance(), dp.max_divergence(), [0, 5], alpha, 1.0
        )
    assert raised.value.parameter == "alpha"


def test_scale_negative_zero_is_accepted_as_zero():
    """A documented difference (OpenDP refuses scale -0.0): noise scale -0.0 is noisy max's
    scale 0, map inf above 0, the release the exact arg-min."""
    m = dp.m.make_private_quantile(
        domain("i64"), dp.symmetric_distance(), dp.max_divergence(), [0, 5, 10], 0.5, -0.0
    )
    assert (m.map(0), m.map(1)) == (0.0, math.inf)
    assert {m([1, 6, 6, 7, 4]) for _ in range(10)} == {5}


def test_map_where_opendps_overflows():
    """OpenDP 0.16 raises Overflow at size 1, alpha 1e-300, d_in 2 (2 * w in u64); certdp's
    map is the formula's value 2 * 2 * w / (scale * den) = 2.0 (w = den)."""
    m = dp.m.make_private_quantile(
        dp.vector_domain(dp.atom_domain(T="i64"), size=1), dp.symmetric_distance(),
        dp.max_divergence(), [0, 5, 10], 1e-300, 1.0,
    )  # fmt: skip
    assert m.map(2) == 2.0


def test_contract_draws_no_distance_the_scores_map_refuses():
    # alpha = 1e-300 with a known size: the scores' den is 2**64 - 1, so the scores' map
    # refuses d_in = 4 (no u64, as its proof states); the contract drew it and failed there
    from certdp.contracts import contract_of
    from certdp.core.errors import ArithmeticOverflowError
    from certdp.transformations.quantile_score_candidates.contract import largest_d_in

    kwargs = {
        "input_domain": dp.vector_domain(dp.atom_domain(T="i32"), size=1),
        "input_metric": dp.symmetric_distance(),
        "candidates": [0],
        "alpha": 1e-300,
        "output_measure": dp.max_divergence(),
        "scale": 1.0,
    }
    built = dp.m.make_private_quantile(**kwargs)
    with pytest.raises(ArithmeticOverflowError):
        built.map(4)
    assert largest_d_in(built, 4) == 3
    fixed = dataclasses.replace(
        contract_of(dp.m.make_private_quantile), arguments=lambda: st.just(kwargs)
    )
    assert fixed.verify(max_examples=20).examples > 0

"""The Laplace and Gaussian map models equal the code's maps bit for bit on random inputs, and
a deliberately wrong map (the division rounded to nearest or down) is refuted with a pair."""

import math
from fractions import Fraction

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of
from certdp.core.errors import ArithmeticOverflowError
from certdp.measurements._gaussian import smt_model as gaussian_model
from certdp.measurements._laplace import smt_model as laplace_model
from certdp.measurements._laplace.discretization import K_MAX, K_MIN
from certdp.measurements._laplace.mechanism_smt import map_circuit, map_model
from certdp.numeric import inf_cast
from certdp.prove.engine import solve

#: A sort holding every f64 distance d_in + R and its square exactly.
_EXACT = z3.FPSort(16, 4400)


def _exact(value: Fraction):
    return z3.fpRealToFP(z3.RNE(), z3.RealVal(f"{value.numerator}/{value.denominator}"), _EXACT)


def _model(distance: Fraction, scale: Fraction, target, gaussian: bool) -> float:
    value = map_model(_exact(distance), _exact(scale), target, gaussian=gaussian)
    return float_of(z3.simplify(value))


_scales = st.one_of(
    st.sampled_from([0.0, 1.0, 5e-324, 1e300]),
    st.floats(min_value=0, max_value=1e308, allow_nan=False, allow_infinity=False),
)
_distances = st.one_of(st.sampled_from([0, 1, 2]), st.floats(0, 1e300), st.integers(0, 2**70))


@settings(max_examples=60, deadline=None)
@given(
    T=st.sampled_from(["f32", "f64"]),
    k=st.integers(K_MIN["f64"], K_MAX["f64"]),
    size=st.integers(1, 3),
    scale=_scales,
    d_in=_distances,
    gaussian=st.booleans(),
)
def test_float_map_model_is_the_code(T, k, size, scale, d_in, gaussian):
    dp.enable_features("contrib")
    k = min(max(k, K_MIN[T]), K_MAX[T])
    domain = dp.vector_domain(dp.atom_domain(T=T, nan=False), size=size)
    if gaussian:
        built = dp.m.make_gaussian(domain, dp.l2_distance(T=T), scale, k)
    else:
        built = dp.m.make_vector_float_laplace_cks20(domain, dp.l1_distance(T=T), scale, k)
    relaxation = laplace_model.built_relaxation(built)
    if gaussian:
        r0 = Fraction(2) ** k - Fraction(2) ** K_MIN[T]
        assert relaxation == r0 * (gaussian_model.root_bound(size) if r0 else 0)
    else:
        assert relaxation == size * (Fraction(2) ** k - Fraction(2) ** K_MIN[T])
    distance = Fraction(d_in) + relaxation
    expected = built.map(d_in)
    assert _model(distance, Fraction(scale), z3.Float64(), gaussian) == expected


@settings(max_examples=60, deadline=None)
@given(scale=_scales, d_in=_distances, gaussian=st.booleans())
def test_integer_map_model_is_the_code(scale, d_in, gaussian):
    dp.enable_features("contrib")
    if isinstance(d_in, float):
        d_in = int(d_in)
    domain = dp.vector_domain(dp.atom_domain(T="i64"))
    if gaussian:
        built = dp.m.make_gaussian(domain, dp.l2_distance(T="i64"), scale)
    else:
        built = dp.m.make_vector_integer_laplace(domain, dp.l1_distance(T="i64"), scale)
    assert laplace_model.built_relaxation(built) == 0
    expected = built.map(d_in)
    assert _model(Fraction(d_in), Fraction(scale), z3.Float64(), gaussian) == expected


@settings(max_examples=60, deadline=None)
@given(numerator=st.integers(1, 2**200), denominator=st.integers(1, 2**200), gaussian=st.booleans())
def test_map_model_rounds_like_inf_cast_in_f32(numerator, denominator, gaussian):
    """The same code path (``inf_cast``) with the target format ``f32``."""
    distance, scale = Fraction(numerator, 2**100), Fraction(denominator, 2**100)
    exact = distance * distance / (2 * scale * scale) if gaussian else distance / scale
    try:
        expected = inf_cast(exact, "f32")
    except ArithmeticOverflowError:
        expected = math.inf
    assert _model(distance, scale, z3.Float32(), gaussian) == expected


def test_relaxations_read_from_the_code_match_the_proof():
    dp.enable_features("contrib")
    assert laplace_model._vector_relaxation_mismatch(2) is None
    assert laplace_model._atom_relaxation_mismatch(1) is None
    assert gaussian_model._relaxation_mismatch(3) is None


def test_right_map_circuit_is_proved():
    for gaussian in (False, True):
        assert solve(map_circuit("make_laplace", gaussian=gaussian), 120)["status"] == "proved"


def test_map_rounded_to_nearest_or_down_is_refuted_with_a_pair():
    for rounding in (z3.RNE(), z3.RTN()):
        for gaussian in (False, True):
            wrong = map_circuit("make_laplace", gaussian=gaussian, rounding=rounding)
            outcome = solve(wrong, 120)
            assert outcome["status"] == "counterexample", (rounding, gaussian)
            example = outcome["example"]
            # the pair breaks the bound: the wrong map value is below the exact quotient
            d_in, scale, value = (_number(example[key]) for key in ("d_in", "scale", "map"))
            exact = d_in * d_in / (2 * scale * scale) if gaussian else d_in / scale
            assert value < exact


def _number(text: str) -> Fraction:
    """A z3 float numeral as printed by the model (``1.5*(2**-3)`` or ``+0.0``)."""
    mantissa, _, exponent = text.replace("(", "").replace(")", "").partition("*2**")
    value = Fraction(mantissa)
    return value * Fraction(2) ** int(exponent) if exponent else value


def test_the_real_gaussian_map_is_proved_at_every_instance():
    dp.enable_features("contrib")
    for case in gaussian_model.GAUSSIAN_CODE_CASES:
        assert solve(gaussian_model.code_instance(*case), 60)["status"] == "proved", case


def test_a_gaussian_map_over_eight_scale_squared_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "measurements/_gaussian/gaussian_map.py": [
            (
                "distance * distance / (2 * scale * scale)",
                "distance * distance / (8 * scale * scale)",
            )
        ]
    }
    summary = prove_edited(tmp_path, "make_gaussian", edit, select="real make_gaussian f64 atom")
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert float(example["map"]) > 0

"""The composition and pureDP_to_zCDP models equal the code bit for bit on random losses, and a
map that rounds the wrong way is refuted."""

import math
import struct

import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators.composition.smt_model import composed_loss, composition_instance
from certdp.combinators.pureDP_to_zCDP.smt_model import rho_instance, rho_of
from certdp.contracts.smt import float_of
from certdp.core.transformation import Measurement
from certdp.prove.engine import solve

_F64 = z3.Float64()
_LOSSES = st.one_of(
    st.floats(min_value=0.0, allow_nan=False),
    st.sampled_from([0.0, 5e-324, 1e-300, 1.0, 1e308, 1.7976931348623157e308, math.inf]),
)


def _bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def _stub(loss, measure):
    """A measurement whose privacy map returns ``loss`` (the combinators read only the map)."""
    return Measurement(
        dp.atom_domain(T="f64", nan=False), lambda x: x, dp.absolute_distance(T="f64"),
        measure, lambda d_in: loss,
    )  # fmt: skip


@given(st.lists(_LOSSES, min_size=1, max_size=3), st.booleans())
def test_composition_model_is_the_code(losses, zcdp):
    measure = dp.zero_concentrated_divergence() if zcdp else dp.max_divergence()
    code = dp.c.make_composition([_stub(loss, measure) for loss in losses]).map(1)
    total, _ = composed_loss([z3.FPVal(loss, _F64) for loss in losses], _F64)
    assert _bits(float_of(total)) == _bits(code)


@given(_LOSSES)
def test_pure_to_zcdp_model_is_the_code(epsilon):
    code = dp.c.make_pureDP_to_zCDP(_stub(epsilon, dp.max_divergence())).map(1)
    rho, _ = rho_of(z3.FPVal(epsilon, _F64), _F64)
    assert _bits(float_of(rho)) == _bits(code)


def test_rounding_the_wrong_way_is_refuted():
    for rounding in (z3.RTN(), z3.RNE()):
        outcome = solve(composition_instance((5, 11), (5, 11), 2, rounding), 60)
        assert outcome["status"] == "counterexample", outcome
        outcome = solve(rho_instance((5, 11), rounding=rounding), 60)
        assert outcome["status"] == "counterexample", outcome


def test_the_reduced_formats_are_proved():
    assert solve(composition_instance((5, 11), (5, 11), 3, least=True), 60)["status"] == "proved"
    assert solve(rho_instance((5, 11)), 60)["status"] == "proved"


def _order(rho, epsilon):
    """The order cdp_delta's bisection picks (a restatement of its loop, for this test)."""
    from certdp.numeric import inf_add, inf_div, neg_inf_mul

    a_max = inf_add(inf_div(inf_add(epsilon, 1.0), neg_inf_mul(2.0, rho)), 2.0)
    a_min = 1.01
    while True:
        a_mid = a_min + (a_max - a_min) / 2.0
        if a_mid in (a_max, a_min):
            return a_max
        derivative = (2.0 * a_mid - 1.0) * rho - epsilon + math.log1p(-1.0 / a_mid)
        if math.copysign(1.0, derivative) < 0:
            a_min = a_mid
        else:
            a_max = a_mid


@given(st.floats(1e-6, 10.0), st.floats(0.0, 20.0))
def test_cdp_delta_model_is_the_code(rho, epsilon):
    from certdp.combinators._conversion import cdp_delta, inf_exp, inf_ln_1p
    from certdp.combinators.zCDP_to_approxDP.smt_model import delta_at_order

    def lifted(function):
        return lambda value: z3.FPVal(function(float_of(value)), _F64)

    a = _order(rho, epsilon)
    steps = delta_at_order(
        *(z3.FPVal(v, _F64) for v in (a, rho, epsilon)), lifted(inf_ln_1p), lifted(inf_exp)
    )
    assert _bits(min(float_of(steps["delta"]), 1.0)) == _bits(cdp_delta(rho, epsilon))


def test_cdp_delta_model_rounding_the_divisor_up_is_refuted():
    from certdp.combinators.zCDP_to_approxDP.smt_model import delta_instance

    outcome = solve(delta_instance("f8", z3.RTP()), 120)
    assert outcome["status"] == "counterexample", outcome


def test_the_real_composition_map_is_proved_at_every_instance():
    from certdp.combinators.composition.smt_model import code_instance

    dp.enable_features("contrib")
    for kind in ("code", "model"):
        assert solve(code_instance(kind), 60)["status"] == "proved", kind


def test_halving_the_composed_loss_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/composition/make_composition.py": [
            ('inf_cast(total, "f64")', 'inf_cast(total / 2, "f64")')
        ]
    }
    summary = prove_edited(tmp_path, "make_composition", edit, select="real make_composition")
    assert summary["status"] == "counterexample", summary
    refuted = {example["claim"] for example in summary["counterexamples"]}
    assert len(refuted) == 2  # below the exact sum, and no longer the model's value


def test_the_real_pure_to_zcdp_map_is_proved_at_every_instance():
    from certdp.combinators.pureDP_to_zCDP.smt_model import code_instance

    dp.enable_features("contrib")
    for kind in ("code", "model"):
        assert solve(code_instance(kind), 60)["status"] == "proved", kind


def test_rho_of_epsilon_squared_over_eight_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/pureDP_to_zCDP/make_pureDP_to_zCDP.py": [
            ('Fraction(epsilon) ** 2 / 2, "f64"', 'Fraction(epsilon) ** 2 / 8, "f64"')
        ]
    }
    summary = prove_edited(tmp_path, "make_pureDP_to_zCDP", edit, select="real make_pureDP")
    assert summary["status"] == "counterexample", summary
    assert len(summary["counterexamples"]) == 2

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

"""The composition and pureDP_to_zCDP models equal the code bit for bit on random losses, and a
map that rounds the wrong way is refuted."""

import math
import struct
from pathlib import Path

import pytest
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


#: rho and epsilon over the whole f64 range: subnormals, tiny, around 1, huge, MAX, +inf.
_WHOLE_RANGE = st.one_of(
    st.floats(min_value=0.0, allow_nan=False),
    st.floats(min_value=0.0, max_value=1e-300),
    st.floats(min_value=1e-6, max_value=20.0),
    st.sampled_from([0.0, 5e-324, 1e-320, 2.2250738585072014e-308, 1e150, 1e300,
                     1.7976931348623157e308, math.inf]),
)  # fmt: skip


@given(_WHOLE_RANGE, _WHOLE_RANGE)
def test_cdp_delta_model_is_the_code(rho, epsilon):
    """The model, fed the order the code chose (read from its run, not recomputed) and the
    code's own inf_ln_1p and inf_exp, returns what the real constructor's profile returns,
    bit for bit, on every path of the code."""
    from certdp.combinators._conversion import inf_exp, inf_ln_1p
    from certdp.combinators._conversion.cdp_delta import delta_at_order
    from certdp.combinators.zCDP_to_approxDP.smt_model import (
        code_delta,
        code_order,
        delta_of_order,
    )

    dp.enable_features("contrib")
    delta, records = code_delta(rho, epsilon)
    found = code_order(records)
    if rho == 0 or math.isinf(epsilon):
        assert delta == 0.0 and "a" not in found
    elif math.isinf(rho):
        assert delta == 1.0 and "a" not in found
    else:
        model = delta_of_order(found["a"], rho, epsilon, inf_ln_1p, inf_exp)
        assert _bits(model) == _bits(delta)
        assert _bits(model) == _bits(delta_at_order(found["a"], rho, epsilon))


def test_cdp_delta_model_follows_the_exponent_floor():
    """Past the edge where the exact exponent t1 + t2 leaves the f64 range (rho = 0.5,
    epsilon >= 1.8961503816218355e154), the code floors it to -MAX: the tracer must see that
    inf_exp call (now in certdp.numeric) and the model must take the same branch."""
    from certdp.combinators._conversion import inf_exp, inf_ln_1p
    from certdp.combinators.zCDP_to_approxDP.smt_model import (
        code_delta,
        code_order,
        delta_of_order,
    )

    dp.enable_features("contrib")
    for epsilon in (1.8961503816218355e154, 1e200, 1.7976931348623157e308):
        delta, records = code_delta(0.5, epsilon)
        found = code_order(records)
        assert found["exp"] == (-1.7976931348623157e308, 5e-324), epsilon
        assert "ln" in found and found["a"] > 1
        model = delta_of_order(found["a"], 0.5, epsilon, inf_ln_1p, inf_exp)
        assert 0 < delta < 1 and _bits(model) == _bits(delta), epsilon


def test_the_real_cdp_delta_is_proved_at_every_instance():
    from certdp.combinators.zCDP_to_approxDP.smt_model import code_instance

    dp.enable_features("contrib")
    for rho in (5e-324, 1e-10, 0.5, 1e300, math.inf):
        assert solve(code_instance(rho), 60)["status"] == "proved", rho


_QUARTER_DELTA = (
    "\n\n_unedited_cdp_delta = cdp_delta\n\n\n"
    "def cdp_delta(rho, epsilon, memo=None):\n"
    "    return _unedited_cdp_delta(rho, epsilon, memo) / 4\n"
)


def test_a_quarter_of_cdp_delta_in_the_code_is_refuted(tmp_path):
    import certdp.combinators._conversion as conversion

    from .edited import prove_edited

    source = (Path(conversion.__file__).parent / "cdp_delta.py").read_text()
    tail = source.rstrip("\n").splitlines()[-1]
    edit = {"combinators/_conversion/cdp_delta.py": [(tail, tail + _QUARTER_DELTA)]}
    summary = prove_edited(tmp_path, "make_zCDP_to_approxDP", edit, select="rho=0.5,")
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert float(example["code delta"]) < 1


def test_cdp_delta_model_rounding_the_divisor_up_is_refuted():
    from certdp.combinators.zCDP_to_approxDP.smt_model import delta_instance

    outcome = solve(delta_instance("f8", z3.RTP()), 120)
    assert outcome["status"] == "counterexample", outcome


def test_the_real_composition_map_is_proved_at_every_instance():
    from certdp.combinators.composition.smt_model import code_instance

    dp.enable_features("contrib")
    for pairs in (False, True):
        for kind in ("code", "model"):
            assert solve(code_instance(kind, pairs=pairs), 60)["status"] == "proved", kind


def test_halving_the_composed_loss_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/_compose/compose.py": [
            ('inf_cast(total, "f64")', 'inf_cast(total / 2, "f64")')
        ]
    }
    summary = prove_edited(tmp_path, "make_composition", edit, select="real make_composition")
    assert summary["status"] == "counterexample", summary
    refuted = {example["claim"] for example in summary["counterexamples"]}
    assert len(refuted) == 4  # below the exact sum, and not the model's value; both part kinds


def test_dropping_the_delta_sum_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/_compose/compose.py": [
            ("delta = add_losses([loss[1] for loss in losses], error, parameter)",
             "delta = add_losses([loss[1] for loss in losses[:1]], error, parameter)")
        ]
    }  # fmt: skip
    summary = prove_edited(tmp_path, "make_composition", edit, select="approximate parts")
    assert summary["status"] == "counterexample", summary


def test_the_real_pure_to_zcdp_map_is_proved_at_every_instance():
    from certdp.combinators.pureDP_to_zCDP.smt_model import code_instance

    dp.enable_features("contrib")
    for kind in ("code", "model"):
        assert solve(code_instance(kind), 60)["status"] == "proved", kind


def test_rho_of_epsilon_squared_over_eight_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/pureDP_to_zCDP/make_pureDP_to_zCDP.py": [
            ('exact**2 / 2, "f64"', 'exact**2 / 8, "f64"')
        ]
    }
    summary = prove_edited(tmp_path, "make_pureDP_to_zCDP", edit, select="real make_pureDP")
    assert summary["status"] == "counterexample", summary
    assert len(summary["counterexamples"]) == 2


_OPENDP_TAIL = (
    "\n\n_unedited_cdp_delta = cdp_delta\n\n\n"
    "def cdp_delta(rho, epsilon, memo=None):\n"
    "    if 0 < rho < math.inf and epsilon < math.inf and (\n"
    "        Fraction(epsilon) ** 2 / (4 * Fraction(rho)) > Fraction(F64_MAX)\n"
    "    ):\n"
    "        return 5e-324\n"
    "    return _unedited_cdp_delta(rho, epsilon, memo)\n"
)


def test_a_sound_new_path_of_cdp_delta_is_proved(tmp_path):
    """The obligations follow the code, not a copy of it: a sound path added to cdp_delta
    (the smallest delta where epsilon^2 / (4 rho) overflows, as OpenDP returns) is proved
    without changing the model."""
    import certdp.combinators._conversion as conversion

    from .edited import prove_edited

    source = (Path(conversion.__file__).parent / "cdp_delta.py").read_text()
    tail = source.rstrip("\n").splitlines()[-1]
    edit = {"combinators/_conversion/cdp_delta.py": [(tail, tail + _OPENDP_TAIL)]}
    summary = prove_edited(tmp_path, "make_zCDP_to_approxDP", edit, select="rho=0.5,")
    assert summary["status"] == "proved", summary


@pytest.mark.parametrize(
    "old, new",
    [
        # the composed Rényi curve keeps the largest part instead of adding them
        (
            "total = sum((Fraction(value) for value in values), Fraction(0))  # label: sum",
            "total = max((Fraction(value) for value in values), default=Fraction(0))",
        ),
        # the exact sum rounded down instead of up
        ('return inf_cast(total, "f64")  # label: round-up', "return float(total / 2)"),
        # every part evaluated at the fixed order 2 instead of the requested one (referee
        # ref-rdp: the composed curve at alpha = 1e6 would be sum_i eps_i(2))
        ("return True, curve(alpha)  # label: value-call", "return True, curve(2.0)"),
        # only the first three parts added (referee ref-rdp: unsound for 4 or more parts)
        (
            "for part, curve in enumerate(self._curves)",
            "for part, curve in enumerate(self._curves[:3])",
        ),
    ],
    ids=["max-not-sum", "rounded-down", "fixed-order", "first-three-parts"],
)
def test_an_unsound_renyi_curve_in_the_code_is_refuted(tmp_path, old, new):
    from .edited import prove_edited

    edit = {"measurements/_renyi/renyi_curve.py": [(old, new)]}
    summary = prove_edited(tmp_path, "make_composition", edit, select="Rényi parts")
    assert summary["status"] == "counterexample", summary
    refuted = {example["claim"] for example in summary["counterexamples"]}
    assert any("Rényi parts" in claim and ">= the exact sum" in claim for claim in refuted)


def test_the_real_renyi_composition_is_proved_at_every_instance():
    from certdp.combinators.composition.smt_model import code_instance

    for kind in ("code", "model"):
        assert solve(code_instance(kind, renyi=True), 60)["status"] == "proved", kind

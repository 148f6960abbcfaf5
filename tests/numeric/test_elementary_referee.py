"""The referee's tests of issue 18 part 2 (branch ``rounding``), kept in the suite.

Part A held the counterexamples found by the referee: A1, A2 (``round_enclosure`` with a bad
``direction``), A5 (t2's product and logarithm unpinned) and A6 (a host ``math.log2`` in the
summation model) are fixed and keep the referee's assertions. A3 and A4 were about statements,
not code, and are restated: A3 (``delta >= 2^-1074`` needs epsilon finite; at epsilon = +inf the
valid answer is 0) now checks the corrected lemma; A4 (exact monotonicity in epsilon) conflicts
with matching OpenDP 0.16 bit for bit, which certdp keeps, so it checks OpenDP's bits, the
size of the rise, that both values are valid and that cdp_delta.tex discloses it.
Part B holds pins (OpenDP's recorded bits, flips below the exact value), Part C
elementary-function edge points against mpmath at 4000 bits.
"""

from __future__ import annotations

import importlib
import inspect
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

import certdp.numeric as numeric
from certdp.combinators._conversion import cdp_delta
from certdp.core.errors import DPError
from certdp.numeric import inf_exp, inf_ln_1p, inf_log2, neg_inf_log2, round_enclosure

CDP = "certdp.combinators._conversion.cdp_delta"
cdp_delta_module = importlib.import_module(CDP)
TINY = 5e-324


# =============================================================================== Part A
class _Looping(Exception):
    """Raised by a test enclosure when round_enclosure keeps asking for more precision."""


def _enclosure_of(value: Fraction, passes: int = 12):
    calls = [0]

    def enclose(precision):
        calls[0] += 1
        if calls[0] > passes:
            raise _Looping(f"still refining after {passes} passes (precision {precision})")
        eps = Fraction(1, 1 << precision)
        return value - eps, value + eps

    return enclose


def test_A1_round_enclosure_nearest_is_refused_not_an_endless_loop():
    """round_enclosure is public (certdp.numeric.__all__) but does not check ``direction``.
    With "nearest" and v = 1/10 the candidate nearest(lo) lies above lo, the strict check never
    holds, and the precision doubles forever (a hang). Expected: a typed DPError at once."""
    with pytest.raises(DPError):
        round_enclosure(_enclosure_of(Fraction(1, 10)), "f64", "nearest")


def test_A2_round_enclosure_unknown_direction_is_refused_not_rounded_down():
    """Any direction other than "up" is silently treated as "down": "Up" returns
    0.3333333333333333 < 1/3 for v = 1/3 -- a silent wrong-side answer for a bad argument."""
    with pytest.raises(DPError):
        round_enclosure(_enclosure_of(Fraction(1, 3)), "f64", "Up")


def test_A3_cdp_delta_at_least_tiny_for_finite_positive_rho_and_finite_epsilon():
    """cdp_delta.tex's lemma, as corrected: for rho > 0 finite AND epsilon finite, delta >=
    2^-1074; at epsilon = +inf the code returns 0.0 (trivial-zero), which is valid."""
    assert cdp_delta(0.5, math.inf) == 0.0
    for epsilon in (0.0, 1.0, 1.8961503816218355e154, 1e300, 1.7976931348623157e308):
        assert cdp_delta(0.5, epsilon) >= TINY, epsilon
    tex = (Path(cdp_delta_module.__file__).with_name("cdp_delta.tex")).read_text()
    statement = tex[tex.index(r"\label{lem:cdp-delta}") : tex.index(r"\end{lemma}")]
    assert "$\\varepsilon$ finite" in statement


def test_A4_cdp_delta_last_bit_rise_is_opendp_and_disclosed():
    """Not exactly monotone in epsilon at the last bits (the issue's "monotone" is met across
    the former overflow edge only): delta(0.5, e) rises between these consecutive floats, by
    one ulp, with OpenDP 0.16's bits (0x1.0e5abb587c82ep-1 and ...82fp-1, recorded live from
    opendp 0.16.0). Both values are valid bounds, and cdp_delta.tex states the rise."""
    from certdp.combinators._support.contract_support import mp_cdp_delta

    e1, e2 = 0.10000000000000037, 0.10000000000000038
    assert math.nextafter(e1, math.inf) == e2
    d1, d2 = cdp_delta(0.5, e1), cdp_delta(0.5, e2)
    assert (d1.hex(), d2.hex()) == ("0x1.0e5abb587c82ep-1", "0x1.0e5abb587c82fp-1")
    assert d1 < d2 <= d1 + 3 * math.ulp(d1)
    with mpmath.workdps(80):
        for e, d in ((e1, d1), (e2, d2)):
            assert mpmath.mpf(d) >= mp_cdp_delta(0.5, e)
    tex = (Path(cdp_delta_module.__file__).with_name("cdp_delta.tex")).read_text()
    assert "not exactly\nmonotone in $\\varepsilon$" in tex


#: Directed operations of cdp_delta that the directed-flip table does not flip.
#: At 47afcaa the table also missed the divisor (a - 1) of the last line (the issue's own example)
#: and the (a - 1) of t1: flipping either left every targeted test green (228 passed); commit
#: 6dc9205 pins both (and two more) to OpenDP's recorded bits (OPENDP_ROWS), so they are checked
#: here too and pass at bd0367a. Commit 6dc9205's message says "t2's product and logarithm"
#: are pinned too, but no row flips them; a flip of either gives a delta BELOW the exact bound
#: (Part B, BELOW_ROWS). They are caught today only indirectly (the OpenDP bit-for-bit reference
#: at rho = 2, epsilon = 1, and the hypothesis tie test of the SMT model).
UNPINNED = {
    "delta: divisor neg_inf_sub(a, 1.0)": ("delta", lambda old: "neg_inf_sub(a, 1.0)" in old),
    "a-1: neg_inf_sub branch": ("a-1", lambda old: "neg_inf_sub(a, 1.0) if" in old),
    "t2: outer inf_mul(a, ...)": ("t2", lambda old: "inf_mul(a" in old),
    "t2: direction of inf_ln_1p": ("t2", lambda old: "inf_ln_1p" in old),
}


@pytest.mark.parametrize("name", sorted(UNPINNED))
def test_A5_every_directed_operation_of_cdp_delta_is_pinned(name):
    import tests.rounding.test_directed_flips as table

    flips = [(r.module, r.label, r.old) for r in table.ROWS]
    flips += [(CDP, row[1], row[2]) for row in getattr(table, "OPENDP_ROWS", [])]
    label, flips_it = UNPINNED[name]
    assert any(m == CDP and lb == label and flips_it(old) for m, lb, old in flips), (
        f"no row of tests/rounding/test_directed_flips.py flips {name}"
    )


def test_A6_no_host_elementary_function_is_trusted():
    """definitions.tex (host-arithmetic), as changed on this branch: "Nothing is assumed of
    mpmath or of the host's floating-point elementary functions (math.exp, math.log1p, ...)".
    The summation SMT model still trusts math.log2 to 2^-50 (its comment) to build a bound
    "above the exact log2"; certdp.numeric.inf_log2 is now available for it."""
    from certdp.transformations._summation import smt_model

    assert "math.log2" not in inspect.getsource(smt_model._log2_upper)


# =============================================================================== Part B
def _flipped(label, old, new):
    from tests.rounding.flips import flipped

    module = flipped(CDP, label, old, new)
    module.numeric = numeric
    return module


#: (flip, rho, epsilon, OpenDP 0.16's delta as float.hex). OpenDP's values were recorded with
#: make_user_measurement(..., zero_concentrated_divergence(), map=rho) -> make_zCDP_to_approxDP
#: -> .map(1.0).delta(epsilon), the same way as tests/combinators/generate_opendp_cdp_reference.py.
PINS = [
    (
        ("delta", "neg_inf_sub(a, 1.0))", "inf_sub(a, 1.0))"),
        8.022919651654958e-33,
        1.867013185642041e-16,
        "0x1.4d1891b0cc0d3p-57",
    ),
    (
        ("ar-e", "quick_inf_sub(quick_inf_mul", "numeric.neg_inf_sub(quick_inf_mul"),
        0.4483591375052187,
        0.009969578345670279,
        "0x1.0f94ce73059afp-1",
    ),
    (
        ("a-1", "neg_inf_sub(a, 1.0) if", "inf_sub(a, 1.0) if"),
        2.3107537859282096e-31,
        5.1622930039628e-15,
        "0x1.8ea9a72f28230p-97",
    ),
    (
        ("t2", "quick_inf_mul(a, quick_inf_ln_1p", "numeric.neg_inf_mul(a, quick_inf_ln_1p"),
        2.293405751811336e-06,
        0.002912374058829645,
        "0x1.8fb5680e585acp-13",
    ),
    (
        (
            "t2",
            "quick_inf_ln_1p(-quick_neg_inf_div(1.0, a))",
            "numeric.next_down(quick_inf_ln_1p(-quick_neg_inf_div(1.0, a)))",
        ),
        2.293405751811336e-06,
        0.002912374058829645,
        "0x1.8fb5680e585acp-13",
    ),
]


@pytest.mark.parametrize("flip, rho, epsilon, opendp", PINS, ids=[p[0][1][:20] for p in PINS])
def test_B_pin_matches_opendp_and_exposes_the_flip(flip, rho, epsilon, opendp):
    real = cdp_delta(rho, epsilon)
    assert real.hex() == opendp  # bit for bit with OpenDP 0.16
    assert _flipped(*flip).cdp_delta(rho, epsilon) < real  # the flip changes the last bits


#: Two operations the table omits whose flip gives a delta BELOW the exact value (the infimum
#: over orders, mp_cdp_delta at 80 digits, decided with the author's own _below): these can be
#: rows of test_directed_flips.py as they stand.
BELOW_ROWS = [
    (
        ("t2", "quick_inf_mul(a, quick_inf_ln_1p", "numeric.neg_inf_mul(a, quick_inf_ln_1p"),
        0.0010503715771135345,
        0.024743160740829006,
    ),
    (
        (
            "t2",
            "quick_inf_ln_1p(-quick_neg_inf_div(1.0, a))",
            "numeric.next_down(quick_inf_ln_1p(-quick_neg_inf_div(1.0, a)))",
        ),
        3.4594074592122444,
        0.0019577104001482367,
    ),
]


@pytest.mark.parametrize("flip, rho, epsilon", BELOW_ROWS, ids=[r[0][1][:20] for r in BELOW_ROWS])
def test_B_flip_goes_below_the_exact_value(flip, rho, epsilon):
    from certdp.combinators._support.contract_support import mp_cdp_delta
    from tests.rounding.test_directed_flips import _below

    with mpmath.workdps(80):
        exact = mp_cdp_delta(rho, epsilon)
    assert not _below(cdp_delta(rho, epsilon), exact)
    assert _below(_flipped(*flip).cdp_delta(rho, epsilon), exact)


# =============================================================================== Part C
mpmath.mp.prec = 4000


def _exact(x) -> mpmath.mpf:
    f = Fraction(x)
    return mpmath.mpf(f.numerator) / f.denominator


def _is_up(r: float, v: mpmath.mpf) -> bool:
    below = math.nextafter(r, -math.inf)
    return _exact(r) >= v and _exact(below) < v


def _is_down(r: float, v: mpmath.mpf) -> bool:
    above = math.nextafter(r, math.inf)
    return _exact(r) <= v and _exact(above) > v


EXP_EDGE = [
    -800.0,  # the first argument not caught by exp-tiny
    math.nextafter(-800.0, 0.0),
    -745.1332191019412,  # e^x around 2^-1074
    -744.4400719213812,
    math.nextafter(709.782712893384, 0.0),
    709.782712893384,
    -(2.0**-1074),
    2.0**-1022,
    -0.0,
]


@pytest.mark.parametrize("x", EXP_EDGE, ids=repr)
def test_C_inf_exp_edges(x):
    assert _is_up(inf_exp(x), mpmath.exp(_exact(x)))


LN_EDGE = [-1 + 2.0**-53, -0.5, -(2.0**-1074), 2.0**-1074, 1.7976931348623157e308, 2.0**53 - 1]


@pytest.mark.parametrize("x", LN_EDGE, ids=repr)
def test_C_inf_ln_1p_edges(x):
    assert _is_up(inf_ln_1p(x), mpmath.log1p(_exact(x)))


LOG2_EDGE = [TINY * 3, 1 - 2.0**-53, 1 + 2.0**-52, 1.7976931348623157e308, 0.1]


@pytest.mark.parametrize("x", LOG2_EDGE, ids=repr)
def test_C_log2_edges(x):
    v = mpmath.log(_exact(x), 2)
    assert _is_up(inf_log2(x), v)
    assert _is_down(neg_inf_log2(x), v)

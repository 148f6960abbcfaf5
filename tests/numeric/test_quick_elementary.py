"""``numeric.quick_elementary``: ``quick_inf_exp`` and ``quick_inf_ln_1p`` return the bits (or
raise the errors) of ``inf_exp`` and ``inf_ln_1p`` in f64; their integer enclosures hold the
exact value (mpmath at 3000 bits, each comparison decided with a margin); a wrong host
candidate only sends a call to the exact function; and a flipped direction is caught.
"""

from __future__ import annotations

import inspect
import math
import random
import struct
import sys
import types
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import DPError
from certdp.numeric import inf_exp, inf_ln_1p
from certdp.numeric import quick_elementary as qe
from certdp.numeric.quick import _checked

from ..rounding.flips import flipped

MODULE = "certdp.numeric.quick_elementary"
MAX = sys.float_info.max
LN_MAX = 709.782712893384
BITS = 3000


def outcome(function, x):
    try:
        return "value", struct.pack("<d", function(x))
    except DPError as error:
        return "error", type(error), str(error), error.parameter


def same_exp(x):
    assert outcome(qe.quick_inf_exp, x) == outcome(lambda v: inf_exp(v, "f64"), x), x


def same_ln(x):
    assert outcome(qe.quick_inf_ln_1p, x) == outcome(lambda v: inf_ln_1p(v, "f64"), x), x


def _mp(x) -> mpmath.mpf:
    q = Fraction(x)
    with mpmath.workprec(BITS):
        return mpmath.mpf(q.numerator) / q.denominator


def _sign(value: Fraction, exact: mpmath.mpf) -> int:
    """The sign of ``value - exact``, decided with a margin of 2^-2900 |exact|."""
    with mpmath.workprec(BITS):
        gap = _mp(value) - exact
        assert abs(gap) > abs(exact) * mpmath.mpf(2) ** -2900 + mpmath.mpf(2) ** -2990
        return 1 if gap > 0 else -1


def _exp(x: float) -> mpmath.mpf:
    with mpmath.workprec(BITS):
        return mpmath.exp(_mp(x))


def _ln1p(x: float) -> mpmath.mpf:
    with mpmath.workprec(BITS):
        return mpmath.log1p(_mp(x))


def _neighbours(values):
    for v in values:
        yield from (math.nextafter(v, -math.inf), v, math.nextafter(v, math.inf))


EXP_EDGES = list(
    _neighbours(
        [0.0, 5e-324, -5e-324, 1e-300, -1e-300, 2.703422818511513e-82, 2.0**-53, -(2.0**-54),
         1e-20, -1e-20, 2.0**-30, 0.5, -0.5, 1.0, -1.0, 5.5, -13.3, 100.0, -300.1, 709.0,
         LN_MAX, 710.0, -708.3964185322641, -744.44007192138122, -745.1332191019411, -745.2,
         -800.0, -1e10, 1e10]
    )
) + [-0.0, math.inf, -math.inf, math.nan, MAX, -MAX]  # fmt: skip
LN_EDGES = list(
    _neighbours(
        [-1.0, -0.99, -0.5, -1 / 3, -0.01, -(2.0**-20), -1e-12, -1e-300, 0.0, 5e-324, 1e-300,
         1e-12, 2.0**-20, 0.01, 1 / 64, 0.5, 1.0, 3.0, 1e10, 1e300]
    )
) + [-0.0, -2.0, math.inf, -math.inf, math.nan, MAX, -MAX]  # fmt: skip
OTHER_TYPES = [0, 1, -1, 3, 10**400, Fraction(1, 3), True, "1.0", None, np.float64(0.5),
               np.float32(0.5), np.longdouble(0.5)]  # fmt: skip


def test_exp_edges():
    for x in EXP_EDGES + OTHER_TYPES:
        same_exp(x)


def test_ln_edges():
    for x in LN_EDGES + OTHER_TYPES:
        same_ln(x)


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_exp_any_float(x):
    same_exp(x)


@given(st.floats(min_value=-745.5, max_value=709.0))
def test_exp_in_range(x):
    same_exp(x)


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_ln_any_float(x):
    same_ln(x)


@given(st.floats(min_value=-1.0, max_value=0.0, exclude_min=True))
def test_ln_in_cdp_delta_range(x):
    same_ln(x)


def test_random_operands_against_the_exact_values():
    """The results are the smallest f64 above the exact value, decided against mpmath."""
    rng = random.Random(18)
    for _ in range(60):
        x = rng.uniform(-745.0, 709.0)
        r = qe.quick_inf_exp(x)
        assert _sign(Fraction(r), _exp(x)) > 0
        assert _sign(Fraction(math.nextafter(r, -math.inf)), _exp(x)) < 0
        y = -1 / rng.uniform(1.01, 1e6)
        r = qe.quick_inf_ln_1p(y)
        assert _sign(Fraction(r), _ln1p(y)) > 0
        assert _sign(Fraction(math.nextafter(r, -math.inf)), _ln1p(y)) < 0


def test_the_fast_path_is_taken_on_ordinary_operands(monkeypatch):
    """The exact functions are called only where the check fails (here: never)."""
    called = []
    monkeypatch.setattr(qe, "inf_exp", lambda x, T: called.append(x) or inf_exp(x, T))
    monkeypatch.setattr(qe, "inf_ln_1p", lambda x, T: called.append(x) or inf_ln_1p(x, T))
    for x in (-3.1, 0.25, -20.0, 300.0, -700.0, -745.0, 1e-5, -1e-5, 708.9):
        assert qe.quick_inf_exp(x) == inf_exp(x)
    for x in (-0.5, -0.01, -1e-6, -0.99, 2.0, 1e-3, 1e300):
        assert qe.quick_inf_ln_1p(x) == inf_ln_1p(x)
    assert called == []


# -------------------------------------------------------------------- the enclosures
def _exp_encloses(module, x: float, k64: int | None = None) -> bool | None:
    n, d = x.as_integer_ratio()
    if k64 is None:
        k64 = (n * module.INV_LN2_64) // (d << 64)
    bounds = module._exp_bounds(n, d, k64)
    if bounds is None:
        return None
    lo, hi, e = bounds
    scale = Fraction(2) ** e
    exact = _exp(x)
    return _sign(lo * scale, exact) < 0 and _sign(hi * scale, exact) > 0


def _ln_encloses(module, x: float) -> bool:
    lo, hi = module._ln_bounds(*x.as_integer_ratio())
    exact = _ln1p(x)
    if exact == 0:
        return lo <= 0 <= hi
    return _sign(Fraction(lo, module.ONE), exact) < 0 and _sign(Fraction(hi, module.ONE), exact) > 0


ENCLOSURE_POINTS = [-800.0, -745.2, -700.5, -13.3, -1.0, -1e-9, 1e-9, 0.3, 1.7, 44.0, 709.0]


def test_the_exp_enclosure_holds():
    rng = random.Random(7)
    points = ENCLOSURE_POINTS + [rng.uniform(-800, 709) for _ in range(30)]
    for x in points:
        assert _exp_encloses(qe, x) is True, x
        # any other reduction is sound too: it fits (and encloses) or is refused
        n, d = x.as_integer_ratio()
        k64 = (n * qe.INV_LN2_64) // (d << 64)
        for other in (k64 - 1, k64 + 1, k64 + 64, 0):
            assert _exp_encloses(qe, x, other) in (True, None), (x, other)


def test_the_ln_enclosure_holds():
    rng = random.Random(8)
    points = [-0.999, -0.5, -1e-6, 1e-6, 0.5, 3.0, 1e300, 2.0**-40, 1 / 64 - 2.0**-60]
    points += [rng.uniform(-1, 0) for _ in range(20)] + [rng.uniform(0, 1e6) for _ in range(10)]
    for x in points:
        assert _ln_encloses(qe, x), x


def test_the_table_entries_hold():
    for j in range(64):
        lo, hi = qe._root_two(j)
        with mpmath.workprec(BITS):
            exact = mpmath.mpf(2) ** (mpmath.mpf(j) / 64) * mpmath.mpf(2) ** qe.W
            # j = 0: 2^0 and ln 1 are exact, and so are the ends
            assert (lo < exact < hi if j else lo == exact == hi) and hi - lo <= 4
            lo, hi = qe._ln_table(j)
            exact = mpmath.log(mpmath.mpf(64 + j) / 64) * mpmath.mpf(2) ** qe.W
            assert (lo < exact < hi if j else lo == exact == hi == 0) and hi - lo <= 4


# -------------------------------------------------------------------- the check at exact ties
def test_the_enclosure_check_at_exact_ties():
    """``_checked`` with an enclosure ``[lo/d, hi/d]``: an end exactly on the candidate is
    allowed upward (up(c) = c), an end exactly on the float below is not."""
    d = 1 << 60
    one = d  # 1.0
    below = d - (1 << 7)  # 1 - 2^-53: the float below 1.0, exactly
    assert _checked(1.0, one, one, d, True)  # the exact value 1.0
    assert _checked(1.0, below + 1, one, d, True)
    assert not _checked(1.0, below, one, d, True)  # lo on the float below: down there
    assert not _checked(1.0, below + 1, one + 1, d, True)  # hi above 1.0
    # 1.5: both neighbours 2^-52 away, upwards and downwards
    c, g = 3 << 59, 1 << 8
    assert _checked(1.5, c - g + 1, c, d, True)
    assert not _checked(1.5, c - g, c, d, True)
    assert not _checked(1.5, c - g + 1, c + 1, d, True)
    assert _checked(1.5, c, c + g - 1, d, False)
    assert not _checked(1.5, c, c + g, d, False)
    assert not _checked(1.5, c - 1, c + g - 1, d, False)
    # subnormal: the candidate 2^-1074 covers (0, 2^-1074]
    tiny = 1 << 1074
    assert _checked(5e-324, 1, 1, tiny, True)
    assert not _checked(5e-324, 0, 1, tiny, True)
    assert not _checked(5e-324, 1, 2, tiny, True)


# -------------------------------------------------------------------- a wrong host
def _with_host_result(shift: int):
    """A copy of the module whose host candidates are moved by ``shift`` floats."""
    source = inspect.getsource(qe)
    for call in ("math.exp(x)", "math.log1p(x)"):
        assert source.count(f"candidate = {call}") == 1
        source = source.replace(f"candidate = {call}", f"candidate = _moved({call}, {shift})")
    name = f"{qe.__name__}__wrong_host{shift}"
    copy = types.ModuleType(name)
    copy.__package__ = qe.__package__
    sys.modules[name] = copy

    def moved(x, n):
        for _ in range(abs(n)):
            x = math.nextafter(x, math.inf if n > 0 else -math.inf)
        return x

    copy.__dict__["_moved"] = moved
    exec(compile(source, "quick_elementary (wrong host)", "exec"), copy.__dict__)
    return copy


@pytest.mark.parametrize("shift", [-3, -1, 1, 2, 5])
def test_a_wrong_host_result_changes_nothing(shift):
    wrong = _with_host_result(shift)
    for x in [-745.0, -300.1, -13.3, -1e-5, 0.0, 1e-5, 0.7, 44.0, 708.9]:
        assert outcome(wrong.quick_inf_exp, x) == outcome(lambda v: inf_exp(v, "f64"), x), x
    for x in [-0.99, -0.5, -1e-6, 0.0, 1e-6, 3.0, 1e300]:
        assert outcome(wrong.quick_inf_ln_1p, x) == outcome(lambda v: inf_ln_1p(v, "f64"), x), x


# -------------------------------------------------------------------- flipped directions
def _copy_with(replacements, tag):
    """A copy of the module with each ``old`` text replaced by ``new`` (once each)."""
    source = inspect.getsource(qe)
    for old, new in replacements:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    name = f"{qe.__name__}__{tag}"
    copy = types.ModuleType(name)
    copy.__package__ = qe.__package__
    sys.modules[name] = copy
    exec(compile(source, f"quick_elementary ({tag})", "exec"), copy.__dict__)
    return copy


#: The fast path turned downward: the candidate is moved down and checked as a downward rounding.
DOWNWARD = [
    ("if hi * dc > nc * d:", "if lo * dc < nc * d:"),
    ("candidate = math.nextafter(candidate, math.inf)", "candidate = math.nextafter(candidate, -math.inf)"),
    ("_checked(candidate, lo, hi, d, True)", "_checked(candidate, lo, hi, d, False)"),
]  # fmt: skip


def test_a_flipped_direction_is_caught():
    """The fast path turned downward returns floats below the exact values, which the
    comparisons with inf_exp / inf_ln_1p above reject; the real module's are above them."""
    copy = _copy_with(DOWNWARD, "downward")
    for x in (-13.3, 0.3, 44.0):
        assert _sign(Fraction(qe.quick_inf_exp(x)), _exp(x)) > 0
        assert _sign(Fraction(copy.quick_inf_exp(x)), _exp(x)) < 0
        assert outcome(copy.quick_inf_exp, x) != outcome(lambda v: inf_exp(v, "f64"), x)
    for x in (-0.5, -1e-3, 3.0):
        assert _sign(Fraction(qe.quick_inf_ln_1p(x)), _ln1p(x)) > 0
        assert _sign(Fraction(copy.quick_inf_ln_1p(x)), _ln1p(x)) < 0
        assert outcome(copy.quick_inf_ln_1p, x) != outcome(lambda v: inf_ln_1p(v, "f64"), x)


def test_a_flipped_check_alone_only_reaches_the_exact_functions():
    """With only the check's direction flipped, no candidate passes (the candidate is chosen
    upward), so every call goes to the exact function and the results stay right."""
    copy = flipped(MODULE, "decided", "lo, hi, d, True)", "lo, hi, d, False)")
    called = []
    copy.inf_exp = lambda x, T: called.append(x) or inf_exp(x, T)
    copy.inf_ln_1p = lambda x, T: called.append(x) or inf_ln_1p(x, T)
    for x in (-13.3, 0.3, 44.0):
        assert outcome(copy.quick_inf_exp, x) == outcome(lambda v: inf_exp(v, "f64"), x)
    for x in (-0.5, -1e-3, 3.0):
        assert outcome(copy.quick_inf_ln_1p, x) == outcome(lambda v: inf_ln_1p(v, "f64"), x)
    assert len(called) == 6


# A flip of one floor or ceiling inside a chain moves an end by a unit of 2^-110, far less
# than the slack the series' rest leaves (about 2^-82 relative for exp, 2^-92 for ln): such a
# flip leaves the enclosure valid and cannot be observed. The flips below move an end past
# the exact value at ordinary operands, and the enclosure tests catch them.
ENCLOSURE_FLIPS_EXP = [
    ("exp-bounds", "t_hi * (e_hi + EXP_REST)", "t_hi * e_hi"),  # the series' rest dropped
    ("exp-bounds", "t_lo * e_lo", "t_lo * (e_lo + EXP_REST)"),  # the rest added below
]
ENCLOSURE_FLIPS_LN = [
    ("ln-atanh", " + LN_REST", ""),  # the series' rest dropped
    ("ln-atanh", "(2 * z_lo * p_lo) >> W", "((2 * z_lo * p_lo) >> W) + LN_REST"),
]


@pytest.mark.parametrize(("label", "old", "new"), ENCLOSURE_FLIPS_EXP)
def test_a_flipped_exp_end_is_caught(label, old, new):
    copy = flipped(MODULE, label, old, new)
    rng = random.Random(9)
    points = [rng.uniform(0.0, 700.0) for _ in range(12)]
    assert all(_exp_encloses(qe, x) for x in points)
    assert not all(_exp_encloses(copy, x) for x in points)


@pytest.mark.parametrize(("label", "old", "new"), ENCLOSURE_FLIPS_LN)
def test_a_flipped_ln_end_is_caught(label, old, new):
    copy = flipped(MODULE, label, old, new)
    rng = random.Random(10)
    points = [rng.uniform(-0.9, 5.0) for _ in range(12)]
    assert all(_ln_encloses(qe, x) for x in points)
    assert not all(_ln_encloses(copy, x) for x in points)


# ------------------------------------------------------- host values that are not floats
# Referee (session 7) counterexamples, kept with their assertion: a host math.exp / math.log1p
# returning the exact rational top of the proven enclosure (a Fraction, below the answer and
# not a float) was returned as is before the `candidate-float` check.


def test_regression_quick_inf_exp_trusts_a_non_float_host_value(monkeypatch):
    x = 1.0
    want = inf_exp(x, "f64")
    n, d = x.as_integer_ratio()
    lo, hi, e = qe._exp_bounds(n, d, (n * qe.INV_LN2_64) // (d << 64))
    top = Fraction(hi) * Fraction(2) ** e  # >= exp(1), < up(exp(1)), not a binary64 value
    monkeypatch.setattr(math, "exp", lambda value: top)
    got = qe.quick_inf_exp(x)
    monkeypatch.undo()
    assert type(got) is float and struct.pack("<d", got) == struct.pack("<d", want), (
        type(got),
        got,
        want,
    )


def test_regression_quick_inf_ln_1p_trusts_a_non_float_host_value(monkeypatch):
    x = 0.5
    want = inf_ln_1p(x, "f64")
    lo, hi = qe._ln_bounds(*x.as_integer_ratio())
    top = Fraction(hi, qe.ONE)
    monkeypatch.setattr(math, "log1p", lambda value: top)
    got = qe.quick_inf_ln_1p(x)
    monkeypatch.undo()
    assert type(got) is float and struct.pack("<d", got) == struct.pack("<d", want), (
        type(got),
        got,
        want,
    )


class _SubFloat(float):
    """A float subclass: same value, another type (its operators could mean anything)."""


#: Host results of the right value (or the value above it) in another type.
WRAPPERS = [Fraction, _SubFloat, np.float64, lambda v: int(v) if v == int(v) else Fraction(v)]


def _host(monkeypatch, name, wrap, calls):
    real = getattr(math, name)
    monkeypatch.setattr(math, name, lambda v: calls.append(v) or wrap(real(v)))


@pytest.mark.parametrize("wrap", WRAPPERS)
def test_a_host_value_of_another_type_is_never_returned(monkeypatch, wrap):
    """math.exp / math.log1p answering in another type (right value or not): every result is
    exactly a float with the bits of the exact function's."""
    calls = []
    _host(monkeypatch, "exp", wrap, calls)
    _host(monkeypatch, "log1p", wrap, calls)
    exps = [-745.0, -300.1, -13.3, -1e-5, 0.0, 1e-5, 0.7, 1.0, 44.0, 708.9]
    lns = [-0.99, -0.5, -1e-6, 0.0, 1e-6, 0.5, 3.0, 1e300]
    got_exp = [qe.quick_inf_exp(x) for x in exps]
    got_ln = [qe.quick_inf_ln_1p(x) for x in lns]
    monkeypatch.undo()
    assert len(calls) == len(exps) + len(lns)  # the host was asked each time
    for x, got in zip(exps, got_exp):
        assert type(got) is float and got == inf_exp(x, "f64"), (x, type(got))
    for x, got in zip(lns, got_ln):
        assert type(got) is float and got == inf_ln_1p(x, "f64"), (x, type(got))


@pytest.mark.parametrize("wrap", [Fraction, _SubFloat, np.float64])
def test_a_next_float_of_another_type_is_never_returned(monkeypatch, wrap):
    """math.nextafter answering in another type: the float above the candidate is then never
    returned (the check in quick._checked), only the exact function's float."""
    real = math.nextafter
    calls = []
    host = types.SimpleNamespace(**{k: getattr(math, k) for k in dir(math) if k[0] != "_"})
    host.nextafter = lambda v, to: calls.append(v) or wrap(real(v, to))
    # the host rounds to nearest: a candidate below the exact value needs the float above it
    below = []
    for x in [0.1 * i for i in range(1, 60)] + [-0.3 * i for i in range(1, 60)]:
        if Fraction(math.exp(x)) < _exp_fraction(x):
            below.append(x)
    assert below
    monkeypatch.setattr(qe, "math", host)
    got = [qe.quick_inf_exp(x) for x in below]
    monkeypatch.undo()
    assert calls
    for x, value in zip(below, got):
        assert type(value) is float and value == inf_exp(x, "f64"), (x, type(value))


def _exp_fraction(x: float) -> Fraction:
    """e^x to 200 bits as a Fraction (only orders the host value against it, far from ties)."""
    with mpmath.workprec(200):
        m, e = mpmath.frexp(mpmath.exp(_mp(x)))
        return Fraction(int(m * 2**200)) * Fraction(2) ** (e - 200)

"""SMT model of the accuracy conversions: the direction of every final rounding and decision.

For each of the eight conversions and each instance ``(value, alpha)`` of a grid, the real
function is called and its result ``r`` taken as the exact rational it is. The exact quantity
the theorem bounds (a logarithm, ``s ln(2 / (alpha (1 + exp(-1/s))))``, a Gaussian or discrete
Gaussian tail) is a real variable, constrained only by an enclosure the code's own lemma
functions compute (``_ln_enclosure``, ``_discrete_laplace_accuracy``, ``_gaussian_tail``,
``_dg_sums``, proven in ``elementary.tex`` and ``accuracy.tex``), at the working precision the
code's decision reaches. The obligation is satisfiable exactly when some value in that
enclosure puts ``r`` on the wrong side: an accuracy below the exact value, or a scale whose
noise exceeds the accuracy with probability above ``alpha``. An edit that rounds a result the
other way, or returns the failing end of a search, makes it satisfiable
(``tests/prove/test_accuracy_model.py``).
"""

from __future__ import annotations

import importlib
import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["instance_obligation", "obligations", "GRID", "MODELLED", "SCOPE"]

_NAME = "accuracy"
_MODULE = "certdp.measurements._accuracy.accuracy"

#: The instances: values (scales or accuracies) and levels.
VALUES = (0.5, 1.0, 3.7, 100.0)
ALPHAS = (0.5, 0.05, 1e-6, 1e-300)
NAMES = (
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
)
#: The top of the f64 range: at scale 2^1023 and this alpha the Gaussian accuracy is exactly
#: the largest finite float (the discrete Gaussian's k is beyond it: +inf); at 2^1022 the
#: discrete Gaussian's k = a + 1 is finite and rounds up to a's successor.
TOP_ALPHA = 0.045500263896358445
TOP = [
    ("gaussian_scale_to_accuracy", 2.0**1023, TOP_ALPHA),
    ("discrete_gaussian_scale_to_accuracy", 2.0**1023, TOP_ALPHA),
    ("discrete_gaussian_scale_to_accuracy", 2.0**1022, TOP_ALPHA),
]
GRID = [(name, value, alpha) for name in NAMES for value in VALUES for alpha in ALPHAS] + TOP

#: The closed forms are enclosed at this many bits (the rounding needs far fewer).
CLOSED_FORM_BITS = 1024


def _code():
    return importlib.import_module(_MODULE)


def _real(q) -> z3.ArithRef:
    q = Fraction(q)
    return z3.RealVal(q.numerator) / z3.RealVal(q.denominator)


def _within(variable, enclosure):
    lo, hi = enclosure
    return z3.And(_real(lo) <= variable, variable <= _real(hi))


def _deciding(enclose, bound: Fraction, first: int = 64):
    """The enclosure at the first precision (``first``, doubling, as ``_at_most``) whose upper
    end is at most ``bound``, else the last one tried."""
    code = _code()
    precision, enclosure = first, None
    while precision <= code.MAX_PRECISION:
        enclosure = enclose(precision)
        if enclosure[1] <= bound:
            break
        precision *= 2
    return enclosure


def _tail_violation(code, t: Fraction, alpha: Fraction):
    """Satisfiable when the Gaussian tail at ``t`` can exceed ``alpha`` within the code's
    deciding enclosure (``t >= TAIL_CUT``: the Chernoff cut, no violation)."""
    if t >= code.TAIL_CUT:
        return z3.BoolVal(False)
    first = 64 + max(0, -code._floor_log2(alpha.numerator, alpha.denominator))
    q = z3.Real("tail")
    enclosure = _deciding(lambda p: code._gaussian_tail(t, p), alpha, first)
    return z3.And(_within(q, enclosure), q > _real(alpha))


def _dg_violation(code, sigma: Fraction, k: int, alpha: Fraction):
    """Satisfiable when ``P(|X| >= k) > alpha`` is consistent with the code's enclosures (exact
    sums up to scale 64, the bounds by the continuous Gaussian above)."""
    if sigma == 0:
        return z3.BoolVal(False)
    if k == 1 and sigma > code.EXACT_SCALE_LIMIT:
        c = z3.Real("c")
        return z3.And(
            _within(c, code._sqrt_two_over_pi(64)),
            _real(2 * sigma) > _real(alpha) * (c + _real(2 * sigma)),
        )
    if k - 1 >= code.TAIL_CUT * sigma or sigma > code.EXACT_SCALE_LIMIT:
        return _tail_violation(code, (k - 1) / sigma, alpha)
    tail, z = z3.Reals("tail z")
    precision, sums = 64, None
    while precision <= code.MAX_PRECISION:
        sums = code._dg_sums(sigma, alpha, precision)
        if code._dg_decide(sums, k, alpha) is not None:
            break
        precision *= 2
    z_lo, z_hi, tail_lo, tail_hi, _ = sums
    return z3.And(
        _within(tail, (tail_lo[k], tail_hi[k])),
        _within(z, (z_lo, z_hi)),
        tail > _real(alpha) * z,
    )


def _violation(name: str, value: float, alpha: float):
    """``(formula, result)``: the formula is satisfiable exactly when the real result is on the
    wrong side of some value the code's enclosures allow."""
    code = _code()
    result = getattr(code, name)(value, alpha)
    a, v = Fraction(alpha), Fraction(value)
    if math.isinf(result):  # an accuracy of +inf is above every real
        return z3.BoolVal(False), result
    r = Fraction(result)
    exact = z3.Real("exact")
    if name == "laplacian_scale_to_accuracy":
        enclosure = code._ln_enclosure(1 / a, CLOSED_FORM_BITS)
        return z3.And(_within(exact, enclosure), _real(r) < _real(v) * exact), result
    if name == "accuracy_to_laplacian_scale":
        # the scale r meets the accuracy iff r ln(1/alpha) <= accuracy
        enclosure = code._ln_enclosure(1 / a, CLOSED_FORM_BITS)
        return z3.And(_within(exact, enclosure), _real(r) * exact > _real(v)), result
    if name == "discrete_laplacian_scale_to_accuracy":
        if v == 0:
            return z3.BoolVal(r < 0), result
        enclosure = code._discrete_laplace_accuracy(v, a, CLOSED_FORM_BITS)
        return z3.And(_within(exact, enclosure), _real(r) < exact), result
    if name == "accuracy_to_discrete_laplacian_scale":
        if r == 0:
            return z3.BoolVal(False), result
        enclosure = _deciding(lambda p: code._discrete_laplace_accuracy(r, a, p), v)
        return z3.And(_within(exact, enclosure), exact > _real(v)), result
    if name == "gaussian_scale_to_accuracy":
        if v == 0 or a == 1:
            return z3.BoolVal(r < 0), result
        return _tail_violation(code, r / v, a), result
    if name == "accuracy_to_gaussian_scale":
        if r == 0:
            return z3.BoolVal(False), result
        return _tail_violation(code, v / r, a), result
    if name == "discrete_gaussian_scale_to_accuracy":
        if r != int(r) or r < 1:
            return z3.BoolVal(True), result
        return _dg_violation(code, v, int(r), a), result
    if name == "accuracy_to_discrete_gaussian_scale":
        if v == 0:
            return z3.BoolVal(r != 0), result
        return _dg_violation(code, r, max(math.floor(v), 1), a), result
    raise ValueError(name)


def instance_obligation(name: str, value: float, alpha: float) -> Obligation:
    """The obligation of one conversion at one instance."""

    def violation():
        formula, result = _violation(name, value, alpha)
        return [(formula, lambda model: {"function": name, "input": value, "alpha": alpha,
                                         "result": result})]  # fmt: skip

    return Obligation(
        constructor=_NAME,
        claim=f"{name}({value!r}, {alpha!r}) on the safe side",
        format="f64",
        size=0,
        violation=violation,
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    found = []
    for name, value, alpha in GRID:
        if name.startswith("accuracy_to") and alpha == 1:
            continue
        found.append(instance_obligation(name, value, alpha))
    return found


MODELLED = {_NAME: ["measurements/_accuracy/accuracy.py", "numeric/elementary.py"]}

SCOPE = {
    _NAME: Scope(
        formats=("f64",),
        bound_to_code="each of the eight conversions is called at each instance and its result "
        "taken as the exact rational it is; the enclosures come from the code's own lemma "
        "functions at the precision its decision reaches",
        abstractions=(
            "the exact value (a logarithm, the discrete Laplace accuracy, a Gaussian or discrete "
            "Gaussian tail and its normalising sum) is a real variable constrained only by the "
            "code's enclosure of it",
        ),
        free_functions=("ln", "exp", "erfc", "the discrete Gaussian sums"),
        assumed=(
            "the enclosure lemmas of numeric/elementary.tex and measurements/_accuracy/"
            "accuracy.tex (each enclosure contains the exact value)",
            "the Chernoff cut P(|Z| >= t) <= 2 exp(-t^2/2) for t >= 40",
        ),
        instances="values 0.5, 1, 3.7, 100 and alpha 0.5, 0.05, 1e-6, 1e-300 for each "
        "conversion (the searched and the closed-form ones alike), and three at the top of the "
        "range (scales 2^1023 and 2^1022, the Gaussian and discrete Gaussian accuracy)",
    )
}

"""An exact input distance in the form the target's metric takes.

certdp's metrics give exact distances: an ``int`` for dataset metrics, a ``Fraction`` for
absolute and L1 distances, a sympy number (a square root) for L2.  OpenDP's ``map`` and
``check`` accept a Python ``int`` for an integer distance type and a ``float`` (or ``int``)
for a float one; they raise on a ``Fraction`` or a sympy number.  :func:`for_target` gives
the least value of the metric's distance type that is at least the exact distance ``d``:
``ceil(d)`` for an integer type, the least ``f32``/``f64`` value ``>= d`` for a float type.

Rounding up is the direction that cannot invent a violation.  A stability map claims that
inputs at most ``d'`` apart give outputs at most ``map(d')`` apart; a pair at exact distance
``d`` is at most ``d'`` apart for every ``d' >= d``, so ``map(d')`` is a claim the target makes
about that pair, and outputs further apart than it contradict the target.  A ``d'`` below
``d`` (rounding down) would hold the pair to a claim made only about closer pairs: a
"violation" there could be false.  Rounding up can only loosen the claim (hide a violation at
``d`` itself), never report a false one.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

__all__ = ["UnrepresentableDistance", "distance_type", "for_target"]

_INTEGER_TYPES = {f"{s}{b}" for s in "iu" for b in (8, 16, 32, 64, 128)} | {"usize", "isize"}
_FLOAT_TYPES = {"f32", "f64"}
#: Dataset metrics whose printed form names no type: their distances are u32 in OpenDP.
_COUNTING = {"SymmetricDistance", "InsertDeleteDistance", "HammingDistance", "ChangeOneDistance"}


class UnrepresentableDistance(Exception):
    """The exact distance has no value in the metric's distance type at or above it."""


def distance_type(metric) -> str:
    """The metric's distance type as printed (``"u32"``, ``"f64"``, ``"(u32, f64, f64)"``),
    read from its ``distance_type`` or else its printed form; ``""`` if unknown."""
    found = getattr(metric, "distance_type", None)
    if found is not None and not callable(found):
        return str(found).strip()
    text = str(metric).strip()
    name, _, rest = text.partition("(")
    inner = rest[:-1].strip() if rest.endswith(")") else ""
    if inner in _INTEGER_TYPES or inner in _FLOAT_TYPES:
        return inner
    return "u32" if name in _COUNTING else ""


def _parts(T: str) -> list[str]:
    return [part.strip() for part in T.strip()[1:-1].split(",")]


def for_target(metric, value):
    """The least value of ``metric``'s distance type that is ``>= value`` (componentwise for a
    tuple type); raises :class:`UnrepresentableDistance` when there is none (an infinite or
    NaN distance under an integer type, a number of unknown kind).  A metric of unknown type
    gets an exact integer as an ``int`` and any other value unchanged."""
    T = distance_type(metric)
    if T.startswith("(") and isinstance(value, tuple):
        parts = _parts(T)
        if len(parts) != len(value):
            raise UnrepresentableDistance(f"{value!r} does not have the {len(parts)} parts of {T}")
        return tuple(_convert(v, part) for v, part in zip(value, parts))
    return _convert(value, T)


def _exact(value):
    """``("rational", q)``, ``("sqrt", s)`` (the value is the square root of ``s >= 0``),
    ``("inf", None)`` or ``("nan", None)``."""
    import sympy

    if isinstance(value, bool):
        raise UnrepresentableDistance(f"the bool {value!r} is no distance")
    if isinstance(value, numbers.Integral):
        return "rational", Fraction(int(value))
    if isinstance(value, Fraction):
        return "rational", value
    if isinstance(value, numbers.Real) and not isinstance(value, sympy.Basic):
        value = float(value)
        if math.isnan(value):
            return "nan", None
        if math.isinf(value):
            return ("inf", None) if value > 0 else ("-inf", None)
        return "rational", Fraction(value)
    if isinstance(value, sympy.Basic):
        if value is sympy.oo:
            return "inf", None
        if value is sympy.nan or value is sympy.zoo or value is -sympy.oo:
            return "nan", None
        if isinstance(value, sympy.Float):
            value = sympy.Rational(value)  # a binary float: its exact value
        if value.is_Rational:
            return "rational", Fraction(int(value.p), int(value.q))
        square = sympy.expand(value**2)
        if square.is_Rational and value.is_nonnegative:
            return "sqrt", Fraction(int(square.p), int(square.q))
    raise UnrepresentableDistance(f"{value!r} ({type(value).__name__}) is no exact distance")


def _ceil_sqrt(s: Fraction) -> int:
    root = math.isqrt(s.numerator // s.denominator)
    while root * root < s:
        root += 1
    return root


def _float_sqrt_up(s: Fraction, T: str) -> float:
    """The least ``T`` value ``>= sqrt(s)``: a 60-digit decimal root, rounded up to ``T`` and
    then moved to the exact answer (its square compared exactly with ``s``)."""
    from decimal import Decimal, localcontext

    from certdp.core.errors import ArithmeticOverflowError
    from certdp.numeric import inf_cast, next_down, next_up

    if s == 0:
        return 0.0
    with localcontext() as context:
        context.prec = 60
        root = (Decimal(s.numerator) / Decimal(s.denominator)).sqrt()
    try:
        guess = inf_cast(Fraction(root), T)
    except ArithmeticOverflowError:
        return math.inf
    while Fraction(guess) ** 2 < s:
        try:
            guess = next_up(guess, T)
        except ArithmeticOverflowError:
            return math.inf  # above the largest finite value
    while guess > 0 and Fraction(next_down(guess, T)) ** 2 >= s:
        guess = next_down(guess, T)
    return guess


def _convert(value, T: str):
    kind, exact = _exact(value)
    if kind == "nan" or kind == "-inf":
        raise UnrepresentableDistance(f"{value!r} is no distance")
    if T in _INTEGER_TYPES:
        if kind == "inf":
            raise UnrepresentableDistance(f"the infinite distance has no value in {T}")
        return math.ceil(exact) if kind == "rational" else _ceil_sqrt(exact)
    if T in _FLOAT_TYPES:
        if kind == "inf":
            return math.inf
        if kind == "sqrt":
            return _float_sqrt_up(exact, T)
        from certdp.core.errors import ArithmeticOverflowError
        from certdp.numeric import inf_cast

        try:
            return inf_cast(exact, T)
        except ArithmeticOverflowError:
            return math.inf  # beyond the largest finite value: the least one above is +inf
    if kind == "rational" and exact.denominator == 1:
        return int(exact)
    return value

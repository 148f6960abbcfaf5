"""A Rényi-DP curve that certdp evaluates: the sum of given curves at one order, checked.

Guarantee (renyi_curve.tex): ``RenyiCurve(curves)(alpha)`` accepts only an order ``alpha`` in
``(1, inf)`` given as an ``int`` or ``float`` (a NumPy scalar passes the boundary first; an
``int`` only when a float holds it exactly), calls every curve at ``float(alpha)``, and returns
a float at least the exact real sum of their values: the exact sum rounded up once into f64,
``+inf`` when a value is ``+inf`` or the sum passes the largest f64.  A curve that raises, or
returns anything but a non-negative ``int``, ``float`` or ``Fraction`` (NaN excluded), makes the
call raise :class:`FailedMapError`; nothing is returned then.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core.conversion import exact_scalar, is_foreign_number
from certdp.core.errors import ArithmeticOverflowError, DPError, FailedMapError, shown
from certdp.core.fpenv import require_ieee_environment
from certdp.numeric import inf_cast

__all__ = ["RenyiCurve", "compose_curves", "renyi_order"]


# proof: begin renyi-curve
def renyi_order(alpha) -> float:
    """``alpha`` as the float order a curve is evaluated at: an ``int`` or ``float`` in
    ``(1, inf)`` (an ``int`` only when a float holds it exactly); a typed error otherwise."""
    if is_foreign_number(alpha):  # label: order-foreign
        alpha = exact_scalar(alpha, "alpha", FailedMapError)
    if type(alpha) is int:
        try:
            as_float = float(alpha)  # label: order-int
        except OverflowError:
            as_float = math.inf
        if as_float != alpha:  # label: order-int-exact
            raise FailedMapError(
                f"must be an order a float holds exactly, got {shown(alpha)}", parameter="alpha"
            )
        alpha = as_float
    if type(alpha) is not float:  # label: order-type
        raise FailedMapError(
            f"must be a float (or int) order, got {type(alpha).__name__}", parameter="alpha"
        )
    if not 1.0 < alpha < math.inf:  # label: order-range
        raise FailedMapError(
            f"must be a Rényi order in (1, inf), got {shown(alpha)}", parameter="alpha"
        )
    return alpha


def _value(curve, alpha: float, part: int):
    """What ``curve`` returns at ``alpha``, as an exact non-negative number or ``+inf``; a
    typed error naming the part otherwise (an exception of the curve becomes one)."""
    try:
        value = curve(alpha)  # label: value-call
    except DPError:
        raise
    except Exception as error:  # label: value-raised
        raise FailedMapError(
            f"the curve of part {part} raised {type(error).__name__} at alpha = {alpha!r}",
            parameter="d_out",
        ) from None
    if is_foreign_number(value):  # label: value-foreign
        value = exact_scalar(value, "d_out", FailedMapError)
    kind = type(value)
    exact = kind in (int, float) or (
        kind is Fraction and type(value.numerator) is int and type(value.denominator) is int
    )
    if not exact or value != value or value < 0:  # label: value-check
        raise FailedMapError(
            f"the curve of part {part} must return a non-negative int, float or Fraction at "
            f"alpha = {alpha!r}, got {shown(value)}",
            parameter="d_out",
        )
    return value


class RenyiCurve:
    """The curve ``alpha -> sum_i curves[i](alpha)`` (each sum rounded up once into f64), read
    from a tuple of callables fixed at construction; evaluated only when called."""

    __slots__ = ("_curves",)

    def __init__(self, curves):
        self._curves = tuple(curves)  # label: curves

    def __call__(self, alpha) -> float:
        alpha = renyi_order(alpha)  # label: order
        require_ieee_environment()  # label: environment
        values = [
            _value(curve, alpha, part) for part, curve in enumerate(self._curves)
        ]  # label: values
        if any(type(value) is float and math.isinf(value) for value in values):
            return math.inf  # label: infinite
        total = sum((Fraction(value) for value in values), Fraction(0))  # label: sum
        try:
            return inf_cast(total, "f64")  # label: round-up
        except ArithmeticOverflowError:
            return math.inf  # label: overflow

    def __repr__(self) -> str:
        return f"RenyiCurve({len(self._curves)} part(s))"


def compose_curves(curves) -> RenyiCurve:
    """The :class:`RenyiCurve` adding ``curves`` (the privacy losses of measurements under
    ``RenyiDivergence`` at one ``d_in``); a typed error if one is not callable."""
    curves = tuple(curves)
    for part, curve in enumerate(curves):
        if not callable(curve):  # label: callable
            raise FailedMapError(
                f"a privacy loss under RenyiDivergence must be a curve (a callable alpha -> "
                f"epsilon); part {part} gave a {type(curve).__name__}",
                parameter="d_out",
            )
    return RenyiCurve(curves)  # label: compose-curves


# proof: end renyi-curve

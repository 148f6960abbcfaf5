"""A Rényi-DP curve that certdp evaluates: the sum of given curves at one order, checked.

Guarantee (renyi_curve.tex): ``RenyiCurve(curves)(alpha)`` accepts only an order ``alpha`` in
``(1, inf)`` given as an ``int`` or ``float`` (a NumPy scalar passes the boundary first; an
``int`` only when a float holds it exactly), calls every curve at ``float(alpha)``, and returns
a float at least the exact real sum of their values: the exact sum rounded up once into f64,
``+inf`` when a value is ``+inf`` or the sum passes the largest f64.  A curve that raises
(anything but ``KeyboardInterrupt``/``SystemExit``, which pass unchanged, and a DPError other
than FailedMapError, which passes unchanged too), or returns anything but a non-negative ``int``,
``float`` or ``Fraction`` (NaN excluded), makes the call raise :class:`FailedMapError` naming the
part (or the user's map, for a user measurement's curve); nothing is returned then.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core.conversion import exact_scalar, is_foreign_number
from certdp.core.errors import ArithmeticOverflowError, DPError, FailedMapError, shown
from certdp.core.exact_type import is_exact_fraction, type_is
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


def _call(curve, alpha: float):
    """``(True, curve(alpha))``, or ``(False, (text, parameter))`` describing what it raised; this
    frame, which holds the exception, has ended when the caller raises (so no raised error keeps
    the curve's exception as its context)."""
    try:
        return True, curve(alpha)  # label: value-call
    except (KeyboardInterrupt, SystemExit):  # label: value-interrupt
        raise
    except FailedMapError as error:  # label: value-failed-map
        return False, (f"failed: {_own_text(error)}", error.parameter)
    except DPError:  # label: value-dperror
        raise
    except BaseException as error:  # label: value-raised
        return False, (f"raised {type(error).__name__}", None)


def _own_text(error: DPError) -> str:
    """The message of ``error`` without the ``parameter: `` prefix DPError adds."""
    prefix = f"{error.parameter}: " if error.parameter else ""
    message = error.message
    return message[len(prefix) :] if message.startswith(prefix) else message


def _value(curve, alpha: float, name: str, parameter: str):
    """What ``curve`` returns at ``alpha``, as an exact non-negative number or ``+inf``; a
    typed error naming ``name`` (the part, or the user's curve) otherwise."""
    returned, value = _call(curve, alpha)
    if not returned:  # label: value-not-returned
        text, inner = value
        raise FailedMapError(f"{name} {text} at alpha = {alpha!r}", parameter=inner or parameter)
    if is_foreign_number(value):  # label: value-foreign
        value = exact_scalar(value, parameter, FailedMapError)
    exact = type_is(value, int, float) or is_exact_fraction(value)
    if not exact or value != value or value < 0:  # label: value-check
        raise FailedMapError(
            f"{name} must return a non-negative int, float or Fraction at "
            f"alpha = {alpha!r}, got {shown(value)}",
            parameter=parameter,
        )
    return value


class RenyiCurve:
    """The curve ``alpha -> sum_i curves[i](alpha)`` (each sum rounded up once into f64), read
    from a tuple of callables fixed at construction; evaluated only when called.  ``user``: the
    one curve a user's privacy map returned (its errors name ``privacy_map``, not a part);
    ``charged``: the curves of an odometer's charged queries (errors name ``query``)."""

    __slots__ = ("_curves", "_user", "_charged")

    def __init__(self, curves, user: bool = False, charged: bool = False):
        self._curves = tuple(curves)  # label: curves
        self._user = user is True
        self._charged = charged is True

    def _name(self, part: int) -> tuple[str, str]:
        if self._user:
            return "the curve the user's privacy map returned", "privacy_map"
        if self._charged:
            return f"the curve of charged query {part + 1}", "query"
        return f"the curve of part {part}", "d_out"

    def __call__(self, alpha) -> float:
        alpha = renyi_order(alpha)  # label: order
        require_ieee_environment()  # label: environment
        values = [
            _value(curve, alpha, *self._name(part)) for part, curve in enumerate(self._curves)
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

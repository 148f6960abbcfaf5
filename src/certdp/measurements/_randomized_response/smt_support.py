"""Support of the randomized-response SMT models: is a map value below ``c |ln q|``?

The logarithm is enclosed by mpmath's interval arithmetic (independent of certdp's own
``_ln_enclosure``, which the map under test uses) at a precision that doubles until the
comparison is decided, and the decided comparison is handed to z3 as exact reals.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import z3
from mpmath.libmp import to_rational

from certdp.contracts.smt_code import exact


def _log_enclosure(q: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    saved, mpmath.iv.prec = mpmath.iv.prec, precision
    try:
        interval = abs(mpmath.iv.log(mpmath.iv.mpf(q.numerator) / q.denominator))
        return tuple(Fraction(*to_rational(end)) for end in interval._mpi_)
    finally:
        mpmath.iv.prec = saved


def below_scaled_abs_log(value: float, c: int, q: Fraction) -> z3.BoolRef:
    """A z3 formula, true exactly when ``value < c |ln q|`` (``+inf`` is never below)."""
    if value == math.inf:
        return z3.BoolVal(False)
    if c == 0 or q == 1:
        return exact(value) < 0
    precision = 128
    while True:
        lo, hi = _log_enclosure(q, precision)
        # decided when value lies outside [c lo, c hi]: below c lo, or at or above c hi
        if Fraction(value) < c * lo:
            return exact(value) < c * exact(lo)
        if Fraction(value) >= c * hi:
            return exact(value) < c * exact(hi)
        precision *= 2

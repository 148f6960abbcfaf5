"""The floating-point environment every float lemma assumes, checked at run time.

Guarantee: :func:`require_ieee_environment` returns only when this thread computes in
IEEE 754 round-to-nearest-even with gradual underflow (no flush-to-zero, no
denormals-are-zero), in binary64 (Python floats) and binary32 (NumPy float32); otherwise
it raises :class:`FloatingPointEnvironmentError` naming what differs.  Every float bound in
certdp rests on that environment (definitions document, "Floating-point environment"), and
a process can leave it: an extension built with fast-math may set flush-to-zero, and
``fesetround`` changes the rounding mode.
"""

from __future__ import annotations

import numpy as np

from .errors import FloatingPointEnvironmentError

__all__ = ["ieee_environment_problems", "require_ieee_environment"]

# Operands live in a list so that the compiler cannot fold the probes into constants.
_ONE, _HALF_ULP, _THREE_QUARTER_ULP, _ONE_PLUS_ULP = [1.0, 2.0**-53, 3.0 * 2.0**-54, 1.0 + 2.0**-52]
_SMALLEST_NORMAL, _SMALLEST_SUBNORMAL, _TWO = [2.2250738585072014e-308, 5e-324, 2.0]
_F32 = [np.float32(1.1754944e-38), np.float32(1.0e-45), np.float32(2.0)]


def ieee_environment_problems() -> list[str]:
    """What differs from IEEE default arithmetic in this thread (empty when nothing does)."""
    problems = []
    if _SMALLEST_NORMAL / _TWO == 0.0 or _SMALLEST_SUBNORMAL * _TWO == 0.0:
        problems.append("binary64 subnormals are flushed to zero (FTZ/DAZ)")
    normal32, subnormal32, two32 = _F32
    with np.errstate(all="ignore"):
        if normal32 / two32 == 0 or subnormal32 * two32 == 0:
            problems.append("binary32 subnormals are flushed to zero (FTZ/DAZ)")
    up = _ONE + _HALF_ULP != _ONE  # a tie rounds to even (1.0) in round-to-nearest
    down = -_ONE - _HALF_ULP != -_ONE
    toward_zero = _ONE + _THREE_QUARTER_ULP != _ONE_PLUS_ULP
    if up or down or toward_zero:
        problems.append("the rounding mode is not round-to-nearest-even")
    return problems


def require_ieee_environment() -> None:
    """Raise :class:`FloatingPointEnvironmentError` unless the environment is IEEE default."""
    problems = ieee_environment_problems()
    if problems:
        raise FloatingPointEnvironmentError(
            "; ".join(problems) + ": certdp's float bounds assume IEEE 754 round-to-nearest "
            "with gradual underflow, so no float map or function may run",
            parameter="environment",
        )

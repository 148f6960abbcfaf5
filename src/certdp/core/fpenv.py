"""The floating-point environment every float lemma assumes, checked at run time.

Guarantee: :func:`require_ieee_environment` returns only when this thread computes in
IEEE 754 round-to-nearest-even with gradual underflow (no flush-to-zero, no
denormals-are-zero), in binary64 (Python floats) and binary32 (NumPy float32); otherwise
it raises :class:`FloatingPointEnvironmentError` naming what differs.  Every float bound in
certdp rests on that environment (definitions document, "Floating-point environment"), and
a process can leave it: an extension built with fast-math may set flush-to-zero, and
``fesetround`` changes the rounding mode.  What the probe proves: fpenv.tex (beside this file).
"""

from __future__ import annotations

import struct

import numpy as np

from .errors import FloatingPointEnvironmentError

__all__ = ["ieee_environment_problems", "require_ieee_environment"]


# proof: begin probe
def _binary64(bits: int) -> float:
    """The binary64 number whose IEEE 754 encoding is ``bits``: a copy of bytes, no arithmetic."""
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0]


def _binary32(bits: int) -> np.float32:
    """The binary32 number whose IEEE 754 encoding is ``bits``: a copy of bytes, no arithmetic."""
    return np.frombuffer(bits.to_bytes(4, "little"), dtype="<f4")[0]


# The operands are decoded from their encodings, so that no rounding (and no folding by the
# compiler) takes part in making them: 1, 2**-53, 3 * 2**-54, 1 + 2**-52, 2**-1022, 2**-1074, 2.
_ONE, _HALF_ULP, _THREE_QUARTER_ULP, _ONE_PLUS_ULP, _SMALLEST_NORMAL, _SMALLEST_SUBNORMAL, _TWO = (
    _binary64(bits)
    for bits in (
        0x3FF0000000000000,
        0x3CA0000000000000,
        0x3CA8000000000000,
        0x3FF0000000000001,
        0x0010000000000000,
        0x0000000000000001,
        0x4000000000000000,
    )
)  # label: binary64-operands
# The same in binary32: 1, 2**-24, 3 * 2**-25, 1 + 2**-23, 2**-126, 2**-149, 2.
_F32 = tuple(
    _binary32(bits)
    for bits in (
        0x3F800000,
        0x33800000,
        0x33C00000,
        0x3F800001,
        0x00800000,
        0x00000001,
        0x40000000,
    )
)  # label: binary32-operands


def _flushes(normal, subnormal, two) -> bool:
    """Does halving the smallest normal number, or doubling the smallest subnormal, give zero?"""
    return normal / two == 0 or subnormal * two == 0  # label: flush-probe


def _misrounds(one, half_ulp, three_quarter_ulp, one_plus_ulp) -> bool:
    """Does some sum round otherwise than to nearest, ties to even?"""
    up = one + half_ulp != one  # label: tie-up
    down = -one - half_ulp != -one  # label: tie-down
    toward_zero = one + three_quarter_ulp != one_plus_ulp  # label: not-tie
    return up or down or toward_zero


def ieee_environment_problems() -> list[str]:
    """What differs from IEEE default arithmetic in this thread (empty when nothing does)."""
    problems = []
    one32, half32, three_quarter32, one_plus32, normal32, subnormal32, two32 = _F32
    if _flushes(_SMALLEST_NORMAL, _SMALLEST_SUBNORMAL, _TWO):  # label: flush64
        problems.append("binary64 subnormals are flushed to zero (FTZ/DAZ)")
    with np.errstate(all="ignore"):
        flush32 = _flushes(normal32, subnormal32, two32)  # label: flush32
        misround32 = _misrounds(one32, half32, three_quarter32, one_plus32)  # label: round32
    if flush32:
        problems.append("binary32 subnormals are flushed to zero (FTZ/DAZ)")
    if _misrounds(_ONE, _HALF_ULP, _THREE_QUARTER_ULP, _ONE_PLUS_ULP) or misround32:
        problems.append("the rounding mode is not round-to-nearest-even")  # label: round64
    return problems


def require_ieee_environment() -> None:
    """Raise :class:`FloatingPointEnvironmentError` unless the environment is IEEE default."""
    problems = ieee_environment_problems()
    if problems:  # label: require
        raise FloatingPointEnvironmentError(
            "; ".join(problems) + ": certdp's float bounds assume IEEE 754 round-to-nearest "
            "with gradual underflow, so no float map or function may run",
            parameter="environment",
        )


# proof: end probe

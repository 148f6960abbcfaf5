"""One value of one carrier type as a value of another, or ``None`` where it has none.

Guarantee (convert.tex): ``convert(value, T, TOA)``, for an exact Python value of the carrier
type ``T``, returns a value of ``TOA`` (its exact Python type; NaN only for a float ``TOA``) or
``None``, raises nothing, and depends on nothing but its arguments; the table of the lemma
says which value, and it is OpenDP 0.16's: numbers to ``bool`` by ``!= 0``, floats to integers
by truncation, text parsed with Rust's grammar for ``TOA``, numbers written as Rust writes
them.  The casts (``make_cast``, ``make_cast_default``, ``make_cast_inherent``) differ only in
what they do with ``None``.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np

from certdp.core.domains import nearest_binary32

__all__ = ["convert", "record_value"]

# proof: begin convert
#: Rust's grammar of an integer (``str::parse`` of i8 ... u128): ASCII digits after an optional
#: sign; no spaces, underscores, radix prefixes or exponents.  Every pattern is compiled with
#: ``re.ASCII``, so that no class or case rule reaches beyond ASCII.
_SIGNED = re.compile(r"[+-]?[0-9]+", re.ASCII)
_UNSIGNED = re.compile(r"\+?[0-9]+", re.ASCII)
#: Rust's grammar of a float (``str::parse`` of f32 and f64): a sign, then inf, infinity or
#: nan in any ASCII case (``re.ASCII``: without it, the dotless and the dotted Turkish i would
#: match ``i``), or decimal digits with an optional point and exponent.
_FLOAT = re.compile(
    r"[+-]?(?:(?i:inf|infinity|nan)|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)",
    re.ASCII,
)
#: No integer type has more than 39 decimal digits (u128); longer digit strings are out of range.
_MOST_DIGITS = 40


def record_value(record):
    """The exact Python value (``int``, ``float``, ``bool`` or ``str``) of a record."""
    return record.item() if isinstance(record, np.generic) else record  # label: item


def convert(value, T, TOA):
    """``value`` (an exact Python value of ``T``) as a value of ``TOA``, or ``None``."""
    if TOA.name == "String":
        return _text(value, T)  # label: to-text
    if T.name == "String":
        return _parse(value, TOA)  # label: from-text
    if TOA.name == "bool":
        return bool(value != 0)  # label: to-bool
    if TOA.is_integer:
        if isinstance(value, float):
            if not math.isfinite(value):  # label: int-non-finite
                return None
            value = math.trunc(value)  # label: int-trunc
        value = int(value)  # label: int-exact
        return value if TOA.min <= value <= TOA.max else None  # label: int-range
    if isinstance(value, float):  # a float to a float type
        return value if TOA.name == "f64" else nearest_binary32(value)  # label: float-float
    value = int(value)  # label: float-from-int
    return float(value) if TOA.name == "f64" else _int_to_binary32(value)  # label: int-float


def _parse(text: str, TOA):
    """The value of ``TOA`` that Rust's ``str::parse`` reads from ``text``, or ``None``."""
    if TOA.name == "bool":
        return text != ""  # label: text-bool
    if TOA.is_integer:
        grammar = _SIGNED if TOA.is_signed else _UNSIGNED
        if grammar.fullmatch(text) is None:  # label: text-int-grammar
            return None
        digits = text.lstrip("+-").lstrip("0")
        if len(digits) > _MOST_DIGITS:  # label: text-int-long
            return None
        value = -int(digits or "0") if text[0] == "-" else int(digits or "0")  # label: text-int
        return value if TOA.min <= value <= TOA.max else None  # label: text-int-range
    if _FLOAT.fullmatch(text) is None:  # label: text-float-grammar
        return None
    wide = float(text)  # label: text-f64
    return wide if TOA.name == "f64" else _binary32_of_text(text, wide)  # label: text-float


def _binary32_of_text(text: str, wide: float) -> float:
    """The binary32 number nearest to the decimal ``text`` (ties to even, ``+-inf`` past the
    largest), given ``wide``, the binary64 number nearest to it."""
    near = nearest_binary32(wide)  # label: b32t-near
    if not math.isfinite(wide) or near == wide:
        return near  # label: b32t-same
    toward = np.float32(math.inf if wide > near else -math.inf)
    with np.errstate(over="ignore"):
        other = float(np.nextafter(np.float32(near), toward))  # label: b32t-other
    middle = (_rational32(near) + _rational32(other)) / 2  # label: b32t-middle
    if Fraction(wide) != middle:
        return near  # label: b32t-not-middle
    exact, rounded = Decimal(text), Decimal(wide)  # label: b32t-exact
    if exact == rounded or (exact > rounded) != (other > near):
        return near  # label: b32t-tie
    return other  # label: b32t-other-side


def _rational32(x: float) -> Fraction:
    """``x`` as a rational, with ``+-2**128`` standing for ``+-inf`` (the next power of two
    past the largest binary32 number, from which IEEE rounding measures overflow)."""
    return Fraction(math.copysign(2.0**128, x)) if math.isinf(x) else Fraction(x)  # label: r32


def _text(value, T) -> str:
    """``value`` written as Rust's ``to_string`` writes it."""
    if T.name == "String":
        return value  # label: text-same
    if T.name == "bool":
        return "true" if value else "false"  # label: text-of-bool
    if T.is_integer:
        return str(value)  # label: text-of-int
    if math.isnan(value):
        return "NaN"  # label: text-nan
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"  # label: text-inf
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"  # label: text-zero
    digits, exponent = _shortest(abs(value), T)  # label: text-shortest
    return ("-" if value < 0 else "") + _positional(digits, exponent)  # label: text-sign


def _shortest(value: float, T) -> tuple:
    """The digits and exponent of the decimal ``int(digits) * 10**exponent`` with the fewest
    significant digits that reads back as the positive number ``value`` of the float type
    ``T``; of two, the nearer to ``value``, the larger on a tie (as Rust writes floats)."""
    exact = Fraction(value)
    top = Decimal(value).adjusted()  # label: sh-top
    # No decimal shorter than repr's reads back as a binary64 number (CPython's repr is the
    # shortest that does); starting there only saves time.
    length = len(Decimal(repr(value)).normalize().as_tuple().digits) if T.name == "f64" else 1
    while True:  # 9 (f32) or 17 (f64) significant digits always read back
        exponent = top - length + 1
        scale = Fraction(10) ** exponent
        low = math.floor(exact / scale)  # label: sh-low
        fits = [n for n in (low, low + 1) if _reads_back(n, exponent, value, T)]
        if fits:
            best = min(fits, key=lambda n: (abs(n * scale - exact), -n))  # label: sh-best
            return tuple(int(c) for c in str(best)), exponent
        length += 1  # label: sh-longer


def _reads_back(n: int, exponent: int, value: float, T) -> bool:
    """Does the decimal ``n * 10**exponent`` read back (as Rust parses ``T``) as ``value``?"""
    text = f"{n}e{exponent}"
    wide = float(text)  # label: rb-f64
    return (wide if T.name == "f64" else _binary32_of_text(text, wide)) == value  # label: rb


def _positional(digits: tuple, exponent: int) -> str:
    """The positive decimal ``int(digits) * 10**exponent`` written without an exponent and
    without trailing zeros after the point."""
    text = "".join(map(str, digits)).rstrip("0")  # label: pos-trim
    exponent += len(digits) - len(text)
    if exponent >= 0:
        return text + "0" * exponent  # label: pos-integer
    point = len(text) + exponent
    if point > 0:
        return text[:point] + "." + text[point:]  # label: pos-point
    return "0." + "0" * -point + text  # label: pos-small


def _int_to_binary32(n: int) -> float:
    """The binary32 value nearest to the integer ``n`` (ties to even; ``+-inf`` past the
    largest), computed on integers so that nothing is rounded twice."""
    magnitude = abs(n)
    shift = max(magnitude.bit_length() - 24, 0)  # label: b32-shift
    if shift:
        quotient, remainder = divmod(magnitude, 1 << shift)
        half = 1 << (shift - 1)
        if remainder > half or (remainder == half and quotient & 1):  # label: b32-round
            quotient += 1
        magnitude = quotient << shift
    result = math.inf if magnitude >= 1 << 128 else float(magnitude)  # label: b32-overflow
    return -result if n < 0 else result  # label: b32-sign


# proof: end convert

"""The tests a conversion applies to a number an inner privacy map returned.

Guarantee (inner_values.tex, lemmas "is distance" and "is delta"): ``is_distance(value)`` is
true exactly when the class of ``value`` is ``int``, ``float`` or ``Fraction`` itself (a
``Fraction`` with ``int`` numerator and a positive ``int`` denominator) and ``value`` is
``>= 0`` as an extended real (so not NaN or ``-inf``; ``+inf`` passes);
``is_delta(value)`` exactly when, besides, ``value <= 1``.  Both compare exactly, never raise,
and call no method of a value of any other class.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.core.exact_type import type_is

__all__ = ["is_delta", "is_distance"]


# proof: begin inner-values
def _is_exact_number(value) -> bool:
    """Is the class of ``value`` ``int``, ``float`` or ``Fraction`` (with ``int`` fields,
    the denominator ``> 0``) itself?"""
    return type_is(value, int, float) or (  # label: exact-number
        type_is(value, Fraction)
        and type_is(value.numerator, int)
        and type_is(value.denominator, int)
        and value.denominator > 0
    )


def is_distance(value) -> bool:
    """Is ``value`` an exact ``int``, ``float`` or ``Fraction`` (with ``int`` fields, the
    denominator ``> 0``) that is ``>= 0`` (so not NaN; ``+inf`` passes)?"""
    return _is_exact_number(value) and value >= 0  # label: is-distance


def is_delta(value) -> bool:
    """Is ``value`` an exact ``int``, ``float`` or ``Fraction`` (with ``int`` fields, the
    denominator ``> 0``) in ``[0, 1]`` (so not NaN)?"""
    return _is_exact_number(value) and 0 <= value <= 1  # label: is-delta


# proof: end inner-values

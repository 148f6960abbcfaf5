"""The tests a conversion applies to a number an inner privacy map returned.

Guarantee (inner_values.tex, lemmas "is distance" and "is delta"): ``is_distance(value)`` is
true exactly when the class of ``value`` is ``int`` or ``float`` itself, or ``value`` passes
:func:`~certdp.core.exact_type.is_exact_fraction` (a ``Fraction`` itself with ``int``
numerator and a positive ``int`` denominator, coprime), and ``value`` is
``>= 0`` as an extended real (so not NaN or ``-inf``; ``+inf`` passes);
``is_delta(value)`` exactly when, besides, ``value <= 1``.  Both compare exactly, never raise,
and call no method of a value of any other class.  A ``Fraction`` that is not exact (NumPy
fields, unreduced, a negative denominator) fails both, so the conversions refuse it (typed,
naming ``measurement``) where composition and user measurements rebuild it as its value.
"""

from __future__ import annotations

from certdp.core.exact_type import is_exact_fraction, type_is

__all__ = ["is_delta", "is_distance"]


# proof: begin inner-values
def _is_exact_number(value) -> bool:
    """Is the class of ``value`` ``int`` or ``float`` itself, or is ``value`` a ``Fraction``
    holding what its constructor stores (:func:`is_exact_fraction`)?"""
    return type_is(value, int, float) or is_exact_fraction(value)  # label: exact-number


def is_distance(value) -> bool:
    """Is ``value`` an exact ``int``, ``float`` or ``Fraction`` (as its constructor stores
    it) that is ``>= 0`` (so not NaN; ``+inf`` passes)?"""
    return _is_exact_number(value) and value >= 0  # label: is-distance


def is_delta(value) -> bool:
    """Is ``value`` an exact ``int``, ``float`` or ``Fraction`` (as its constructor stores
    it) in ``[0, 1]`` (so not NaN)?"""
    return _is_exact_number(value) and 0 <= value <= 1  # label: is-delta


# proof: end inner-values

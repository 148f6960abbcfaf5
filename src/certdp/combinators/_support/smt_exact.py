"""Exact real arithmetic on IEEE floats inside SMT: formats wide enough that sums of a few
floats, and products of two, are computed with no rounding at all.

Guarantee: for a float sort with ``e`` exponent bits and ``p`` significand bits,
:func:`exact_sort` returns a sort in which every sum of at most ``terms`` values of the sort
(and, with ``product=True``, every product of two of them, and half of it) is a value, so that
``fpAdd``/``fpMul`` in it (under any rounding mode) equal the exact real results.  Every value of
the sort is a multiple of ``q = 2^(emin - p + 1)`` below ``2^(emax + 1)`` in magnitude; a sum of
``k`` of them is a multiple of ``q`` below ``k 2^(emax + 1)``, which needs ``emax + 1 -
log2(q) + log2(k)`` bits; a product is a multiple of ``q^2`` below ``2^(2 emax + 2)``, with at
most ``2p`` significant bits.  Two more exponent bits put ``q^2 / 2`` and ``k 2^(2 emax + 2)``
within the normal range.
"""

from __future__ import annotations

import z3

__all__ = ["exact_sort", "to_exact", "common_sort"]


def exact_sort(sort, terms: int = 2, product: bool = False):
    ebits, sbits = sort.ebits(), sort.sbits()
    bias = (1 << (ebits - 1)) - 1
    emax, emin = bias, 1 - bias
    if product:
        return z3.FPSort(ebits + 2, 2 * sbits + 1)
    span = (emax + 1) - (emin - sbits + 1) + terms.bit_length()
    return z3.FPSort(ebits + 2, span + 1)


def to_exact(value, sort):
    """``value`` (a float of a narrower sort) in the wide ``sort``: exact (no rounding)."""
    return z3.fpToFP(z3.RNE(), value, sort)


def common_sort(*sorts):
    """A sort holding every value of each of ``sorts`` exactly (the widest exponent and the
    longest significand): comparisons across formats are made there."""
    return z3.FPSort(max(s.ebits() for s in sorts), max(s.sbits() for s in sorts))

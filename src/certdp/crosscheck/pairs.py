"""Neighbouring datasets to try on the target: boundary records, reorderings and saturation.

Deterministic families first, because the pairs that break float sums are structured, not
random: runs of the two bounds in blocks (a sum saturates or rounds differently when one
record moves), the same records in another order, one record swapped for the other bound,
one record added or removed.  Random pairs come from certdp's contract strategies
(:func:`certdp.contracts.neighbours.neighbours`).  Every pair is checked to lie in the domain;
its distance is computed exactly by the caller.
"""

from __future__ import annotations

import math

import numpy as np

from certdp.core.domains import AtomDomain, VectorDomain

__all__ = [
    "extreme_values",
    "boundary_pairs",
    "array_pairs",
    "resize_pairs",
    "BLOCKS",
    "QUICK_BLOCKS",
]

#: Block lengths of the two-valued patterns ``([a] * i + [b] * j) * ...``.
BLOCKS = (1, 2, 3, 6)
QUICK_BLOCKS = (1, 2, 6)


def extreme_values(atom: AtomDomain) -> list:
    """The values where arithmetic breaks: the bounds (or the type's ends), zero, the least
    subnormal, and the non-finite values the domain admits."""
    T = atom.T
    if T.name == "bool":
        return [False, True]
    if T.name == "String":
        return ["", "a"]
    if atom.bounds is not None:
        lower, upper = atom.bounds
        values = [lower, upper, 0, -0.0 if T.is_float else 0]
    elif T.is_integer:
        values = [T.min, T.max, 0, 1]
    else:
        top = float(np.finfo(T.numpy_dtype).max)
        tiny = float(np.finfo(T.numpy_dtype).smallest_subnormal)
        values = [top, -top, 0.0, -0.0, tiny, 1.0, math.inf, -math.inf, math.nan]
    found = []
    for value in values:
        value = float(value) if T.is_float else int(value)
        if atom.member(value) and not any(_same(value, seen) for seen in found):
            found.append(value)
    return found


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    return a == b


def _patterns(a, b, n: int, blocks) -> list[list]:
    found = [[a] * n]
    for i in blocks:
        for j in blocks:
            block = [a] * i + [b] * j
            found.append((block * (n // len(block) + 1))[:n])
    return found


def _variants(x: list, a, b, sized: bool) -> list[list]:
    if not x:
        return [] if sized else [[a], [b]]
    found = [
        x[1:] + x[:1],  # the first record moved to the end: reordering, insert-delete 2
        [b if _same(x[0], a) else a] + x[1:],  # one record changed to the other value
        x[::-1],
        sorted(x, key=_order),
    ]
    if not sized:
        found += [x[1:], x + [a], x + [b], [b] + x]
    return found


def _order(value):
    if isinstance(value, float) and math.isnan(value):
        return (1, 0.0)
    return (0, value)


def _lengths(domain: VectorDomain, limit: int) -> list[int]:
    """The lengths searched: the domain's size, or (unsized) a block of 16 and one more first
    (sums split and limits cut there), then the short ones."""
    if domain.size is not None:
        return [domain.size] if domain.size <= limit else []
    return [16, 17, 2, 3, 1, 0]


def boundary_pairs(domain, limit: int, quick: bool = False):
    """Pairs of members of ``domain`` built from its extreme values: a vector domain of atoms,
    or a 2-D array domain (:func:`array_pairs`)."""
    if getattr(domain, "row_test", False) is not False:  # an array2_domain
        yield from array_pairs(domain, limit, quick)
        return
    if not isinstance(domain, VectorDomain) or not isinstance(domain.element_domain, AtomDomain):
        return
    values = extreme_values(domain.element_domain)
    sized = domain.size is not None
    couples = [(a, b) for i, a in enumerate(values) for b in values[i + 1 :]]
    if quick:
        couples = couples[:3]
    blocks = QUICK_BLOCKS if quick else BLOCKS
    for a, b in couples:  # the bounds first: each couple is tried at every length
        for n in _lengths(domain, limit):
            for x in _patterns(a, b, n, blocks) + _patterns(b, a, n, blocks):
                for x_prime in _variants(x, a, b, sized):
                    if domain.member(x) and domain.member(x_prime):
                        yield x, x_prime


def _rows(domain, width: int) -> list:
    """Rows on the boundary of the norm ball (origin +- norm along one axis), and the origin."""
    dtype = domain.dtype
    origin = (
        np.zeros(width)
        if domain.origin is None or domain.origin.ndim == 0
        else (domain.origin.astype(np.float64))
    )
    if len(origin) != width:
        return []
    norm = float(domain.norm) if domain.norm is not None else 1.0
    rows = []
    for sign in (1.0, -1.0):
        row = origin.copy()
        row[0] += sign * norm
        rows.append(row.astype(dtype))
    rows.append(origin.astype(dtype))
    return rows


def array_pairs(domain, limit: int, quick: bool = False):
    """2-D arrays whose rows sit on the boundary of the domain's norm ball, in blocks, moved,
    changed, added and removed; without ``num_columns``, arrays of different widths (their
    column sums have different lengths)."""
    widths = [domain.num_columns] if domain.num_columns is not None else [1, 2, 3]
    sized = domain.size is not None
    unsized = [1, 3] if quick else [0, 1, 3, 16]
    lengths = ([domain.size] if domain.size <= limit else []) if sized else unsized
    candidates = []
    if domain.num_columns is None:  # the same records, in arrays of two widths
        for a in widths:
            for b in widths:
                rows_a, rows_b = _rows(domain, a), _rows(domain, b)
                if a >= b or not rows_a or not rows_b:
                    continue
                for n in lengths or [1]:
                    count = max(n, 1) if not sized else n
                    candidates.append(
                        (
                            _array([rows_a[0]] * count, a, domain),
                            _array([rows_b[0]] * count, b, domain),
                        )
                    )
                if not sized:
                    candidates.append((np.zeros((0, a), dtype=domain.dtype), np.array([rows_b[0]])))
    for width in widths:
        rows = _rows(domain, width)
        if not rows:
            continue
        a, b = rows[0], rows[1]
        for n in lengths:
            for pattern in _patterns(0, 1, n, QUICK_BLOCKS):
                x = [a if i == 0 else b for i in pattern]
                variants = [x[1:] + x[:1], [b] + x[1:], x[::-1]] if x else []
                if not sized:
                    variants += [x[1:], x + [a], [b] + x]
                for x_prime in variants:
                    candidates.append((_array(x, width, domain), _array(x_prime, width, domain)))
    for x, x_prime in candidates:
        if domain.member(x) and domain.member(x_prime):
            yield x, x_prime


def _array(rows: list, width: int, domain) -> np.ndarray:
    if not rows:
        return np.zeros((0, width), dtype=domain.dtype)
    return np.array(rows, dtype=domain.dtype)


def resize_pairs(domain, size: int):
    """Datasets of distinct records around ``size`` and their one-record neighbours: the
    lengths where resize switches between padding, keeping and subsampling."""
    atom = domain.element_domain
    floats = atom.T.is_float
    for length in sorted({max(size - 1, 0), size, size + 1, size + 2}):
        x = [float(i) if floats else i for i in range(1, length + 1)]
        extra = float(length + 1) if floats else length + 1
        for x_prime in (x[:-1], x[1:], x + [extra], x[::-1]):
            if domain.member(x) and domain.member(x_prime):
                yield x, x_prime

"""z3 terms for the distances between two datasets of symbolic records: symmetric,
insert-delete, change-one and Hamming (core/metrics.py and core/change_metrics.py compute them).

Records are compared by z3 equality only, so the terms hold for any record sort; datasets have a
fixed length each. ``tests/prove/test_metric_change_models.py`` checks every term against the
metric objects on random concrete datasets.
"""

from __future__ import annotations

import z3

from certdp.core.exact_type import type_is

__all__ = ["symmetric", "insert_delete", "change_one", "hamming"]


def _count(value, records) -> z3.ArithRef:
    return z3.Sum([z3.If(value == r, 1, 0) for r in records]) if records else z3.IntVal(0)


def symmetric(a: list, b: list) -> z3.ArithRef:
    """``|a| + |b| - 2 * sum over record classes of min(count in a, count in b)``: each class
    present in ``a`` is counted at its first position in ``a``."""
    common = []
    for i, r in enumerate(a):
        first = z3.And(*[r != a[j] for j in range(i)]) if i else z3.BoolVal(True)
        in_a, in_b = _count(r, a), _count(r, b)
        common.append(z3.If(first, z3.If(in_a <= in_b, in_a, in_b), 0))
    shared = z3.Sum(common) if common else z3.IntVal(0)
    return len(a) + len(b) - 2 * shared


def insert_delete(a: list, b: list) -> z3.ArithRef:
    """``|a| + |b| - 2 * LCS(a, b)``, the LCS by the usual table."""
    previous = [z3.IntVal(0)] * (len(b) + 1)
    for r in a:
        current = [z3.IntVal(0)]
        for j, s in enumerate(b):
            keep = z3.If(previous[j + 1] >= current[j], previous[j + 1], current[j])
            current.append(z3.If(r == s, previous[j] + 1, keep))
        previous = current
    return len(a) + len(b) - 2 * previous[len(b)]


def change_one(a: list, b: list):
    """Half the symmetric distance for equal lengths; ``None`` (infinite) otherwise."""
    return None if len(a) != len(b) else symmetric(a, b) / 2


def hamming(a: list, b: list):
    """Positions whose records differ, for equal lengths; ``None`` (infinite) otherwise."""
    if len(a) != len(b):
        return None
    return z3.Sum([z3.If(x != y, 1, 0) for x, y in zip(a, b)]) if a else z3.IntVal(0)


def _term_of(metric):
    from certdp.core.change_metrics import ChangeOneDistance, HammingDistance
    from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance

    # the class of the metric by identity (never hashed into a dict: a metaclass could make
    # another class hash and compare equal to one of these)
    for kind, term in (
        (SymmetricDistance, symmetric),
        (InsertDeleteDistance, insert_delete),
        (ChangeOneDistance, change_one),
        (HammingDistance, hamming),
    ):
        if type_is(metric, kind):
            return term
    raise KeyError(type(metric))


def identity_metric_cases(built, d_in: int, lengths, probes: list):
    """Violation cases of ``built``, a transformation whose function the model takes as the
    identity, at ``d_in``: the code's function must return ``probes`` unchanged (the tie to the
    code), and for each pair of dataset lengths in ``lengths`` some records ``x, x'`` with input
    distance ``<= d_in`` (under ``built.input_metric``) must not have output distance
    ``> built.map(d_in)`` (under ``built.output_metric``).  The map value and both metrics are
    read from the real transformation."""
    stated = built.map(d_in)
    image = built(probes)
    if list(image) != list(probes) or type(image) is not type(probes):
        return [(z3.BoolVal(True), lambda m: {"probes": probes, "code": image})]
    distance_in, distance_out = _term_of(built.input_metric), _term_of(built.output_metric)
    cases = []
    for m, m_prime in lengths:
        x = [z3.BitVec(f"x{k}", 32) for k in range(m)]
        y = [z3.BitVec(f"y{k}", 32) for k in range(m_prime)]
        before = distance_in(x, y)
        if before is None:  # infinitely far: never d_in-close
            continue
        after = distance_out(x, y)
        broken = z3.BoolVal(True) if after is None else after > stated
        cases.append(
            (z3.And(before <= d_in, broken), lambda model, x=x, y=y: {"x": x, "x_prime": y})
        )
    return cases

"""SMT model of ``make_count_by`` and its bounded theorem.

Model of the function (``function`` in make_count_by.py): a key is present exactly when its count
is positive, and its value is the count saturated at the code's own ``largest_count(TV)`` (the
saturation and the output-domain check are those of the count_by_categories model, whose
``saturated`` reads the same shared ``largest_count``).  Counts are ``WIDTH``-bit bit-vectors.

Theorem, the map value being the real constructor's ``map(d_in)`` (a triple):

* ``domain`` (every ``TV``): every count ``n < 2**63`` saturates to a value of ``TV``.
* ``counts`` (every ``TV``; ``d_in`` 1, 3 and the largest the map accepts for ``i32``): for every
  two keys' counts on both sides below ``2**63`` whose total change is at most ``d_in``, the
  number of changed keys (present on one side only, or saturated values differing), the sum and
  the largest of the changes of the saturated values are at most the three components of the
  map.
* ``datasets``: for every dataset of length ``<= N = 4`` of 2-bit records (every key of the
  2-bit type considered) and every neighbour under ``<= d_in`` insertions and deletions, the
  output maps are ``map(d_in)``-close under the L0-L1-Linf distance.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import apply_script, edit_scripts
from certdp.contracts.smt_code import Scope
from certdp.core.types import NUMERIC_TYPES, carrier
from certdp.transformations.count_by_categories.smt_model import (
    WIDTH,
    _absolute,
    _in_domain,
    saturated,
)

__all__ = ["instance", "obligations", "MODELLED", "SCOPE"]

_MAX_LENGTH = (1 << 63) - 1
_SIZE = 4
_RECORD_BITS = 2


def _changes(before, after, TV, saturate):
    """The triple ``(l0, l1, linf)`` of the per-key changes between two lists of counts (a key
    being present on a side exactly when its count there is positive)."""
    zero, one = z3.BitVecVal(0, WIDTH), z3.BitVecVal(1, WIDTH)
    outputs = [[saturated(c, TV, saturate) for c in side] for side in (before, after)]
    changes = [_absolute(a, b) for a, b in zip(*outputs)]
    alone = [z3.Xor(a != zero, b != zero) for a, b in zip(before, after)]
    l0 = sum((z3.If(z3.Or(s, c != zero), one, zero) for s, c in zip(alone, changes)), zero)
    l1 = sum(changes, zero)
    linf = zero
    for c in changes:
        linf = z3.If(z3.UGT(c, linf), c, linf)
    return l0, l1, linf


def _beyond(triple, bound):
    """Some component of ``triple`` (unsigned counts) exceeds that of the map's value."""
    from fractions import Fraction
    from math import floor

    return z3.Or(
        *(
            z3.UGT(component, z3.BitVecVal(floor(Fraction(limit)), WIDTH))
            for component, limit in zip(triple, bound)
        )
    )


def _build(TV):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import symmetric_distance

    from .make_count_by import make_count_by

    return make_count_by(vector_domain(atom_domain(T="u8")), symmetric_distance(), TV=TV.name)


def instance(TV, kind, d_in=1, saturate=True):
    """One obligation (``kind``: ``domain``, ``counts`` or ``datasets``)."""
    built = _build(TV)
    bound = tuple(built.map(d_in)) if kind != "domain" else None

    def domain():
        n = z3.BitVec("n", WIDTH)
        formula = z3.And(
            z3.ULE(n, z3.BitVecVal(_MAX_LENGTH, WIDTH)), z3.Not(_in_domain(n, TV, saturate))
        )
        return [(formula, lambda m: {"n": m.eval(n, True).as_long()})]

    def counts():
        u = [z3.BitVec(f"n{i}", WIDTH) for i in range(2)]
        v = [z3.BitVec(f"m{i}", WIDTH) for i in range(2)]
        limit = z3.BitVecVal(_MAX_LENGTH, WIDTH)
        premise = z3.ULE(
            sum((_absolute(a, b) for a, b in zip(u, v)), z3.BitVecVal(0, WIDTH)),
            z3.BitVecVal(d_in, WIDTH),
        )
        formula = z3.And(
            *(z3.ULE(c, limit) for c in u + v),
            premise,
            _beyond(_changes(u, v, TV, saturate), bound),
        )

        def decode(m):
            return {
                "n": [m.eval(c, True).as_long() for c in u],
                "n_prime": [m.eval(c, True).as_long() for c in v],
                "d_in": d_in,
                "map": bound,
            }

        return [(formula, decode)]

    def datasets():
        cases = []
        one, zero = z3.BitVecVal(1, WIDTH), z3.BitVecVal(0, WIDTH)
        keys = range(1 << _RECORD_BITS)
        for length, script in edit_scripts(_SIZE, min(d_in, 2 * _SIZE), None, True):
            x = [z3.BitVec(f"x{k}", _RECORD_BITS) for k in range(length)]
            x_prime, _ = apply_script(x, script, lambda label: z3.BitVec(label, _RECORD_BITS))
            histograms = [
                [sum((z3.If(r == key, one, zero) for r in w), zero) for key in keys]
                for w in (x, x_prime)
            ]
            formula = z3.simplify(_beyond(_changes(*histograms, TV, saturate), bound))
            cases.append(
                (formula, lambda m, x=x, xp=x_prime: {"length": len(x), "length'": len(xp)})
            )
        return cases

    claims = {
        "domain": "every count <= 2^63-1 saturates to a value of TV",
        "counts": f"d_in={d_in}: two keys' counts <= 2^63-1 changed by <= d_in in total, "
        "(l0, l1, linf) of the outputs within the map",
        "datasets": f"d_in={d_in}: every dataset len<={_SIZE} and neighbour, outputs map-close",
    }
    return Obligation(
        constructor="make_count_by",
        claim=f"TV={TV.name} {claims[kind]}" + ("" if saturate else " WITHOUT saturation"),
        format=TV.name,
        size=_SIZE if kind == "datasets" else _MAX_LENGTH,
        violation={"domain": domain, "counts": counts, "datasets": datasets}[kind],
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_count_by" not in names:
        return []
    result = []
    for name in NUMERIC_TYPES:
        TV = carrier(name)
        result.append(instance(TV, "domain"))
        for d_in in (1, 3):
            result.append(instance(TV, "counts", d_in))
    result.append(instance(carrier("i32"), "counts", carrier("i32").max))
    for name in ("i32", "f64"):
        for d_in in (1, 2, 3):
            result.append(instance(carrier(name), "datasets", d_in))
    return result


MODELLED = {
    "make_count_by": [
        "transformations/count_by/make_count_by.py",
        "transformations/_counting/counts.py",
    ]
}

SCOPE = {
    "make_count_by": Scope(
        formats=(*NUMERIC_TYPES,),
        sizes=(_SIZE,),
        bound_to_code="the real make_count_by is built for each value type, its own map (a "
        "triple) is called at each d_in, and the cap is the code's largest_count",
        bit_precise=(
            "every count below 2^63 saturated into each TV (132-bit bit-vectors, f64 conversion)",
            "every two keys' counts below 2^63 changed by at most d_in in total",
            "every dataset of length <= N of 2-bit records and its neighbours, every 2-bit key",
        ),
        assumed=(
            "that d_in records change the counts by at most d_in in total (the proof's "
            "histogram step), used as the premise of the counts obligations; the datasets "
            "obligations check it at N = 4",
        ),
        instances="TV: every numeric type; d_in 1, 3 and the largest i32 (counts), 1, 2, 3 "
        "(datasets, TV i32 and f64)",
    )
}

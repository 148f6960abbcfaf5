"""SMT model of ``make_count_distinct`` and its bounded theorem.

Model of the function (``function`` in make_count_distinct.py): the number of record values
present, saturated at the code's own ``largest_count(TO)`` (the saturation and the output-domain
check of the count_by_categories model, which read the same shared ``largest_count``).

Theorem, the map value being the real constructor's ``map(d_in)``:

* ``domain`` (every ``TO``): every count ``n < 2**63`` saturates to a value of ``TO``.
* ``counts`` (every ``TO``; ``d_in`` 1, 3): for all numbers of distinct records ``n, n' < 2**63``
  with ``|n - n'| <= d_in`` (Lemma [distinct records] of the proof), the saturated outputs are
  ``map(d_in)``-close.
* ``datasets``: for every dataset of length ``<= N = 4`` of 2-bit records and every neighbour
  under ``<= d_in`` insertions and deletions, the outputs are ``map(d_in)``-close.
"""

from __future__ import annotations

from fractions import Fraction
from math import floor

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

__all__ = ["distinct", "instance", "obligations", "MODELLED", "SCOPE"]

_MAX_LENGTH = (1 << 63) - 1
_SIZE = 4
_RECORD_BITS = 2


def distinct(records):
    """The number of distinct values among symbolic records (a ``WIDTH``-bit count)."""
    one, zero = z3.BitVecVal(1, WIDTH), z3.BitVecVal(0, WIDTH)
    return sum(
        (
            z3.If(z3.Or(*(r == value for r in records)), one, zero)
            for value in range(1 << _RECORD_BITS)
        ),
        zero,
    )


def _build(TO):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import symmetric_distance

    from .make_count_distinct import make_count_distinct

    return make_count_distinct(vector_domain(atom_domain(T="u8")), symmetric_distance(), TO.name)


def instance(TO, kind, d_in=1, saturate=True):
    """One obligation (``kind``: ``domain``, ``counts`` or ``datasets``)."""
    built = _build(TO)
    bound = built.map(d_in) if kind != "domain" else None
    limit = z3.BitVecVal(floor(Fraction(bound)), WIDTH) if bound is not None else None

    def domain():
        n = z3.BitVec("n", WIDTH)
        formula = z3.And(
            z3.ULE(n, z3.BitVecVal(_MAX_LENGTH, WIDTH)), z3.Not(_in_domain(n, TO, saturate))
        )
        return [(formula, lambda m: {"n": m.eval(n, True).as_long()})]

    def counts():
        n, n_prime = z3.BitVec("n", WIDTH), z3.BitVec("n_prime", WIDTH)
        top = z3.BitVecVal(_MAX_LENGTH, WIDTH)
        outputs = saturated(n, TO, saturate), saturated(n_prime, TO, saturate)
        formula = z3.And(
            z3.ULE(n, top),
            z3.ULE(n_prime, top),
            z3.ULE(_absolute(n, n_prime), z3.BitVecVal(d_in, WIDTH)),
            z3.UGT(_absolute(*outputs), limit),
        )

        def decode(m):
            return {
                "n": m.eval(n, True).as_long(),
                "n_prime": m.eval(n_prime, True).as_long(),
                "d_in": d_in,
                "map": bound,
            }

        return [(formula, decode)]

    def datasets():
        cases = []
        for length, script in edit_scripts(_SIZE, min(d_in, 2 * _SIZE), None, True):
            x = [z3.BitVec(f"x{k}", _RECORD_BITS) for k in range(length)]
            x_prime, _ = apply_script(x, script, lambda label: z3.BitVec(label, _RECORD_BITS))
            outputs = [saturated(distinct(w), TO, saturate) for w in (x, x_prime)]
            formula = z3.simplify(z3.UGT(_absolute(*outputs), limit))
            cases.append(
                (formula, lambda m, x=x, xp=x_prime: {"length": len(x), "length'": len(xp)})
            )
        return cases

    claims = {
        "domain": "every count <= 2^63-1 saturates to a value of TO",
        "counts": f"d_in={d_in}: distinct counts <= 2^63-1 within d_in, outputs map-close",
        "datasets": f"d_in={d_in}: every dataset len<={_SIZE} and neighbour, outputs map-close",
    }
    return Obligation(
        constructor="make_count_distinct",
        claim=f"TO={TO.name} {claims[kind]}" + ("" if saturate else " WITHOUT saturation"),
        format=TO.name,
        size=_SIZE if kind == "datasets" else _MAX_LENGTH,
        violation={"domain": domain, "counts": counts, "datasets": datasets}[kind],
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_count_distinct" not in names:
        return []
    result = []
    for name in NUMERIC_TYPES:
        TO = carrier(name)
        result.append(instance(TO, "domain"))
        for d_in in (1, 3):
            result.append(instance(TO, "counts", d_in))
    for name in ("i32", "f32"):
        for d_in in (1, 2, 3):
            result.append(instance(carrier(name), "datasets", d_in))
    return result


MODELLED = {
    "make_count_distinct": [
        "transformations/count_distinct/make_count_distinct.py",
        "transformations/_counting/counts.py",
    ]
}

SCOPE = {
    "make_count_distinct": Scope(
        formats=(*NUMERIC_TYPES,),
        sizes=(_SIZE,),
        bound_to_code="the real make_count_distinct is built for each output type, its own map "
        "is called at each d_in, and the cap is the code's largest_count",
        bit_precise=(
            "every count below 2^63 saturated into each TO (132-bit bit-vectors, f64 conversion)",
            "every pair of distinct counts below 2^63 within d_in",
            "every dataset of length <= N of 2-bit records and its neighbours",
        ),
        assumed=(
            "Lemma [distinct records] of the proof, used as the premise of the counts "
            "obligations; the datasets obligations check it at N = 4",
        ),
        instances="TO: every numeric type; d_in 1, 3 (counts), 1, 2, 3 (datasets, TO i32 and f32)",
    )
}

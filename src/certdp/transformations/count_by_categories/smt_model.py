"""SMT model of ``make_count_by_categories`` and its bounded theorem.

Model of the function (``function`` in make_count_by_categories.py): the count vector of a
dataset (one coordinate per category, then the null category when the flag is set) is saturated
coordinate by coordinate, ``m = min(n, cap)`` with ``cap`` the code's own ``largest_count(TOA)``,
and converted to ``TOA`` (``int``, or ``float``: an f64 rounded to nearest).  Counts are
bit-vectors of ``WIDTH`` bits (every Python length is below ``2**63``).
``tests/prove/test_count_by_categories_model.py`` checks the model against the code, on concrete
datasets and on count vectors up to ``2**63 - 1``.

Theorem, the map value being the real constructor's ``map(d_in)``:

* ``domain`` (every ``TOA``): for every count ``n < 2**63``, the saturated count is a value of
  ``TOA`` (in its range; for a float ``TOA``, its conversion is exact and a value of ``TOA``).
* ``counts`` (every ``TOA``; L1 and L2 of several types ``Q``; ``d_in`` 1, 2, 3 and, for L1, the
  largest ``d_in`` the map accepts): for every pair of count vectors of two coordinates below
  ``2**63`` whose L1 distance is at most ``d_in`` (Lemma [count vectors] of the proof), the
  saturated vectors are ``map(d_in)``-close in L1 (resp. L2, compared as sums of squares with
  the exact ``floor(map(d_in)**2)``).  This covers the saturation point of every type.
* ``datasets`` (L1 and L2, with and without the null category, categories ``[0, 1]`` over
  records of 2 bits): for every dataset of length ``<= N = 4`` and every neighbour under
  ``<= d_in`` insertions and deletions (:func:`certdp.contracts.smt.edit_scripts`; a count
  vector ignores the order), the saturated count vectors are ``map(d_in)``-close.
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import apply_script, edit_scripts
from certdp.contracts.smt_code import Scope
from certdp.core.types import NUMERIC_TYPES, carrier

__all__ = ["WIDTH", "saturated", "count_vector", "instance", "obligations", "MODELLED", "SCOPE"]

#: Width of counts: every Python length and u128's maximum fit, with room for sums.
WIDTH = 132
_MAX_LENGTH = (1 << 63) - 1
_SIZE = 4
_RECORD_BITS = 2
_CATEGORIES = [0, 1]
_F64 = z3.Float64()
_METRICS = [("L1", "i32"), ("L1", "f32"), ("L2", "f64"), ("L2", "u8")]


def saturated(n, TOA, saturate: bool = True):
    """``min(n, cap)`` (``n`` a ``WIDTH``-bit count); ``saturate=False`` leaves the cap out (a
    deliberately wrong model for the tests)."""
    from certdp.transformations._counting import largest_count

    cap = z3.BitVecVal(largest_count(TOA), WIDTH)
    return z3.If(z3.ULT(n, cap), n, cap) if saturate else n


def converted(m, TOA):
    """The value the code returns for a saturated count ``m``: ``m`` itself for an integer
    ``TOA``, its f64 (rounded to nearest) for a float ``TOA``."""
    if TOA.is_integer:
        return m
    return z3.fpToFPUnsigned(z3.RNE(), m, _F64)


def count_vector(records, categories, null_category: bool):
    """The count vector of a dataset of symbolic records (``WIDTH``-bit counts)."""
    one, zero = z3.BitVecVal(1, WIDTH), z3.BitVecVal(0, WIDTH)
    counts = [
        sum((z3.If(r == category, one, zero) for r in records), zero) for category in categories
    ]
    if null_category:
        counts.append(z3.BitVecVal(len(records), WIDTH) - sum(counts, zero))
    return counts


def _in_domain(n, TOA, saturate):
    m = saturated(n, TOA, saturate)
    if TOA.is_integer:
        return z3.ULE(m, z3.BitVecVal(TOA.max, WIDTH))
    value = converted(m, TOA)
    exact = z3.fpToFPUnsigned(z3.RTP(), m, _F64) == z3.fpToFPUnsigned(z3.RTN(), m, _F64)
    if TOA.name == "f64":
        return exact
    narrowed = z3.fpToFP(z3.RNE(), value, z3.Float32())
    return z3.And(exact, z3.fpToFP(z3.RNE(), narrowed, _F64) == value)


def _absolute(a, b):
    return z3.If(z3.UGE(a, b), a - b, b - a)


def _far(u, v, norm: str, bound):
    """``||u - v||_norm > bound`` for vectors of unsigned ``WIDTH``-bit counts, exactly."""
    differences = [_absolute(a, b) for a, b in zip(u, v)]
    if norm == "L1":
        limit = z3.BitVecVal(math.floor(Fraction(bound)), WIDTH)
        total = sum(differences, z3.BitVecVal(0, WIDTH))  # no wrap: terms below 2**130
        return z3.UGT(total, limit)
    # L2: a coordinate above the bound is already too far; otherwise each difference fits in
    # ``bits`` bits and the sum of squares is computed without wrapping.
    largest = math.floor(Fraction(bound))
    squared_limit = math.floor(Fraction(bound) ** 2)
    bits = max(largest.bit_length(), 1)
    wide = 2 * bits + len(differences).bit_length() + 1
    beyond = z3.Or(*(z3.UGT(d, z3.BitVecVal(largest, WIDTH)) for d in differences))
    small = [z3.ZeroExt(wide - bits, z3.Extract(bits - 1, 0, d)) for d in differences]
    squares = sum((d * d for d in small), z3.BitVecVal(0, wide))
    return z3.Or(beyond, z3.UGT(squares, z3.BitVecVal(squared_limit, wide)))


def _build(TOA, norm, Q, null_category=True, categories=_CATEGORIES):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import symmetric_distance

    from .make_count_by_categories import make_count_by_categories

    return make_count_by_categories(
        vector_domain(atom_domain(T="i32")),
        symmetric_distance(),
        categories,
        null_category=null_category,
        MO=f"{norm}Distance<{Q}>",
        TOA=TOA.name,
    )


def _largest_d_in(Q) -> int:
    return carrier(Q).max if carrier(Q).is_integer else (1 << 64) - 1


def instance(TOA, kind, norm="L1", Q="i32", d_in=1, null_category=True, saturate=True):
    """One obligation (``kind``: ``domain``, ``counts`` or ``datasets``); ``saturate=False``
    makes it deliberately wrong (for the tests)."""
    built = _build(TOA, norm, Q, null_category)
    bound = built.map(d_in) if kind != "domain" else None

    def domain():
        n = z3.BitVec("n", WIDTH)
        formula = z3.And(
            z3.ULE(n, z3.BitVecVal(_MAX_LENGTH, WIDTH)), z3.Not(_in_domain(n, TOA, saturate))
        )
        return [(formula, lambda m: {"n": m.eval(n, True).as_long()})]

    def counts():
        u = [z3.BitVec(f"n{i}", WIDTH) for i in range(2)]
        v = [z3.BitVec(f"m{i}", WIDTH) for i in range(2)]
        limit = z3.BitVecVal(_MAX_LENGTH, WIDTH)
        inside = [z3.ULE(c, limit) for c in u + v]
        premise = z3.ULE(
            sum((_absolute(a, b) for a, b in zip(u, v)), z3.BitVecVal(0, WIDTH)),
            z3.BitVecVal(d_in, WIDTH),
        )
        outputs = [[saturated(c, TOA, saturate) for c in w] for w in (u, v)]
        formula = z3.And(*inside, premise, _far(*outputs, norm, bound))

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
        for length, script in edit_scripts(_SIZE, min(d_in, 2 * _SIZE), None, True):
            x = [z3.BitVec(f"x{k}", _RECORD_BITS) for k in range(length)]
            x_prime, _ = apply_script(x, script, lambda label: z3.BitVec(label, _RECORD_BITS))
            outputs = [
                [saturated(c, TOA, saturate) for c in count_vector(w, _CATEGORIES, null_category)]
                for w in (x, x_prime)
            ]
            formula = z3.simplify(_far(*outputs, norm, bound))
            cases.append(
                (formula, lambda m, x=x, xp=x_prime: {"length": len(x), "length'": len(xp)})
            )
        return cases

    claims = {
        "domain": "every count <= 2^63-1 saturates to a value of TOA",
        "counts": f"{norm}<{Q}> d_in={d_in}: count vectors <= 2^63-1 within L1 d_in, "
        "saturated outputs map-close",
        "datasets": f"{norm}<{Q}> null={null_category} d_in={d_in}: every dataset len<={_SIZE} "
        "and neighbour, outputs map-close",
    }
    return Obligation(
        constructor="make_count_by_categories",
        claim=f"TOA={TOA.name} {claims[kind]}" + ("" if saturate else " WITHOUT saturation"),
        format=TOA.name,
        size=_SIZE if kind == "datasets" else _MAX_LENGTH,
        violation={"domain": domain, "counts": counts, "datasets": datasets}[kind],
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_count_by_categories" not in names:
        return []
    result = []
    for name in NUMERIC_TYPES:
        TOA = carrier(name)
        result.append(instance(TOA, "domain"))
        for norm, Q in _METRICS:
            for d_in in (1, 3):
                result.append(instance(TOA, "counts", norm, Q, d_in))
        result.append(instance(TOA, "counts", "L1", "i32", _largest_d_in("i32")))
    TOA = carrier("i32")
    for norm, Q in (("L1", "i32"), ("L2", "f64")):
        for null_category in (True, False):
            for d_in in (1, 2, 3):
                result.append(instance(TOA, "datasets", norm, Q, d_in, null_category))
    return result


MODELLED = {
    "make_count_by_categories": ["transformations/count_by_categories/make_count_by_categories.py"]
}

SCOPE = {
    "make_count_by_categories": Scope(
        formats=(*NUMERIC_TYPES,),
        sizes=(_SIZE,),
        bound_to_code="the real make_count_by_categories is built for each output type and "
        "output metric, its own map is called at each d_in, and the cap is the code's "
        "largest_count",
        bit_precise=(
            "every count below 2^63 saturated into each TOA (132-bit bit-vectors, f64 conversion)",
            "every pair of two-coordinate count vectors below 2^63 within L1 d_in",
            "every dataset of length <= N of 2-bit records and its neighbours (categories "
            "[0, 1], with and without the null category)",
        ),
        assumed=(
            "Lemma [count vectors] of the proof (d_in records move the count vector by at most "
            "d_in in L1), used as the premise of the counts obligations; the datasets "
            "obligations check it at N = 4",
        ),
        instances="TOA: every numeric type; MO: L1<i32>, L1<f32>, L2<f64>, L2<u8>; d_in 1, 3 "
        "and the largest i32",
    )
}

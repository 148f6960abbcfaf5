"""SMT model of ``make_quantile_score_candidates`` and its bounded theorem.

Model of the function (``function`` in make_quantile_score_candidates.py): for one candidate,
``s = |(den - num) * min(lt, L) - num * min(gt, L)|``, with ``num, den, L`` the code's own
``score_constants``; in the ``counts`` obligations on mathematical integers (the code's scores
are Python integers: linear integer arithmetic, the weights being constants), in the
``datasets`` obligations on ``WIDTH``-bit bit-vectors (no wrap: every term is below ``2**66``)
with the counts ``lt``, ``gt`` of a symbolic dataset as sums of ``If(x < c, 1, 0)`` and
``If(x > c, 1, 0)``.  ``tests/prove/test_quantile_score_candidates_model.py`` checks the model
against the code on concrete data.

Theorem, the map value being the real constructor's ``map(d_in)``:

* ``counts`` (alphas and sizes below; ``d_in`` 1, 2, 3 without a size, 2, 3, 4 with one; one
  case per move of the counts): for all integer counts in ``[0, 2**64 - 1]`` (before and after
  the move)
  ``2**64`` (with ``lt + gt <= n`` when the size ``n`` is known) that the proof's neighbour lemma
  allows (unknown size: ``|lt - lt'| + |gt - gt'| <= d_in``; known size: each count moves by at
  most ``d_in // 2``), every score is at most ``2**64 - 1`` (the output domain) and the two
  scores differ by at most ``map(d_in)``.
* ``datasets`` (candidates ``[1, 2]``, records of 2 bits, datasets of length ``<= N = 4``, the
  symmetric and insert-delete distances, unknown size and size 3): for every dataset and every
  neighbour within ``d_in`` edits, the two score vectors are ``map(d_in)``-close in L-infinity.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import apply_script, edit_scripts
from certdp.contracts.smt_code import Scope

__all__ = ["WIDTH", "score", "instance", "obligations", "MODELLED", "SCOPE"]

WIDTH = 72
_U64_MAX = 2**64 - 1
_SIZE = 4
_RECORD_BITS = 2
_CANDIDATES = [1, 2]
ALPHAS = [0.5, 0.3, 1 - 2**-53, 5e-324, 0.99999, 1 / 3]
SIZES = [None, 1, 3, 10**6, 2**40, _U64_MAX]
#: the counts obligations' distances (unknown size; known size, odd ones included)
UNSIZED_D_INS = [1, 2, 3]
SIZED_D_INS = [2, 3, 4]


def _bv(value: int):
    return z3.BitVecVal(value, WIDTH)


def _value(value: int, like):
    """``value`` in the sort of ``like``: a mathematical integer or a ``WIDTH``-bit vector."""
    return _bv(value) if z3.is_bv(like) else z3.IntVal(value)


def _le(a, b):
    return z3.ULE(a, b) if z3.is_bv(a) else a <= b


def _min(a, b):
    return z3.If(_le(a, b), a, b)


def _absolute(a, b):
    return z3.If(_le(b, a), a - b, b - a)


def score(lt, gt, num: int, den: int, limit: int, weights=None):
    """The code's score of one candidate from its counts (mathematical integers, or
    ``WIDTH``-bit vectors); ``weights`` replaces ``(den - num, num)`` (a deliberately wrong
    model for the tests)."""
    w_lt, w_gt = weights if weights is not None else (den - num, num)
    cap = _value(limit, lt)
    return _absolute(_value(w_lt, lt) * _min(lt, cap), _value(w_gt, lt) * _min(gt, cap))


def _counts(records, c: int):
    """``(#(x < c), #(x > c))`` of symbolic 2-bit records, as ``WIDTH``-bit counts."""
    value = z3.BitVecVal(c, _RECORD_BITS)
    below = sum((z3.If(z3.ULT(r, value), _bv(1), _bv(0)) for r in records), _bv(0))
    above = sum((z3.If(z3.UGT(r, value), _bv(1), _bv(0)) for r in records), _bv(0))
    return below, above


def _build(size, alpha, metric: str):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_quantile_score_candidates import make_quantile_score_candidates

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    return make_quantile_score_candidates(
        vector_domain(atom_domain(T="u8"), size=size), space_metric, _CANDIDATES, alpha
    )


def _constants(size, alpha):
    from .make_quantile_score_candidates import score_constants

    return score_constants(size, alpha)


def instance(kind: str, size, alpha: float, d_in: int, metric: str = "symmetric"):
    """One obligation (``kind``: ``counts`` or ``datasets``)."""
    built = _build(size, alpha, metric)
    num, den, limit = _constants(size, alpha)
    try:
        bound = built.map(d_in)
    except Exception:  # the map refuses (overflow): nothing to prove at this d_in
        bound = None

    def counts():
        # the neighbour lemma's moves, one case each: (lt2 - lt, gt2 - gt) with
        # |a| + |b| <= d_in (unknown size) or |a|, |b| <= d_in // 2 (known size)
        reach = d_in if size is None else d_in // 2
        moves = [
            (a, b)
            for a in range(-reach, reach + 1)
            for b in range(-reach, reach + 1)
            if size is not None or abs(a) + abs(b) <= d_in
        ]
        cases = []
        for a, b in moves:
            # exact integers (the code's scores are Python integers): linear arithmetic
            lt, gt = z3.Int("lt"), z3.Int("gt")
            lt2, gt2 = lt + a, gt + b
            # the counts before and after the move are counts: in [0, 2**64 - 1]
            inside = [z3.And(0 <= c, c <= _U64_MAX) for c in (lt, gt, lt2, gt2)]
            if size is not None:
                inside += [lt + gt <= size, lt2 + gt2 <= size]
            s, s2 = score(lt, gt, num, den, limit), score(lt2, gt2, num, den, limit)
            bad = z3.Or(s > _U64_MAX, s2 > _U64_MAX)
            if bound is not None:
                bad = z3.Or(bad, _absolute(s, s2) > bound)

            def decode(m, lt=lt, gt=gt, a=a, b=b):
                values = {"lt": m.eval(lt, True).as_long(), "gt": m.eval(gt, True).as_long()}
                return {**values, "move": (a, b), "d_in": d_in, "map": bound}

            cases.append((z3.And(*inside, bad), decode))
        return cases

    def datasets():
        cases = []
        for length, script in edit_scripts(_SIZE, d_in, size, True):
            x = [z3.BitVec(f"x{k}", _RECORD_BITS) for k in range(length)]
            x2, _ = apply_script(x, script, lambda label: z3.BitVec(label, _RECORD_BITS))
            far = []
            for c in _CANDIDATES:
                s, s2 = (score(*_counts(w, c), num, den, limit) for w in (x, x2))
                far.append(z3.UGT(_absolute(s, s2), _bv(bound)))
            formula = z3.Or(*far)

            def decode(m, x=x, x2=x2):
                return {
                    "x": [m.eval(r, True).as_long() for r in x],
                    "x_prime": [m.eval(r, True).as_long() for r in x2],
                    "d_in": d_in,
                    "map": bound,
                }

            cases.append((formula, decode))
        return cases

    where = "unknown size" if size is None else f"size {size}"
    claims = {
        "counts": f"counts < 2^64, {where}, alpha={alpha!r}, d_in={d_in}: scores are u64 and "
        "map-close",
        "datasets": f"{metric} {where}, alpha={alpha!r}, d_in={d_in}: every dataset "
        f"len<={_SIZE} and neighbour, score vectors map-close",
    }
    return Obligation(
        constructor="make_quantile_score_candidates",
        claim=claims[kind],
        format="u64",
        size=_SIZE if kind == "datasets" else _U64_MAX,
        violation={"counts": counts, "datasets": datasets}[kind],
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_quantile_score_candidates" not in names:
        return []
    result = []
    for alpha in ALPHAS:
        for d_in in UNSIZED_D_INS:
            result.append(instance("counts", None, alpha, d_in))
        for size in SIZES[1:]:
            for d_in in SIZED_D_INS:
                result.append(instance("counts", size, alpha, d_in))
    for alpha in (0.5, 0.3, 1 - 2**-53):
        for metric in ("symmetric", "insert_delete"):
            for d_in in (1, 2, 3):
                result.append(instance("datasets", None, alpha, d_in, metric))
            result.append(instance("datasets", 3, alpha, 2, metric))
    return result


MODELLED = {
    "make_quantile_score_candidates": [
        "transformations/quantile_score_candidates/make_quantile_score_candidates.py"
    ]
}

SCOPE = {
    "make_quantile_score_candidates": Scope(
        formats=(
            "u64 scores (exact integers; 72-bit bit-vectors on datasets)",
            "u8 records (2 bits)",
        ),
        sizes=(_SIZE,),
        bound_to_code="the real make_quantile_score_candidates is built at each alpha, size and "
        "metric, its own map is called at each d_in, and num, den and the size limit are the "
        "code's score_constants",
        bit_precise=(
            "every score of counts in [0, 2^64 - 1] (exact integers, as the code's Python "
            "integers) is a u64 value and moves by at most the map",
            "every dataset of length <= N of 2-bit records and its neighbours within d_in edits "
            "(candidates [1, 2], unknown size and size 3)",
        ),
        assumed=(
            "the neighbour lemma of the proof (d_in additions or removals move lt and gt by at "
            "most d_in in total; with a known size, each by at most d_in // 2), used as the "
            "premise of the counts obligations; the datasets obligations check it at N = 4",
        ),
        instances="counts: alpha 0.5, 0.3, 1 - 2^-53, 5e-324, 0.99999, 1/3; unknown size at d_in 1, 2, 3, "
        "sizes 1, 3, 10^6, 2^40, 2^64-1 at d_in 2, 3, 4; datasets: alpha 0.5, 0.3, 1 - 2^-53, d_in 1, "
        "2, 3 (size 3: d_in 2)",
    )
}

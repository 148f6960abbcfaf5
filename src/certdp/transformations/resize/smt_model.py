"""SMT model of ``make_resize`` and its bounded theorem.

Model of the function (``resized`` in make_resize.py): a dataset of ``m`` records becomes
``records + [constant] * (size - m)`` when ``m <= size`` (then permuted if ``shuffle_padded``),
else its first ``size`` records after a permutation if ``shuffle_truncated``.  Where the code
calls ``shuffled``, the model applies a permutation it is given (:func:`resize_model`), so that an
obligation can range over every outcome of the shuffle.  Records are ``RECORD_BITS``-bit
bit-vectors: at most five distinct values meet in one obligation (four records and the
constant), so every pattern of equalities between them occurs.  ``tests/prove/
test_resize_model.py`` checks the model against the code bit for bit on random data, with the
shuffles replaced by the same fixed permutations in both.

Theorem (make_resize.tex): ``d_in -> 2 * d_in`` (checked in u32) is a coupled stability map
between the symmetric and insert-delete distances in all four combinations.  The distances are
path metrics and the map is linear, so by the gluing lemma of the proof one insertion or
deletion (``d_in = 1``, the code's ``map(1) = 2``) suffices, plus one rearrangement step (at
distance 0 by the shuffle's invariance, fact F1 of the proof) when the input is symmetric.
Obligations, for every size ``1..4`` and every input/output metric:

* ``no-shuffle`` (input insert-delete): for every ``y'`` of length ``1..4``, every position
  ``j`` and every constant, ``y = y'`` without record ``j`` gives ``resized(y)``,
  ``resized(y')`` within ``map(1)`` in the output metric (deterministic outputs).
* ``coupled`` (input symmetric): the proof's couplings, for every outcome of the shuffles.
  Truncation (``|y'| > size``): ``w'`` stands for the shuffled ``y'`` (any sequence) and ``w'``
  without the added record, at any position ``J``, for the shuffled ``y`` (fact F2); padding
  with a shuffle: both padded sequences permuted by the same ``sigma`` after moving the added
  record to the end (``sigma . rho`` is uniform when ``sigma`` is; every ``sigma`` enumerated).
* ``coupling-bijection``: fact F2 itself for ``m <= 4``, by enumeration (not SMT): removing the
  added record's position from an ordering of ``m + 1`` positions, and remembering where it
  was, is a bijection onto (orderings of ``m`` positions) x ``{0..m}``.
* ``map``: for every u32 ``d_in``, ``checked_mul(2, d_in, "u32")`` (modelled as a 64-bit
  product checked against ``2**32 - 1``) raises or returns exactly ``2 * d_in``.

Distances are exact: the symmetric distance is the histogram difference over all
``2**RECORD_BITS`` values; for equal-length outputs the insert-delete distance is at most
``2k`` exactly when deleting ``k`` records from each makes them equal.
"""

from __future__ import annotations

from itertools import combinations, permutations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = [
    "RECORD_BITS",
    "MAX_LENGTH",
    "resize_model",
    "map_model",
    "distance_within",
    "resize_instance",
    "map_instance",
    "bijection_instance",
    "obligations",
    "MODELLED",
]

RECORD_BITS = 3
MAX_LENGTH = 4
_SIZES = (1, 2, 3, 4)
_METRICS = ("symmetric", "insert_delete")
_COUNT_BITS = 8


def _identity(records: list) -> list:
    return list(records)


def resize_model(records, size, constant, shuffle_padded, shuffle_truncated, shuffle=_identity):
    """``resized`` with ``shuffle`` (a function of a list) where the code calls ``shuffled``."""
    records = list(records)
    if len(records) <= size:
        padded = records + [constant] * (size - len(records))
        return shuffle(padded) if shuffle_padded else padded
    if shuffle_truncated:
        records = shuffle(records)
    return records[:size]


def map_model(d_in):
    """``checked_mul(2, d_in, "u32")`` for a 32-bit ``d_in``: ``(raises, value)`` with the
    exact product in 64 bits and ``value`` its low 32 bits."""
    product = z3.BitVecVal(2, 64) * z3.ZeroExt(32, d_in)
    return z3.UGT(product, z3.BitVecVal((1 << 32) - 1, 64)), z3.Extract(31, 0, product)


def _histogram_distance(a, b):
    zero, one = z3.BitVecVal(0, _COUNT_BITS), z3.BitVecVal(1, _COUNT_BITS)
    total = zero
    for value in range(1 << RECORD_BITS):
        v = z3.BitVecVal(value, RECORD_BITS)
        ca = sum((z3.If(r == v, one, zero) for r in a), zero)
        cb = sum((z3.If(r == v, one, zero) for r in b), zero)
        total = total + z3.If(z3.UGE(ca, cb), ca - cb, cb - ca)
    return total


def distance_within(a: list, b: list, bound: int, metric: str):
    """``metric(a, b) <= bound`` for two record sequences of one length."""
    assert len(a) == len(b)
    if metric == "symmetric":
        if bound >= 2 * len(a):
            return z3.BoolVal(True)
        return z3.ULE(_histogram_distance(a, b), z3.BitVecVal(bound, _COUNT_BITS))
    k = bound // 2  # equal lengths: the insert-delete distance is even
    if k >= len(a):
        return z3.BoolVal(True)
    options = []
    for drop_a in combinations(range(len(a)), k):
        kept_a = [r for i, r in enumerate(a) if i not in drop_a]
        for drop_b in combinations(range(len(b)), k):
            kept_b = [r for i, r in enumerate(b) if i not in drop_b]
            options.append(z3.And(*[p == q for p, q in zip(kept_a, kept_b)]))
    return z3.Or(*options)


def _apply(order, records):
    return [records[i] for i in order]


def _moved_to_end(records, j):
    return records[:j] + records[j + 1 :] + [records[j]]


def _built(input_metric, output_metric, size):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_resize import make_resize

    metrics = {"symmetric": symmetric_distance, "insert_delete": insert_delete_distance}
    MO = "SymmetricDistance" if output_metric == "symmetric" else "InsertDeleteDistance"
    return make_resize(vector_domain(atom_domain(T="i32")), metrics[input_metric](), size, 0, MO=MO)


def resize_instance(input_metric: str, output_metric: str, size: int, stability_map=None):
    """One obligation: ``d_in = 1`` at ``size``, every ``y'`` of length ``<= MAX_LENGTH``;
    ``stability_map`` replaces the code's map (a deliberately wrong one, for the tests)."""
    built = _built(input_metric, output_metric, size)
    bound = built.map(1) if stability_map is None else stability_map(1)
    shuffle_padded = output_metric == "insert_delete" and input_metric == "symmetric"
    shuffle_truncated = input_metric == "symmetric"

    def violation():
        cases = []
        c = z3.BitVec("c", RECORD_BITS)
        for length in range(1, MAX_LENGTH + 1):
            y_prime = [z3.BitVec(f"y{k}", RECORD_BITS) for k in range(length)]
            for j in range(length):
                y = y_prime[:j] + y_prime[j + 1 :]
                if shuffle_padded and length <= size:
                    # both padded, then shuffled: sigma on y's padding, sigma . rho on y''s
                    bad = []
                    for order in permutations(range(size)):
                        out = resize_model(y, size, c, True, True, lambda r, o=order: _apply(o, r))
                        out_prime = resize_model(
                            y_prime, size, c, True, True,
                            lambda r, o=order, j=j: _apply(o, _moved_to_end(r, j)),
                        )  # fmt: skip
                        bad.append(z3.Not(distance_within(out, out_prime, bound, output_metric)))
                    formula = z3.Or(*bad)
                else:
                    # no shuffle, or y' already shuffled (any order) and y = it without the
                    # added record at J = j (fact F2): the identity stands for the shuffles
                    out = resize_model(y, size, c, shuffle_padded, shuffle_truncated)
                    out_prime = resize_model(y_prime, size, c, shuffle_padded, shuffle_truncated)
                    formula = z3.Not(distance_within(out, out_prime, bound, output_metric))

                def decode(m, y=y, y_prime=y_prime, j=j):
                    def value(v):
                        return m.eval(v, True).as_long()

                    return {
                        "y": [value(v) for v in y],
                        "y_prime": [value(v) for v in y_prime],
                        "j": j,
                        "constant": value(c),
                        "size": size,
                        "map(1)": bound,
                    }

                cases.append((formula, decode))
        return cases

    def confirm(example):
        code = _built(input_metric, output_metric, size)
        from .make_resize import resized

        outputs = [
            resized(example[k], size, example["constant"], False, False) for k in ("y", "y_prime")
        ]
        return f"code without shuffles: {outputs[0]!r}, {outputs[1]!r}; map(1) = {code.map(1)!r}"

    kind = "no-shuffle" if input_metric == "insert_delete" else "coupled"
    described = (
        "deterministic outputs"
        if kind == "no-shuffle"
        else "the proof's coupling, every shuffle outcome"
        + (" (same sigma after moving the added record)" if shuffle_padded else "")
    )
    return Obligation(
        constructor="make_resize",
        claim=(
            f"{kind} {input_metric}->{output_metric} size={size}: every y' of length "
            f"1..{MAX_LENGTH}, y = y' minus any one record, any constant "
            f"({RECORD_BITS}-bit records): outputs within map(1)={bound} ({described}); "
            "d_in=1 suffices: path metrics, linear map"
            + ("" if stability_map is None else " WRONG MAP")
        ),
        format=f"bv{RECORD_BITS}",
        size=MAX_LENGTH,
        violation=violation,
        confirm=confirm,
    )


def map_instance(stability_map=None):
    """The map's arithmetic: raises or returns exactly ``2 * d_in`` for every u32 ``d_in``."""

    def violation():
        d_in = z3.BitVec("d_in", 32)
        raises, value = map_model(d_in)
        exact = z3.BitVecVal(2, 64) * z3.ZeroExt(32, d_in)
        formula = z3.And(z3.Not(raises), z3.ZeroExt(32, value) != exact)
        cases = [(formula, lambda m: {"d_in": m.eval(d_in, True).as_long()})]
        built = _built("symmetric", "symmetric", 1)
        for d in (0, 1, 2, (1 << 31) - 1):  # the code's own values agree with the model
            stated = built.map(d) if stability_map is None else stability_map(d)
            if stated != 2 * d:
                cases.append((z3.BoolVal(True), lambda m, d=d, s=stated: {"d_in": d, "map": s}))
        return cases

    return Obligation(
        constructor="make_resize",
        claim="map: checked_mul(2, d_in, u32) raises or equals 2*d_in, every u32 d_in"
        + ("" if stability_map is None else " WRONG MAP"),
        format="u32",
        size=0,
        violation=violation,
    )


def _bijection_holds(m: int) -> bool:
    """Fact F2 at ``m``: orderings of ``m + 1`` positions (the added record is position ``m``)
    correspond one to one with (ordering of positions ``0..m-1``, place ``J`` of ``m``)."""
    seen = set()
    for order in permutations(range(m + 1)):
        place = order.index(m)
        seen.add((tuple(p for p in order if p != m), place))
    expected = {(w, J) for w in permutations(range(m)) for J in range(m + 1)}
    # onto a set of (m+1)! pairs from (m+1)! orderings: one to one as well
    return seen == expected and len(expected) == len(list(permutations(range(m + 1))))


def bijection_instance():
    def violation():
        failing = [m for m in range(MAX_LENGTH) if not _bijection_holds(m)]
        return [(z3.BoolVal(bool(failing)), lambda model: {"m": failing})]

    return Obligation(
        constructor="make_resize",
        claim=f"coupling-bijection: fact F2 for m < {MAX_LENGTH} (enumerated, not SMT): "
        "dropping the added record from a uniform shuffle of y' leaves a uniform shuffle of y "
        "and a uniform place",
        format="positions",
        size=MAX_LENGTH,
        violation=violation,
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_resize" not in names:
        return []
    result = [map_instance(), bijection_instance()]
    for input_metric in _METRICS:
        for output_metric in _METRICS:
            for size in _SIZES:
                result.append(resize_instance(input_metric, output_metric, size))
    return result


MODELLED = {
    "make_resize": [
        "transformations/resize/make_resize.py",
        "samplers/shuffle.py",
        "numeric/integers.py",
    ]
}

SCOPE = {
    "make_resize": Scope(
        formats=("records of 3 bits", "u32"),
        sizes=_SIZES,
        bound_to_code="the real make_resize is built at each size and pair of metrics, and its "
        "own map is called at d_in = 1",
        bit_precise=("every dataset of length <= 4, every constant and every outcome of the "
                     "shuffles (enumerated permutations)", "the map's checked product for every "
                     "u32 d_in"),
        assumed=("larger d_in by the path-metric gluing lemma of make_resize.tex",),
    )
}  # fmt: skip

"""SMT model of ``make_count`` and its bounded theorem.

Model of the function (``function`` in make_count.py): a dataset's length ``n`` (a bit-vector of
``LENGTH_BITS`` bits, Python lengths being below ``2**63``) becomes ``m = min(n, cap)`` with
``cap`` the code's own ``largest_count(TO)``; then ``int(m)`` (an unbounded Python int: kept in
the wide bit-vector, never truncated) for an integer ``TO``, ``float(m)`` (an f64 rounded to
nearest, ties to even) for a float ``TO``.  ``tests/prove/test_count_model.py`` checks the model
against the code bit for bit on random lengths (up to ``2**63 - 1``, as ``range`` objects).

Theorem, per output type ``TO`` (all eleven integer types, f32, f64), input metric and ``d_in``
(1, 2, 3 and the largest ``d_in`` the map accepts, or a float ``d_in`` the map rounds up):

* ``lengths``: for every pair of lengths ``n, n' < 2**63`` with ``|n - n'| <= d_in``, both
  counts lie in the output domain (an integer of ``TO``'s range; for floats, exactly ``m``, and
  a value of ``TO``) and ``|count(n) - count(n')| <= map(d_in)``, the map being the code's value.
  This covers the saturation point of every type.
* ``datasets``: for every dataset of length ``<= N = 4`` and every neighbour at distance
  ``<= d_in`` under the input metric (edit scripts, :func:`certdp.contracts.smt.edit_scripts`;
  a permutation does not change a length), ``|count(x) - count(x')| <= map(d_in)``: the step
  from datasets to lengths (``| |x| - |x'| | <= d_in``) at those sizes.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import edit_scripts, within_float, within_int
from certdp.contracts.smt_code import Scope
from certdp.core.types import INTEGER_TYPES, carrier

__all__ = ["LENGTH_BITS", "count_model", "count_instance", "obligations", "MODELLED"]

#: Width of lengths and integer counts: u128's maximum and every Python length fit, with room.
LENGTH_BITS = 130
_MAX_LENGTH = (1 << 63) - 1
_SIZE = 4
_F64 = z3.Float64()


def count_model(n, TO, saturate: bool = True):
    """The count of a dataset of length ``n`` (a ``LENGTH_BITS`` bit-vector): an integer
    bit-vector of the same width for integer ``TO``, an f64 for a float ``TO``.  With
    ``saturate=False`` the cap is left out (a deliberately wrong model for the tests)."""
    from .make_count import largest_count

    cap = z3.BitVecVal(largest_count(TO), LENGTH_BITS)
    m = z3.If(z3.ULT(n, cap), n, cap) if saturate else n
    if TO.is_integer:
        return m
    return z3.fpToFPUnsigned(z3.RNE(), _narrow(m, TO, saturate), _F64)


def _narrow(m, TO, saturate):
    """``m`` in as few bits as hold it (``cap`` when saturated, a Python length otherwise): the
    same unsigned value, which the solver converts to a float much faster."""
    from .make_count import largest_count

    bits = largest_count(TO).bit_length() if saturate else 64
    return z3.Extract(bits - 1, 0, m)


def _in_domain(count, n, TO, saturate):

    if TO.is_integer:
        return z3.And(z3.ULE(count, z3.BitVecVal(TO.max, LENGTH_BITS)))
    m = _narrow(_capped(n, TO, saturate), TO, saturate)
    exact = z3.fpToFPUnsigned(z3.RTP(), m, _F64) == z3.fpToFPUnsigned(z3.RTN(), m, _F64)
    if TO.name == "f64":
        return z3.And(exact, z3.Not(z3.fpIsNaN(count)))
    narrowed = z3.fpToFP(z3.RNE(), count, z3.Float32())
    return z3.And(exact, z3.fpToFP(z3.RNE(), narrowed, _F64) == count)


def _within(a, b, bound, TO, n=None, n_prime=None, saturate=True):
    """``|a - b| <= bound`` exactly.  For floats, where the domain conditions hold the two
    counts are exactly the integers ``m, m'`` they convert, so their distance is ``|m - m'|``,
    at most the float ``bound`` exactly when at most its floor."""
    if TO.is_integer:
        return within_int(a, b, bound, signed=False)
    if n is None:
        return within_float(a, b, z3.FPVal(float(bound), _F64))
    m, m_prime = (_capped(v, TO, saturate) for v in (n, n_prime))
    return within_int(m, m_prime, int(bound), signed=False)


def _capped(n, TO, saturate):
    from .make_count import largest_count

    cap = z3.BitVecVal(largest_count(TO), LENGTH_BITS)
    return z3.If(z3.ULT(n, cap), n, cap) if saturate else n


def _distances(TO) -> list:
    if TO.is_integer:
        return [1, 2, 3, TO.max]
    return [1, 2, 3, (1 << (TO.mantissa_bits + 1)) + 1]


def count_instance(TO, metric: str, d_in, kind: str, saturate=True, map_shift=0):
    """One obligation (``kind``: ``lengths`` or ``datasets``); ``saturate=False`` or a
    non-zero ``map_shift`` make it deliberately wrong (for the tests)."""
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_count import make_count

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    built = make_count(vector_domain(atom_domain(T="i32")), space_metric, TO.name)
    bound = built.map(d_in) + map_shift

    def confirm(example):
        outputs = [built.function(range(example[k])) for k in ("n", "n_prime")]
        return f"code: counts {outputs[0]!r}, {outputs[1]!r}; map({d_in}) = {built.map(d_in)!r}"

    def lengths():
        n, n_prime = z3.BitVec("n", LENGTH_BITS), z3.BitVec("n_prime", LENGTH_BITS)
        limit = z3.BitVecVal(_MAX_LENGTH, LENGTH_BITS)
        if kind == "domain":
            bad = z3.Not(_in_domain(count_model(n, TO, saturate), n, TO, saturate))
            formula = z3.And(z3.ULE(n, limit), bad)
        else:
            close = within_int(n, n_prime, d_in, signed=False)
            a, b = count_model(n, TO, saturate), count_model(n_prime, TO, saturate)
            bad = z3.Not(_within(a, b, bound, TO, n, n_prime, saturate))
            formula = z3.And(z3.ULE(n, limit), z3.ULE(n_prime, limit), close, bad)

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
        at_end = True  # a count sees lengths only; a permutation keeps them
        for length, script in edit_scripts(_SIZE, min(d_in, 2 * _SIZE), None, at_end):
            x = [z3.BitVec(f"x{k}", 2) for k in range(length)]
            x_prime, _ = apply_edits(x, script)
            a = count_model(z3.BitVecVal(len(x), LENGTH_BITS), TO, saturate)
            b = count_model(z3.BitVecVal(len(x_prime), LENGTH_BITS), TO, saturate)
            formula = z3.simplify(z3.Not(_within(a, b, bound, TO)))
            cases.append((formula, lambda m, x=x, xp=x_prime: {"n": len(x), "n_prime": len(xp)}))
        return cases

    size = _SIZE if kind == "datasets" else _MAX_LENGTH
    described = {
        "domain": "every length <= 2^63-1: the count is in the output domain"
        + (" (exactly min(n, cap), a value of TO)" if TO.is_float else ""),
        "lengths": f"every pair of lengths <= 2^63-1 within d_in={d_in}: counts map-close",
        "datasets": f"{metric} d_in={d_in}: every dataset len<={_SIZE} and neighbour, "
        "counts map-close",
    }[kind]
    return Obligation(
        constructor="make_count",
        claim=(
            f"TO={TO.name} {described}"
            + ("" if saturate else " WITHOUT saturation")
            + ("" if not map_shift else f" map{map_shift:+}")
        ),
        format=TO.name,
        size=size,
        violation=datasets if kind == "datasets" else lengths,
        confirm=confirm,
    )


def apply_edits(records, script):
    """The records after the script (inserted records are fresh symbols)."""
    from certdp.contracts.smt import apply_script

    return apply_script(records, script, lambda label: z3.BitVec(label, 2))


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_count" not in names:
        return []
    result = []
    for name in (*INTEGER_TYPES, "f32", "f64"):
        TO = carrier(name)
        result.append(count_instance(TO, "symmetric", 1, "domain"))
        for d_in in _distances(TO):  # lengths: the same for both input metrics
            result.append(count_instance(TO, "symmetric", d_in, "lengths"))
        for metric in ("symmetric", "insert_delete"):
            for d_in in (1, 2, 3):
                result.append(count_instance(TO, metric, d_in, "datasets"))
    return result


MODELLED = {"make_count": ["transformations/count/make_count.py"]}

SCOPE = {
    "make_count": Scope(
        formats=(*INTEGER_TYPES, "f32", "f64"),
        sizes=(_SIZE,),
        bound_to_code="the real make_count is built for each output type, and its own map is "
        "called at each d_in (and the cap is the code's largest_count)",
        bit_precise=("every pair of lengths below 2^63 within d_in (130-bit bit-vectors, f64 "
                     "conversion)", "every dataset of length <= N and its neighbours"),
    )
}  # fmt: skip

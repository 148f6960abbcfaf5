"""SMT model of ``make_np_count`` and its bounded theorem.

Model of the function (``function`` in make_np_count.py): an array's number of rows ``n`` (a
bit-vector of ``LENGTH_BITS`` bits; numpy shapes are below ``2**63``) becomes
``min(n, cap)``, ``cap`` read from the code's output type (``i32``'s maximum).
``tests/prove/test_np_count_model.py`` checks the model against the code on random shapes.

Theorem, per ``d_in`` (1, 2, 3 and ``i32``'s maximum) and domain kind:

* ``unknown size``: for every pair of row counts ``n, n' < 2**63`` with ``|n - n'| <= d_in``
  (the proof's Lemma: ``| |x| - |x'| | <= d_sym(x, x')``), the counts are values of ``i32``
  and ``|count(n) - count(n')| <= map(d_in)``, the map being the real constructor's;
* ``known size``: for every size ``s < 2**63`` (the real constructor built with ``size=s``
  for a few ``s``; the domain admits only ``s`` rows), the two counts are equal and hence
  within ``map(d_in)``.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import within_int
from certdp.contracts.smt_code import Scope

__all__ = ["LENGTH_BITS", "count_model", "instance", "obligations", "MODELLED", "SCOPE"]

#: Width of row counts: every numpy shape (below 2**63) fits, with room.
LENGTH_BITS = 66
_MAX_LENGTH = (1 << 63) - 1
_DISTANCES = (1, 2, 3, (1 << 31) - 1)
_SIZES = (0, 1, 7, (1 << 31) - 1, 1 << 31, (1 << 40) + 3)


def _built(size):
    from certdp.core.metrics import symmetric_distance
    from certdp.numpy.array2_domain import array2_domain

    from .make_np_count import make_np_count

    return make_np_count(array2_domain(T="f64", size=size), symmetric_distance())


def count_model(n, cap: int):
    """The code's count of an array of ``n`` rows: ``min(n, cap)``."""
    capped = z3.BitVecVal(cap, LENGTH_BITS)
    return z3.If(z3.ULT(n, capped), n, capped)


def _cap() -> int:
    """The cap the code applies, read by running it on a shape beyond every i32."""
    import numpy as np

    return _built(None).function(np.zeros((1 << 56, 0)))


def instance(d_in: int, size=None, map_shift: int = 0) -> Obligation:
    """One obligation; a non-zero ``map_shift`` makes it deliberately wrong (for the tests)."""
    built = _built(size)
    bound = built.map(d_in) + map_shift
    cap = _cap()
    i32_max = (1 << 31) - 1

    def violation():
        n, n_prime = z3.BitVec("n", LENGTH_BITS), z3.BitVec("n_prime", LENGTH_BITS)
        limit = z3.BitVecVal(_MAX_LENGTH, LENGTH_BITS)
        a, b = count_model(n, cap), count_model(n_prime, cap)
        in_range = z3.And(*(z3.ULE(c, z3.BitVecVal(i32_max, LENGTH_BITS)) for c in (a, b)))
        if size is None:
            close = within_int(n, n_prime, d_in, signed=False)
            domain = z3.And(z3.ULE(n, limit), z3.ULE(n_prime, limit))
        else:
            close = z3.BoolVal(True)
            domain = z3.And(n == size, n_prime == size)
        if bound < 0:
            near = z3.BoolVal(False)
        else:
            near = within_int(a, b, bound, signed=False)
        formula = z3.And(domain, close, z3.Not(z3.And(in_range, near)))

        def decode(m):
            return {
                "n": m.eval(n, True).as_long(),
                "n_prime": m.eval(n_prime, True).as_long(),
                "d_in": d_in,
                "map": bound,
            }

        return [(formula, decode)]

    kind = "unknown size" if size is None else f"size={size}"
    return Obligation(
        constructor="make_np_count",
        claim=f"{kind} d_in={d_in}: every pair of row counts <= 2^63-1 within d_in, counts "
        "in i32 and map-close" + ("" if not map_shift else f" map{map_shift:+}"),
        format="i32",
        size=_MAX_LENGTH,
        violation=violation,
        confirm=lambda example: f"code: map({d_in}) = {built.map(d_in)!r}",
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_np_count" not in names:
        return []
    result = [instance(d_in) for d_in in _DISTANCES]
    result += [instance(d_in, size) for size in _SIZES for d_in in (1, 2)]
    return result


MODELLED = {"make_np_count": ["numpy/np_count/make_np_count.py"]}

SCOPE = {
    "make_np_count": Scope(
        formats=("i32",),
        sizes=(_MAX_LENGTH,),
        bound_to_code="the real make_np_count is built (unknown size, and each tested size), "
        "its own map is called at each d_in, and the cap is the code's own count of a "
        "2^56-row, 0-column array",
        bit_precise=("every pair of row counts below 2^63 within d_in (66-bit bit-vectors)",),
        assumed=("an array is its row count: the step from arrays to row counts "
                 "(| |x| - |x'| | <= d_sym) is the proof's Lemma, not modelled",),
    )
}  # fmt: skip

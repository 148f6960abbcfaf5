"""SMT model of ``make_randomized_response_bitvec``, bound to the code.

* ``map``: the real constructor is built over ``bitvector_domain(max_weight=m, size=n)`` for
  the weights of :data:`WEIGHTS` and every ``f`` of :data:`FS`, and its own map is called at
  every ``d_in`` of :data:`D_INS`; a case is satisfiable exactly when the value is below the
  exact loss ``2 m ln((2 - f) / f)`` (``d_in >= 1``; ``0`` below that);
* ``bits``: bit-precise, over 32-bit bit-vectors: for the real function's closure (the number
  of positions its loop runs over, and the flip probability ``n / d``), no position ``p < n``
  of the vector escapes the loop (the last bit included, OpenDP #2707), and ``n / d = f / 2``;
  the release ``x XOR mask`` then differs from ``x`` exactly at the drawn positions.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.measurements._randomized_response.smt_support import below_scaled_abs_log

_NAME = "make_randomized_response_bitvec"
WEIGHTS = (0, 1, 4, 1000)
SIZES = (8, 24, 64)
FS = (5e-324, 0.25, 0.5, 0.95, 0.9999999999999999, 1.0)
D_INS = (0, 0.5, 1, 2, 2**40)


def built(weight, size, f):
    from certdp.core.bitvector_domain import bitvector_domain
    from certdp.core.change_metrics import discrete_distance

    from .make_randomized_response_bitvec import make_randomized_response_bitvec

    domain = bitvector_domain(max_weight=weight, size=size)
    return make_randomized_response_bitvec(domain, discrete_distance(), f)


def map_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for weight in WEIGHTS:
            for f in FS:
                measurement = built_of(weight, 24, f)
                q = Fraction(f) / 2
                for d_in in D_INS:
                    value = measurement.map(d_in)
                    if d_in < 1:
                        below = exact(value) < 0
                    else:
                        below = below_scaled_abs_log(value, 2 * weight, (1 - q) / q)
                    example = {"max_weight": weight, "f": f, "d_in": d_in, "map": repr(value)}
                    cases.append((below, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response_bitvec, max_weight in {WEIGHTS}, f in {FS}, "
        f"d_in in {D_INS}: the map is >= 2 max_weight ln((2 - f) / f) for d_in >= 1",
        format="real", size=1, violation=violation,
    )  # fmt: skip


def bits_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for size in SIZES:
            for f in FS:
                closure = inspect.getclosurevars(built_of(1, size, f).function).nonlocals
                bits, n, d = closure["bits"], closure["n"], closure["d"]
                x, mask = z3.BitVecs("x mask", 64)
                p = z3.BitVec("p", 32)
                escaped = z3.And(z3.ULT(p, size), z3.UGE(p, bits))  # a position the loop misses
                out = x ^ mask
                bit = z3.ZeroExt(32, p)
                differs = z3.Extract(0, 0, z3.LShR(out ^ x, bit)) == 1
                drawn = z3.Extract(0, 0, z3.LShR(mask, bit)) == 1
                flip_law = exact(Fraction(n, d)) != exact(Fraction(f) / 2)
                broken = z3.Or(
                    z3.And(z3.ULT(p, size), escaped),
                    z3.And(z3.ULT(p, size), differs != drawn),
                    flip_law,
                )
                cases.append((broken, lambda m, e={"size": size, "f": f, "bits": bits}: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response_bitvec, size in {SIZES}, f in {FS}: every "
        "position below size is drawn (the last included), a bit of the output differs from "
        "the input exactly where drawn, with probability exactly f / 2 (32/64-bit bit-vectors)",
        format="bv64", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [map_instance(), bits_instance()]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real", "bv64"),
        sizes=(1,),
        bound_to_code="the real make_randomized_response_bitvec is built at each instance and "
        "its own map is called; the loop's length and the flip probability are read from the "
        "real function's closure",
        instances=f"max_weight in {WEIGHTS}, size 24 (map) or {SIZES} (bits), f in {FS}, "
        f"d_in in {D_INS}",
        bit_precise=(
            "x XOR mask differs from x exactly at the drawn positions, and every "
            "position below the size is drawn (64-bit bit-vectors)",
        ),  # fmt: skip
        abstractions=(
            "the logarithm enclosed by mpmath interval arithmetic, refined until the "
            "comparison with the map value is decided",
        ),  # fmt: skip
        assumed=(
            "bernoulli_ratio is an exact sampler (samplers/bernoulli.tex)",
            "the loop runs over range(bits) (read from the code, not modelled)",
            "the max-divergence of two output laws is at most 2 m ln((2 - f) / f) (the proof)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/randomized_response_bitvec/make_randomized_response_bitvec.py"]}

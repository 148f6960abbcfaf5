"""SMT model of ``make_sum_of_squared_deviations`` and its bounded theorem, bound to the real
constructor, on the code's own structure with the rounding lemmas as abstractions.

The proof (make_sum_of_squared_deviations.tex) encloses the output ``r`` of the function on
``x`` by ``-(E_S + n e_q) <= r - G(x) <= E_S + n e_q + n e_m^2``, where ``G`` is the exact sum of
squared deviations, ``E_S`` the summation error of the squares, ``e_q`` the error of one
rounded deviation squared and ``e_m`` the error of the empirical mean (summation error over
``n``, plus the rounding of the division).  The model recomputes these bounds itself, in exact
rationals, from the format, the size and the bounds (``E_S`` and the summation error of the
records by the summation lemma's ``sum_error``, which its own document proves; the rest by the
model's own formulas), never from the code's constants: an edit that shrinks a term of the
code's map is then caught.

Obligations (``code``), one per instance (format, strategy, size ``n <= 3``, bounds): the real
constructor is built, and for each ``d_in`` the map value ``built.map(d_in)`` is taken from it.
A case is satisfiable exactly when there are values ``G, G'`` of the exact sum of squared
deviations of two datasets at distance ``d_in`` (abstracted by the proof's Lemma [exact
sensitivity]: ``|G - G'| <= floor(d_in / 2) (U - L)^2 (n - 1) / n``, a fact of real arithmetic)
and reals ``r, r'`` within the enclosure of ``G``, ``G'`` with ``|r - r'| > built.map(d_in)``
(linear real arithmetic).
``tests/prove/test_ssd_model.py`` checks on concrete data that the code's output lies in the
enclosure (exact rationals), and that an edited copy of the map is refuted.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.core.errors import DPError

__all__ = ["enclosure", "built_ssd", "ssd_instance", "obligations", "MODELLED", "REQUIRES", "SCOPE"]

_MANTISSA = {"f32": 23, "f64": 52}
_TINY = {"f32": Fraction(1, 2**149), "f64": Fraction(1, 2**1074)}


def enclosure(fmt: str, S: str, n: int, lower: float, upper: float) -> tuple[Fraction, Fraction]:
    """``(A, B)`` with ``-A <= r - G(x) <= A + B`` for the code's output ``r`` (the proof's
    enclosure), in exact rationals: ``A = E_S(n, D) + n e_q``, ``B = n e_m^2``."""
    from certdp.numeric import round_rational
    from certdp.transformations._summation.float_summation import parse_summation, sum_error

    summation = parse_summation(f"{S}<{fmt}>")
    u = Fraction(1, 2 ** (_MANTISSA[fmt] + 1))
    tiny = _TINY[fmt]
    L, U = Fraction(lower), Fraction(upper)
    M = max(abs(L), U)
    e = Fraction(sum_error(summation, n, lower, upper)) / n
    e_m = e + u * (M + e) + tiny / 2
    D = round_rational((U - L + 2 * e_m) ** 2, fmt, "up")
    e_q = (U - L + e_m) ** 2 * ((1 + u) ** 3 - 1) + tiny / 2
    A = Fraction(sum_error(summation, n, 0.0, D)) + n * e_q
    return A, n * e_m**2


def built_ssd(fmt: str, S: str, n: int, bounds):
    import numpy as np

    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import symmetric_distance

    from .make_sum_of_squared_deviations import make_sum_of_squared_deviations

    cast = np.float32 if fmt == "f32" else float
    domain = vector_domain(atom_domain(bounds=(cast(bounds[0]), cast(bounds[1])), T=fmt), size=n)
    return make_sum_of_squared_deviations(domain, symmetric_distance(), S=f"{S}<T>")


#: (format, strategy, n, bounds); the last bounds sit just above a power of two, where the
#: rounding of the mean is coarse (OpenDP #2923).
CASES = [
    (fmt, S, n, bounds)
    for fmt, binade in (("f32", 2.0**20), ("f64", 2.0**50))
    for S in ("Pairwise", "Sequential")
    for n, bounds in [(1, (-1.0, 1.0)), (2, (0.0, 10.0)), (3, (-3.0, 7.5)), (2, (binade, binade + 1.0)), (3, (binade, binade + 1.0))]
]  # fmt: skip
D_INS = (0, 1, 2, 3, 4, 6)


def ssd_instance(fmt: str, S: str, n: int, bounds, built=None):
    """The obligation of one instance (``built`` replaces the real constructor: tests)."""
    built = built or built_ssd(fmt, S, n, bounds)
    A, B = enclosure(fmt, S, n, *bounds)
    spread = Fraction(bounds[1]) - Fraction(bounds[0])

    def violation():
        cases = []
        g, gp, r, rp = z3.Reals("g g_prime r r_prime")
        for d_in in D_INS:
            try:
                claimed = built.map(d_in)
            except DPError:
                continue
            # Lemma [exact sensitivity]: floor(d_in / 2) replacements move G by at most this
            moved = (d_in // 2) * spread**2 * Fraction(n - 1, n)
            formula = z3.And(
                g >= 0, gp >= 0, g - gp <= exact(moved), gp - g <= exact(moved),
                r - g >= -exact(A), r - g <= exact(A + B),
                rp - gp >= -exact(A), rp - gp <= exact(A + B),
                z3.Or(r - rp > exact(Fraction(claimed)), rp - r > exact(Fraction(claimed))),
            )  # fmt: skip

            def decode(m, d_in=d_in, claimed=claimed):
                return {"d_in": d_in, "map": repr(claimed), "G": str(m.eval(g)),
                        "G'": str(m.eval(gp)), "r": str(m.eval(r)), "r'": str(m.eval(rp))}  # fmt: skip

            cases.append((formula, decode))
        return cases

    return Obligation(
        constructor="make_sum_of_squared_deviations",
        claim=(
            f"real make_sum_of_squared_deviations {fmt} {S} size={n} bounds={bounds} d_in in "
            f"{D_INS}: outputs within the proof's enclosure of the exact sum of squared "
            f"deviations stay within the real map (exact reals)"
        ),
        format=fmt, size=n, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_sum_of_squared_deviations" not in names:
        return []
    return [ssd_instance(fmt, S, n, bounds) for fmt, S, n, bounds in CASES]


MODELLED = {
    "make_sum_of_squared_deviations": [
        "transformations/sum_of_squared_deviations/make_sum_of_squared_deviations.py",
        "numeric/floats.py",
    ]
}

#: The float sums whose theorem rests on the summation error bound (sum_error) the enclosure uses.
REQUIRES = {"make_sum_of_squared_deviations": ["make_sized_bounded_float_checked_sum"]}

SCOPE = {
    "make_sum_of_squared_deviations": Scope(
        formats=("f32", "f64"),
        sizes=tuple(sorted({n for _, _, n, _ in CASES})),
        bound_to_code="the real constructor is built at each instance and its map called on "
        "each d_in; the enclosure is the model's own (not read from the code)",
        instances=f"{len(CASES)} (format, strategy, size, bounds) under the symmetric "
        f"distance, d_in in {D_INS}",
        abstractions=(
            "the output is any real within the proof's enclosure of the exact sum of squared "
            "deviations (checked against the code on concrete data by a test)",
            "the exact sums of squared deviations of datasets at distance d_in differ by at most "
            "floor(d_in / 2) (U - L)^2 (n - 1) / n (the proof's Lemma [exact sensitivity]; the "
            "enclosure holds for every order of the records)",
        ),
        assumed=("the summation error bound of float_summation.tex (sum_error)",),
    )
}

"""SMT model of ``make_variance`` and its bounded theorem, bound to the real constructor: the
scaling step after the sum of squared deviations, with the rounding of the product as an
abstraction.

The proof (make_variance.tex) chains make_sum_of_squared_deviations (Pairwise) with the step
``y -> fl(c * clamp(y, 0, B))``, ``c = fl(1 / (n - ddof))`` rounded to nearest.  The model takes
the sum of squared deviations' theorem as proved (``REQUIRES``: two neighbouring datasets give
outputs ``y, y'`` with ``|y - y'| <= ssd.map(d_in)``, the map of the real Pairwise constructor),
the clamp as 1-Lipschitz into ``[0, B_model]`` and the product's rounding as at most
``ulp(W) / 2`` with ``W >= c * B_model``; ``c``, ``B_model`` and ``W`` are the model's own
(exact rationals: ``B_model`` is Popoviciu's ``(U - L)^2 n / 4`` times ``(1 + 2u)^5``, above
every upward rounding the code may make), never read from the code.

Obligations (``code``), one per instance (format, size ``n <= 3``, ``ddof``, bounds): the real
make_variance is built and its map called on each ``d_in``.  A case is satisfiable exactly when
there are reals ``z, z'`` in ``[0, B_model]`` with ``|z - z'| <= ssd.map(d_in)`` and ``v, v'``
within ``ulp(W) / 2`` of ``c z``, ``c z'`` with ``|v - v'| > built.map(d_in)`` (linear real
arithmetic).  ``tests/prove/test_variance_model.py`` refutes an edited copy that drops the
rounding term.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.core.errors import DPError

__all__ = ["scaling_bounds", "built_pair", "variance_instance", "obligations"]
__all__ += ["MODELLED", "REQUIRES", "SCOPE"]

_MANTISSA = {"f32": 23, "f64": 52}


def scaling_bounds(fmt: str, n: int, ddof: int, lower: float, upper: float):
    """``(c, B_model, half)``: the reciprocal rounded to nearest, the model's bound on the
    clamped value and its bound on the rounding of one product (exact rationals)."""
    from certdp.numeric import round_rational, ulp

    u = Fraction(1, 2 ** (_MANTISSA[fmt] + 1))
    c = Fraction(round_rational(Fraction(1, n - ddof), fmt, "nearest"))
    spread = Fraction(upper) - Fraction(lower)
    largest = spread**2 * n / 4 * (1 + 2 * u) ** 5
    w = round_rational(c * largest, fmt, "up")
    return c, largest, Fraction(ulp(float(w), fmt)) / 2


def built_pair(fmt: str, n: int, ddof: int, bounds):
    """The real make_variance and the real Pairwise make_sum_of_squared_deviations it chains."""
    import numpy as np

    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import symmetric_distance
    from certdp.transformations.sum_of_squared_deviations.make_sum_of_squared_deviations import (
        make_sum_of_squared_deviations,
    )

    from .make_variance import make_variance

    cast = np.float32 if fmt == "f32" else float
    domain = vector_domain(atom_domain(bounds=(cast(bounds[0]), cast(bounds[1])), T=fmt), size=n)
    metric = symmetric_distance()
    return (
        make_variance(domain, metric, ddof=ddof),
        make_sum_of_squared_deviations(domain, metric, S="Pairwise<T>"),
    )


#: (format, size, ddof, bounds); the last bounds sit just above a power of two (OpenDP #2923).
CASES = [
    (fmt, n, ddof, bounds)
    for fmt, binade in (("f32", 2.0**20), ("f64", 2.0**50))
    for n, bounds in [(1, (-1.0, 1.0)), (2, (0.0, 10.0)), (3, (-3.0, 7.5)), (3, (binade, binade + 1.0))]
    for ddof in sorted({0, n - 1})
]  # fmt: skip
D_INS = (0, 1, 2, 3, 4, 6)


def variance_instance(fmt: str, n: int, ddof: int, bounds, built=None):
    """The obligation of one instance (``built`` replaces the real pair: tests)."""
    variance, ssd = built or built_pair(fmt, n, ddof, bounds)
    c, largest, half = scaling_bounds(fmt, n, ddof, *bounds)

    def violation():
        cases = []
        z, zp, v, vp = z3.Reals("z z_prime v v_prime")
        for d_in in D_INS:
            try:
                claimed = variance.map(d_in)
                moved = ssd.map(d_in)
            except DPError:
                continue
            formula = z3.And(
                z >= 0, zp >= 0, z <= exact(largest), zp <= exact(largest),
                z - zp <= exact(Fraction(moved)), zp - z <= exact(Fraction(moved)),
                v - exact(c) * z <= exact(half), exact(c) * z - v <= exact(half),
                vp - exact(c) * zp <= exact(half), exact(c) * zp - vp <= exact(half),
                z3.Or(v - vp > exact(Fraction(claimed)), vp - v > exact(Fraction(claimed))),
            )  # fmt: skip

            def decode(m, d_in=d_in, claimed=claimed):
                return {"d_in": d_in, "map": repr(claimed), "z": str(m.eval(z)),
                        "z'": str(m.eval(zp)), "v": str(m.eval(v)), "v'": str(m.eval(vp))}  # fmt: skip

            cases.append((formula, decode))
        return cases

    return Obligation(
        constructor="make_variance",
        claim=(
            f"real make_variance {fmt} size={n} ddof={ddof} bounds={bounds} d_in in {D_INS}: "
            f"sums of squared deviations within the real Pairwise ssd map, clamped and scaled "
            f"by c with the product's rounding, stay within the real map (exact reals)"
        ),
        format=fmt, size=n, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_variance" not in names:
        return []
    return [variance_instance(*case) for case in CASES]


MODELLED = {
    "make_variance": [
        "transformations/variance/make_variance.py",
        "transformations/sum_of_squared_deviations/make_sum_of_squared_deviations.py",
        "numeric/floats.py",
    ]
}

#: The theorem of the sum of squared deviations make_variance chains first.
REQUIRES = {"make_variance": ["make_sum_of_squared_deviations"]}

SCOPE = {
    "make_variance": Scope(
        formats=("f32", "f64"),
        sizes=tuple(sorted({n for _, n, _, _ in CASES})),
        bound_to_code="the real make_variance and the real Pairwise "
        "make_sum_of_squared_deviations are built at each instance and their maps called on "
        "each d_in; c, the clamp bound and the rounding bound are the model's own",
        instances=f"{len(CASES)} (format, size, ddof, bounds) under the symmetric distance, "
        f"d_in in {D_INS}",
        abstractions=(
            "the clamp is 1-Lipschitz into [0, (U - L)^2 n / 4 (1 + 2u)^5]",
            "a product rounded to nearest is within ulp(W) / 2 of the exact product, W the "
            "model's upper bound on the product",
        ),
        assumed=("the theorem of make_sum_of_squared_deviations (its own model and proof)",),
    )
}

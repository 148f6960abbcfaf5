"""SMT model of ``make_private_quantile``: its map against the composed theorem, in exact reals.

The measurement is a chain of proven steps (``make_quantile_score_candidates``,
``make_noisy_max`` with ``negate``, postprocessing), each with its own model; what this
constructor adds is the wiring: which scores, which noise scale.  The obligation, per instance
(element type, size, metric, measure, ``alpha``, ``scale``, ``d_in``), is that the real
constructor's map at ``d_in`` is at least the composed bound of the proof, computed here from
the arguments (not from the code):

* ``num / den`` is ``alpha`` when its exact denominator is below ``B`` (``B = 10000`` without a
  size, ``(2**64 - 1) // n`` with size ``n``), else ``trunc(fl(alpha * fl(B))) / B``;
* the scores' distance ``w = floor(d_in / 2) * den`` (known size) or ``d_in * max(num, den -
  num)`` (unknown size);
* the noise scale ``sigma = fl(scale * fl(den))`` and noisy max's bound with ``R = 2 w``:
  ``2 w / sigma`` (max-divergence) or ``(2 w / sigma)^2 / 8`` (zCDP); ``0`` at ``w = 0``,
  ``+oo`` at ``sigma = 0 < w``.

A map below it (a release with less noise than the map states, the wrong scores' factor, the
wrong range factor) has a counterexample.
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["instance", "obligations", "composed_bound", "MODELLED", "SCOPE", "REQUIRES"]

_NAME = "make_private_quantile"
_U64_MAX = 2**64 - 1

#: (T, size, insert-delete?, zCDP?, alpha, scale)
INSTANCES = [
    ("f64", None, False, False, 0.5, 1.0),
    ("f64", None, False, True, 0.5, 1.0),
    ("f64", None, True, False, 0.3, 1.0),
    ("f64", None, True, True, 0.3, 2.5),
    ("i32", None, False, False, 5e-324, 1.0),
    ("i32", None, False, True, 1 - 2**-53, 0.5),
    ("f64", 100, False, False, 0.5, 1.0),
    ("f64", 100, False, True, 0.3, 1.0),
    ("i32", 7, True, True, 1 / 3, 3.0),
    ("f32", 10**6, False, False, 0.3, 1.0),
    ("f32", 10**6, False, True, 0.3, 0.1),
    ("i64", 2**40, False, False, 0.75, 1e-3),
    ("f64", None, False, False, 0.5, 0.0),
    ("f64", 5, False, True, 0.99999, 0.0),
]
_D_INS = (0, 1, 2, 3, 10)
_CANDIDATES = {"f64": [0.0, 10.0, 20.0], "f32": [-1.5, 2.5], "i32": [0, 5, 9], "i64": [1, 2]}


def _build(T, size, insert_delete, zcdp, alpha, scale):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.measures import max_divergence, zero_concentrated_divergence
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_private_quantile import make_private_quantile

    element = atom_domain(T=T, nan=False) if T.startswith("f") else atom_domain(T=T)
    metric = insert_delete_distance() if insert_delete else symmetric_distance()
    measure = zero_concentrated_divergence() if zcdp else max_divergence()
    domain = vector_domain(element, size=size)
    return make_private_quantile(domain, metric, measure, _CANDIDATES[T], alpha, scale)


def _constants(size, alpha: float) -> tuple[int, int]:
    """``(num, den)`` as the proof states OpenDP's choice (independent of the code)."""
    exact = Fraction(alpha)
    bound = 10_000 if size is None else _U64_MAX // size
    if exact.denominator < bound:
        return exact.numerator, exact.denominator
    return math.trunc(alpha * float(bound)), bound


def composed_bound(size, zcdp: bool, alpha: float, scale: float, d_in: int):
    """The proof's bound as an exact rational, or ``math.inf``."""
    num, den = _constants(size, alpha)
    w = (d_in // 2) * den if size is not None else d_in * max(num, den - num)
    sigma = Fraction(float(scale) * float(den))
    if w == 0:
        return Fraction(0)
    if sigma == 0:
        return math.inf
    loss = 2 * w / sigma
    return loss * loss / 8 if zcdp else loss


def _real(value) -> z3.ArithRef:
    value = Fraction(value)
    return z3.RealVal(f"{value.numerator}/{value.denominator}")


def instance(case, d_in: int) -> Obligation:
    """The obligation at one instance and ``d_in``: the code's map is below the composed bound
    (satisfiable exactly when the map is too small)."""
    T, size, insert_delete, zcdp, alpha, scale = case
    built = _build(*case)
    stated = built.map(d_in)
    bound = composed_bound(size, zcdp, alpha, scale, d_in)

    def violation():
        mapped = z3.Real("map")
        if stated == math.inf:
            formula = z3.BoolVal(False)
        elif bound == math.inf:
            formula = z3.And(mapped == _real(stated), z3.BoolVal(True))
        else:
            formula = z3.And(mapped == _real(stated), mapped < _real(bound))

        def decode(m):
            return {"d_in": d_in, "map": stated, "bound": str(bound)}

        return [(formula, decode)]

    metric = "insert-delete" if insert_delete else "symmetric"
    return Obligation(
        constructor=_NAME,
        claim=f"{T} size={size} {metric} {'zCDP' if zcdp else 'pure'} alpha={alpha!r} "
        f"scale={scale!r} d_in={d_in}: map >= composed bound",
        format="real",
        size=size or 0,
        violation=violation,
        confirm=lambda example: f"code: map({d_in}) = {stated!r}",
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [instance(case, d_in) for case in INSTANCES for d_in in _D_INS]


MODELLED = {_NAME: ["measurements/private_quantile/make_private_quantile.py"]}

REQUIRES = {_NAME: ["make_quantile_score_candidates", "make_noisy_max"]}

SCOPE = {
    _NAME: Scope(
        formats=("i32", "i64", "f32", "f64", "real"),
        sizes=tuple(sorted({case[1] for case in INSTANCES if case[1] is not None})),
        bound_to_code="the real make_private_quantile is built at each instance and its own "
        "map is called at each d_in; the bound is computed from the arguments",
        abstractions=("the composed bound of the proof (the scores' factor, then noisy max's "
                      "2 w / sigma or (2 w / sigma)^2 / 8 at sigma = fl(scale * fl(den))) in "
                      "exact reals",),
        assumed=("the triples of make_quantile_score_candidates, make_noisy_max, chaining "
                 "and postprocessing (their own proofs and models; REQUIRES)",),
        instances=f"{len(INSTANCES)} parameter settings (sizes None and those listed) x d_in "
        f"in {_D_INS}",
    )
}  # fmt: skip

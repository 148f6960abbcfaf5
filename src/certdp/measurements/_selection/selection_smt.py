"""The SMT obligations of the selection measurements (make_noisy_top_k, make_noisy_max,
make_report_noisy_max_gumbel), bound to the code: each obligation builds the REAL constructor
at every point of a grid (score type ``T``, ``monotonic``, output measure, ``k``, ``scale``) and
calls the built measurement's own map at every ``d_in`` of the grid.

A case is satisfiable (a counterexample) exactly when, with ``R = d_in`` for a monotonic metric
and ``2 d_in`` otherwise and ``g`` the exact bound of selection.tex's Lemma [map] --
``k R / scale`` (max-divergence) or ``k (R / scale)^2 / 8`` (zCDP), ``0`` at ``d_in = 0``,
``+inf`` at ``d_in > 0 = scale`` -- the value is

* NaN, or below ``g`` (exact rationals: the map must be conservative), or
* not the least f64 value ``>= g`` (Lemma [map] claims one upward rounding, no more): a finite
  positive value whose next f64 below is still ``>= g``, or ``+inf`` while ``g`` is at most the
  largest finite f64, or
* the measurement's output measure is not the requested one.

The grid is finite: a map that errs only off the grid is not refuted.  The distribution claims
(the privacy theorem of selection.tex and the sampler lemma) are not SMT statements.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import exact
from certdp.core.exact_type import type_is
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence

#: The measures the obligations name, by name; the built measure's class is tested by identity.
MEASURE_CLASSES = {
    "MaxDivergence": MaxDivergence,
    "ZeroConcentratedDivergence": ZeroConcentratedDivergence,
}

__all__ = [
    "SCALES",
    "D_INS",
    "KS",
    "MEASURES",
    "exact_bound",
    "violations",
    "selection_instance",
]

#: Scales: ordinary ones, a tiny one where the zCDP bound overflows f64, and 0.
SCALES = (1.0, 0.3, 1e-3, 1e3, 1e-200, 0.0)
#: Distances per score type (an integer type takes integer distances; a float type also
#: fractional ones, a Fraction included).
D_INS = {"i32": (0, 1, 2, 7, 2**31 - 1), "f64": (0, 0.5, 0.1, 1, 3.0, Fraction(1, 3), 1e10)}
KS = (1, 2, 3, 10)
MEASURES = ("MaxDivergence", "ZeroConcentratedDivergence")
_MAX_F64 = Fraction(sys.float_info.max)


def exact_bound(monotonic: bool, measure: str, k: int, scale, d_in):
    """Lemma [map]'s exact value ``g`` (a Fraction, or ``math.inf`` at ``d_in > 0 = scale``)."""
    d_in, scale = Fraction(d_in), Fraction(scale)
    if d_in == 0:
        return Fraction(0)
    if scale == 0:
        return math.inf
    loss = (1 if monotonic else 2) * d_in / scale
    return k * loss if measure == "MaxDivergence" else k * loss * loss / 8


def violations(value, bound) -> str | None:
    """Why ``value`` is not the least f64 ``>= bound`` (``None`` when it is)."""
    if not isinstance(value, float) or math.isnan(value):
        return f"not a float: {value!r}"
    if bound == math.inf:
        return None if value == math.inf else "finite where the bound is infinite"
    if value == math.inf:
        return None if bound > _MAX_F64 else "+inf where a finite f64 is >= the bound"
    if value < 0:
        return "negative"
    return None


def _cases(value, bound):
    """z3 formulas, each satisfiable iff the value breaks the claim in one way."""
    reason = violations(value, bound)
    if reason is not None or bound == math.inf or value == math.inf:
        return [z3.BoolVal(reason is not None)]
    below = exact(value) < exact(bound)
    previous = math.nextafter(value, -math.inf)
    not_least = z3.BoolVal(False) if value == 0 else exact(previous) >= exact(bound)
    return [below, not_least]


def selection_instance(name, T, monotonic, measure, build, ks=KS) -> Obligation:
    """The obligation of ``name`` at one ``(T, monotonic, measure)``: ``build(T, monotonic,
    measure, k, scale)`` returns the real measurement; every ``k`` of ``ks``, scale of
    :data:`SCALES` and ``d_in`` of ``D_INS[T]``."""

    def violation():
        cases = []
        for k in ks:
            for scale in SCALES:
                measurement = build(T, monotonic, measure, k, scale)
                wrong = not type_is(measurement.output_measure, MEASURE_CLASSES[measure])
                for d_in in D_INS[T]:
                    where = {"k": k, "scale": repr(scale), "d_in": repr(d_in)}
                    try:
                        value = measurement.map(d_in)
                    except Exception as error:  # a map that raises here is refuted
                        shown = {**where, "raised": f"{type(error).__name__}: {error}"}
                        cases.append((z3.BoolVal(True), lambda m, e=shown: e))
                        continue
                    bound = exact_bound(monotonic, measure, k, scale, d_in)
                    example = {**where, "map": repr(value), "bound": str(bound),
                               "measure": type(measurement.output_measure).__name__}  # fmt: skip
                    for formula in _cases(value, bound):
                        cases.append((z3.Or(z3.BoolVal(wrong), formula), lambda m, e=example: e))
        return cases

    shape = "monotonic" if monotonic else "non-monotonic"
    return Obligation(
        constructor=name,
        claim=f"real {name} {T} {shape} {measure}, k in {tuple(ks)}, scales {SCALES}, d_in in "
        f"{D_INS[T]}: the measure is the requested one and the map is the least f64 >= "
        "k R/scale (pure) or k (R/scale)^2/8 (zCDP), R = d_in (monotonic) or 2 d_in (exact)",
        format=T, size=1, violation=violation,
    )  # fmt: skip

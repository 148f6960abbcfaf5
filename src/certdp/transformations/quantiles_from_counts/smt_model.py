"""SMT model of ``make_quantiles_from_counts`` and its bounded theorem.

Model of the Function for float counts (``quantiles`` in make_quantiles_from_counts.py), bit
for bit in IEEE arithmetic of ``F`` with ``TA = F``: running sums, ``p_i = s_i / s_{n-1}``, for
each alpha the index ``k = #{p_i < alpha}`` (what the binary search returns on sorted ``p``),
then the nearer edge or ``(1 - t) e_k + t e_{k+1}``, ``t = (alpha - l) / (r - l)``.  Two kinds of
obligation:

* ``binding``: the real ``make_quantiles_from_counts(edges, alphas, interpolation, TA=F, F=F)``
  is built for f32 and f64, both interpolations, and run on the probe counts listed
  (non-negative: sorted cdf); each output must equal the model's, bit for bit.
* ``interpolation`` (Bitwuzla, bit-precise): for the edge pairs listed and every ``t`` of ``F`` in
  ``[0, 1]``, ``(1 - t) lo + t hi`` lies in ``[lo - eps, hi + eps]``, ``eps = 8 u max(|lo|,
  |hi|)`` (Theorem "quantile shape" (b), per bin).
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort, float_value
from certdp.contracts.smt_code import Scope

__all__ = ["quantiles_model", "PROBES", "obligations", "MODELLED", "SCOPE"]

_RNE = z3.RNE()
FORMATS = ("f32", "f64")
EDGES = [0.0, 1.0, 2.5, 10.0]
ALPHAS = [0.0, 0.1, 0.25, 0.5, 0.9, 1.0]
PROBES = (
    [1.0, 2.0, 3.0], [0.0, 0.0, 5.0], [5.0, 0.0, 0.0], [0.1, 0.2, 0.3], [1e-30, 1.0, 1e30],
    [0.0, 1.0, 0.0], [3.0, 3.0, 3.0],
)  # fmt: skip
#: (lo, hi) of the interpolation claim: a unit bin, a wide one, one across zero, tiny edges
PAIRS = ((0.0, 1.0), (-3.0, 1e6), (-1e-3, 2e-3), (0.0003141131361190637, 0.00037192992921343277))


def quantiles_model(counts: list, edges: list, alphas: list, interpolation: str, F: str):
    """The model's outputs (z3 floats of ``F``) for the z3 float ``counts``, constant edges and
    alphas (Python floats of ``F``)."""
    sort = float_sort(F)
    total, sums = z3.FPVal(0.0, sort), []
    for c in counts:
        total = z3.fpAdd(_RNE, total, c)
        sums.append(total)
    p = [z3.fpDiv(_RNE, s, sums[-1]) for s in sums]
    one, zero = z3.FPVal(1.0, sort), z3.FPVal(0.0, sort)
    out = []
    for alpha in alphas:
        a = float_value(alpha, sort)
        below = [z3.If(z3.fpLT(x, a), 1, 0) for x in p]
        k = z3.simplify(z3.Sum(below)) if below else 0

        def pick(values, index, default):
            result = default
            for j in range(len(values) - 1, -1, -1):
                result = z3.If(index == j, values[j], result)
            return result

        left = pick([zero] + p, k, zero)
        right = pick(p, k, z3.fpNaN(sort))
        e = [float_value(v, sort) for v in edges]
        low, high = pick(e, k, z3.fpNaN(sort)), pick(e[1:], k, z3.fpNaN(sort))
        if interpolation == "nearest":
            nearer = z3.fpGT(z3.fpSub(_RNE, a, left), z3.fpSub(_RNE, right, a))
            out.append(z3.If(nearer, high, low))
        else:
            t = z3.fpDiv(_RNE, z3.fpSub(_RNE, a, left), z3.fpSub(_RNE, right, left))
            out.append(z3.fpAdd(
                _RNE, z3.fpMul(_RNE, z3.fpSub(_RNE, one, t), low), z3.fpMul(_RNE, t, high)
            ))  # fmt: skip
    return out


def _binding(F: str) -> Obligation:
    import numpy as np

    from .make_quantiles_from_counts import make_quantiles_from_counts

    def violation():
        sort = float_sort(F)
        G = {"f32": np.float32, "f64": np.float64}[F]
        for interpolation in ("linear", "nearest"):
            built = make_quantiles_from_counts(EDGES, ALPHAS, interpolation, TA=F, F=F)
            for probe in PROBES:
                out = built(probe)
                counts = [float_value(float(G(c)), sort) for c in probe]
                model = quantiles_model(counts, EDGES, ALPHAS, interpolation, F)
                for o, m in zip(out, model, strict=True):
                    value = z3.simplify(m)
                    same = (
                        z3.is_true(z3.simplify(z3.fpIsNaN(value)))
                        if math.isnan(o)
                        else z3.is_true(z3.simplify(z3.fpEQ(value, float_value(o, sort))))
                    )
                    if not same:
                        return z3.BoolVal(True), lambda _m, p=probe, c=out: {"probe": p, "code": c}
        return z3.BoolVal(False), lambda _m: {}

    return Obligation(
        constructor="make_quantiles_from_counts",
        claim=f"binding {F}: code = model on {len(PROBES)} probes, linear and nearest",
        format=F, size=len(EDGES) - 1, violation=violation,
    )  # fmt: skip


def _interpolation(F: str, lo: float, hi: float) -> Obligation:
    def violation():
        import numpy as np

        sort = float_sort(F)
        G = {"f32": np.float32, "f64": np.float64}[F]
        lo_f, hi_f = float(G(lo)), float(G(hi))
        u = 2.0 ** -{"f32": 24, "f64": 53}[F]
        eps = 8 * u * max(abs(lo_f), abs(hi_f))  # exact: a power of two times a value of F
        t = z3.FP("t", sort)
        low, high = float_value(lo_f, sort), float_value(hi_f, sort)
        one = z3.FPVal(1.0, sort)
        value = z3.fpAdd(_RNE, z3.fpMul(_RNE, z3.fpSub(_RNE, one, t), low), z3.fpMul(_RNE, t, high))
        wide = z3.Float64() if F == "f32" else z3.FPSort(15, 113)
        as_wide = z3.fpFPToFP(_RNE, value, wide)
        bounds = (z3.FPVal(lo_f - eps, wide), z3.FPVal(hi_f + eps, wide))
        pre = z3.And(z3.fpGEQ(t, z3.FPVal(0.0, sort)), z3.fpLEQ(t, one))
        post = z3.And(z3.fpGEQ(as_wide, bounds[0]), z3.fpLEQ(as_wide, bounds[1]))
        return z3.And(pre, z3.Not(post)), lambda model: {"t": str(model)}

    return Obligation(
        constructor="make_quantiles_from_counts",
        claim=f"interpolation {F} [{lo}, {hi}]: within the edges up to 8 u max|edge|",
        format=F, size=1, violation=violation, solver="bitwuzla",
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_quantiles_from_counts" not in names:
        return []
    found = [_binding(F) for F in FORMATS]
    found += [_interpolation(F, lo, hi) for F in FORMATS for lo, hi in PAIRS]
    return found


MODELLED = {
    "make_quantiles_from_counts": [
        "transformations/quantiles_from_counts/make_quantiles_from_counts.py",
        "transformations/_postprocess/arguments.py",
        "core/postprocess.py",
    ]
}

SCOPE = {
    "make_quantiles_from_counts": Scope(
        formats=FORMATS,
        sizes=(3,),
        bound_to_code="the real make_quantiles_from_counts(edges, alphas, interpolation, TA=F, "
        "F=F) is built for f32 and f64, linear and nearest, edges [0, 1, 2.5, 10] and alphas "
        "[0, 0.1, 0.25, 0.5, 0.9, 1], and run on the 7 probe count vectors of smt_model.py; "
        "its outputs must equal the model's bit for bit (NaN with NaN)",
        bit_precise=("for the edge pairs listed and every t of F in [0, 1], (1 - t) lo + t hi "
                     "in F lies in [lo - 8 u max(|lo|, |hi|), hi + 8 u max(|lo|, |hi|)]",),
        assumed=("the code is tied to the model only on the probes (float counts, TA = F); "
                 "integer counts, other edges and alphas by the hand proof and the contract",
                 "the index k = #{p_i < alpha} equals the binary search's on sorted p (hand "
                 "proof); t in [0, 1] for non-negative counts (hand proof)"),
        instances="F f32 and f64; edge pairs (0, 1), (-3, 1e6), (-1e-3, 2e-3) and the pair of "
        "the recorded one-ulp escape",
    )
}  # fmt: skip

"""SMT model of ``make_private_np_mean``: its map against the composed theorem, in exact reals.

The measurement is a chain of proven steps (``make_np_clamp``, ``make_np_sum``,
``make_laplace`` / ``make_gaussian``, postprocessing), each with its own model; what this
constructor adds is the wiring: which sum, which noise, which scale.  The obligation, per
instance (``p``, norm, origin, size, columns, ``T``, ``scale``, ``d_in``), is that the real
constructor's map at ``d_in`` is at least the composed bound of the proof with the noise at
scale ``sigma = fl(scale * n)``, computed from the arguments (not from the code):

* ``Delta = floor(d_in / 2) * 2 R + 2 rho`` (``make_np_sum.tex``, known size; ``rho`` its
  rounding allowance, with ``||O||_2`` an exact real ``r >= 0``, ``r^2 = sum O_j^2``);
* ``p = 1``: ``Delta / sigma`` (Laplace, pure DP); ``p = 2``: ``Delta^2 / (2 sigma^2)``
  (Gaussian, zCDP).

A map that is below it (too little noise for what it claims, or the wrong sum) has a
counterexample.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["instance", "obligations", "MODELLED", "SCOPE", "REQUIRES"]

_NAME = "make_private_np_mean"

#: (T, p, norm given?, norm, origin or None, size, columns, scale)
INSTANCES = [
    ("f64", 1, True, 1.0, None, 100, 3, 1.0),
    ("f64", 2, True, 1.0, None, 100, 3, 1.0),
    ("f64", 1, True, 3.0, [1.0, 2.0, 3.0], 100, 3, 0.5),
    ("f64", 2, True, 3.0, [1.0, 2.0, 3.0], 100, 3, 0.5),
    ("f64", 1, False, 2.0, None, 7, 2, 3.0),
    ("f64", 2, False, 2.0, [0.5, -0.25], 7, 2, 3.0),
    ("f32", 1, True, 1.0, None, 1000, 4, 0.1),
    ("f32", 2, True, 0.5, [1.0, 1.0, 1.0, 1.0], 1000, 4, 0.1),
    ("f64", 2, True, 1e3, None, 1, 1, 1e-3),
]
_D_INS = (0, 1, 2, 3, 10)


def _build(T, p, with_norm, norm, origin, size, columns, scale):
    from certdp.core.metrics import symmetric_distance
    from certdp.numpy.array2_domain import array2_domain

    from .make_private_np_mean import make_private_np_mean

    origin_array = None if origin is None else np.array(origin, dtype=np.float64)
    if with_norm:
        domain = array2_domain(T=T, size=size, num_columns=columns)
        return make_private_np_mean(domain, symmetric_distance(), scale, norm=norm, p=p,
                                    origin=origin_array)  # fmt: skip
    domain = array2_domain(norm=norm, p=p, origin=origin_array, T=T, size=size, num_columns=columns)
    return make_private_np_mean(domain, symmetric_distance(), scale, p=p)


def _real(value) -> z3.ArithRef:
    value = Fraction(value)
    return z3.RealVal(f"{value.numerator}/{value.denominator}")


def instance(case, d_in: int) -> Obligation:
    """The obligation at one instance and ``d_in``: the code's map is below the composed bound
    (satisfiable exactly when the map is too small)."""
    from certdp.numpy._support.column_sum import depth
    from certdp.numpy._support.error_bounds import gamma, subnormal_half_spacing, unit_roundoff

    T, p, with_norm, norm, origin, size, columns, scale = case
    built = _build(*case)
    stated = built.map(d_in)
    sigma = Fraction(float(scale * size))
    origin_values = [Fraction(v) for v in (origin or [0.0] * columns)]

    def violation():
        r = z3.Real("origin_norm")
        if p == 1:
            norm_facts = [r == _real(sum(abs(v) for v in origin_values))]
        else:
            norm_facts = [r >= 0, r * r == _real(sum(v * v for v in origin_values))]
        reach = _real(norm) + r
        g = _real(gamma(depth(size), "f64"))
        if T == "f64":
            rho = g * size * reach
        else:
            relative = g + _real(unit_roundoff("f32")) * (1 + g)
            rho = relative * size * reach + columns * _real(subnormal_half_spacing("f32"))
        delta = (d_in // 2) * 2 * _real(norm) + 2 * rho
        if p == 1:
            bound = delta / _real(sigma)
        else:
            bound = delta * delta / (2 * _real(sigma) * _real(sigma))
        if stated == float("inf"):
            formula = z3.BoolVal(False)
        else:
            formula = z3.And(*norm_facts, _real(stated) < bound)

        def decode(m):
            return {"d_in": d_in, "map": stated, "bound": str(m.eval(bound, True))}

        return [(formula, decode)]

    origin_text = "" if origin is None else f" origin={origin}"
    return Obligation(
        constructor=_NAME,
        claim=f"{T} p={p} {'norm=' if with_norm else 'domain norm '}{norm}{origin_text} "
        f"n={size} k={columns} scale={scale} d_in={d_in}: map >= composed bound",
        format=T,
        size=size,
        violation=violation,
        confirm=lambda example: f"code: map({d_in}) = {stated!r}",
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [instance(case, d_in) for case in INSTANCES for d_in in _D_INS]


MODELLED = {_NAME: ["numpy/private_np_mean/make_private_np_mean.py"]}

REQUIRES = {_NAME: ["make_np_sum", "make_np_clamp", "make_laplace", "make_gaussian"]}

SCOPE = {
    _NAME: Scope(
        formats=("f32", "f64", "real"),
        sizes=tuple(sorted({case[5] for case in INSTANCES})),
        bound_to_code="the real make_private_np_mean is built at each instance and its own "
        "map is called at each d_in; the bound is computed from the arguments",
        abstractions=("the composed bound of the proof (make_np_sum's sensitivity with its "
                      "rounding allowance, then Laplace Delta/sigma or Gaussian "
                      "Delta^2/(2 sigma^2)) in exact reals, ||O||_2 as an exact real root",),
        assumed=("the triples of make_np_clamp, make_np_sum, make_laplace, make_gaussian, "
                 "chaining and postprocessing (their own proofs and models; REQUIRES)",),
        instances=f"{len(INSTANCES)} parameter settings x d_in in {_D_INS}",
    )
}  # fmt: skip

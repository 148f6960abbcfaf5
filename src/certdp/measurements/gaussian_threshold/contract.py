"""Contract of ``make_gaussian_threshold``: the theorem of make_gaussian_threshold.tex,
executable.

At run time the map's pair ``(rho, delta)`` is checked against the postcondition exactly
(sympy): ``rho >= q / (2 scale^2)`` and ``delta >= 1 - (1 - P[Z >= |threshold| - linf'])^l0``,
where the tail of ``Z ~ N_Z(0, scale^2)`` is replaced by a lower bound computed here
independently of the code (a finite sum of the mass function over a Poisson-summation upper
bound of the normaliser), so a stated delta below it is below the exact one. At test time
:meth:`GaussianThresholdContract.verify` draws small neighbouring maps and checks ``delta``
against a lower bound of the probability that a key of one side only is released (the event
OpenDP 0.16 under-counts, as for the Laplace threshold, #2922).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import Precondition, PrivacyViolation, as_rational, at_least
from certdp.core.domains import AtomDomain, atom_domain
from certdp.core.errors import ContractError
from certdp.core.map_domain import MapDomain, map_domain
from certdp.core.measures import ApproximateDivergence, ZeroConcentratedDivergence
from certdp.core.metrics import AbsoluteDistance, absolute_distance
from certdp.core.partition_metrics import L0PInfDistance, l02inf_distance
from certdp.measurements._threshold.float_contract import (
    float_case,
    float_domain_ok,
    float_k_ok,
    float_threshold_ok,
    grid_view,
)
from certdp.measurements.laplace_threshold.contract import ThresholdContract

from .make_gaussian_threshold import make_gaussian_threshold

L0, L2, LINF = sympy.symbols("l_0 l_2 l_inf", nonnegative=True)
SCALE = sympy.Symbol("scale", positive=True)
THRESHOLD = sympy.Symbol("threshold", integer=True)
_Z = sympy.Symbol("z", integer=True)
_M = sympy.floor(LINF)
_Q = sympy.Min(sympy.floor(L2**2), _M**2 * L0)
_LINF_REDUCED = sympy.Min(_M, sympy.floor(sympy.sqrt(_Q)))
_MASS = sympy.exp(-(_Z**2) / (2 * SCALE**2))
_TAIL = sympy.Sum(_MASS, (_Z, sympy.Abs(THRESHOLD) - _LINF_REDUCED, sympy.oo)) / sympy.Sum(
    _MASS, (_Z, -sympy.oo, sympy.oo)
)
#: The postcondition for scale > 0 (rendered on the docs page; the runtime check is
#: :meth:`GaussianThresholdContract.check_map_value`, which bounds the tail from below).
BOUND = sympy.Tuple(_Q / (2 * SCALE**2), 1 - (1 - _TAIL) ** L0)

SYMBOL_MEANINGS = {
    "l_0": "the first component of ``d_in``: how many keys may differ (a key of one side only "
    "counts)",
    "l_2": "the second component of ``d_in``: the l2 norm over keys of the change of the value",
    "l_inf": "the third component of ``d_in``: the largest change of one key's value",
    "threshold": "the ``threshold`` argument: a key is released when its noisy value is at "
    "least it (at most it, for a negative threshold)",
    "z": "the summation index: an integer value of the noise",
}

#: Terms of the mass function summed in the lower bound of a tail.
TERMS = 24


def _sigma(scale: Fraction) -> sympy.Rational:
    return sympy.Rational(scale.numerator, scale.denominator)


def tail_lower(scale: Fraction, t: int) -> sympy.Expr:
    """A sympy number ``<= P[Z >= t]``, ``Z ~ N_Z(0, scale^2)``, ``scale > 0``, any integer
    ``t``: ``TERMS`` terms of the mass function from ``t`` (from 0 and the symmetric ones for
    ``t < 0``) over an upper bound of the normaliser (Poisson summation: ``N = sigma sqrt(2
    pi) sum_k exp(-2 pi^2 sigma^2 k^2) <= sigma sqrt(2 pi) (1 + 2 w / (1 - w))``, ``w =
    exp(-2 pi^2 sigma^2)``)."""
    sigma = _sigma(scale)
    s = 2 * sigma**2
    w = sympy.exp(-2 * sympy.pi**2 * sigma**2)
    normaliser = sigma * sympy.sqrt(2 * sympy.pi) * (1 + 2 * w / (1 - w))
    start = max(t, -TERMS)
    masses = [sympy.exp(-sympy.Integer(z * z) / s) for z in range(start, start + 2 * TERMS)]
    return sympy.Add(*masses) / normaliser


def closed_form(scale: Fraction, threshold: int, d_in) -> tuple | None:
    """Lower bounds ``(rho, delta)`` of the postcondition at the exact triple ``d_in``, or
    ``None`` where the map must raise (``linf' > |threshold|``)."""
    l0, l2, linf = d_in
    m = math.floor(linf)
    q = min(math.floor(Fraction(l2) ** 2), m * m * l0)
    linf = min(m, math.isqrt(q))
    reach = abs(threshold)
    if l0 == 0:
        return sympy.Integer(0), sympy.Integer(0)
    if scale == 0:
        if q > 0:
            return sympy.oo, sympy.Integer(1)
        return sympy.Integer(0), sympy.Integer(0 if reach > 0 else 1)
    if linf > reach:
        return None
    sigma = _sigma(scale)
    p = tail_lower(scale, reach - linf)
    return sympy.Rational(q) / (2 * sigma**2), 1 - (1 - p) ** l0


def survival_lower(scale: Fraction, threshold: int, value: int) -> sympy.Expr:
    """A lower bound of the probability that ``value + Z`` passes the release's test."""
    t = threshold - value if threshold >= 0 else value - threshold
    return tail_lower(scale, t)


def arguments():
    T = st.sampled_from(["i32", "i64", "u32", "i8"])
    return T.flatmap(
        lambda T: st.fixed_dictionaries(
            {
                "input_domain": st.just(map_domain(atom_domain(T="String"), atom_domain(T=T))),
                "input_metric": st.sampled_from(
                    [
                        l02inf_distance(absolute_distance(T=T)),
                        l02inf_distance(absolute_distance(T="f64")),
                    ]
                ),
                "scale": st.sampled_from([0.0, 0.5, 1.0, 2.5, 7.0]),
                "threshold": st.integers(-10 if T != "u32" else 0, 10),
            }
        )
    )


@dataclass
class GaussianThresholdContract(ThresholdContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        if float_case(arguments):
            view = grid_view(arguments, d_in, p=2)
            bound = None if view is None else closed_form(*view)
        else:
            bound = closed_form(Fraction(arguments.scale), arguments.threshold, d_in)
        if bound is None:
            raise ContractError(
                f"{self.name}: map({d_in}) returned {d_out!r} where the proof says it raises",
                condition="privacy-map",
            )
        ok = (
            type(d_out) is tuple
            and len(d_out) == 2
            and at_least(d_out[0], bound[0])
            and at_least(d_out[1], bound[1])
            and at_least(1, d_out[1])
        )
        if not ok:
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r} is below the proof's bound {bound}",
                condition="privacy-map",
            )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        """``delta`` against a lower bound of the probability that a key of one side only is
        released."""
        scale = Fraction(kwargs["scale"])
        threshold = kwargs["threshold"]
        worst = sympy.Integer(0)
        for one, other in ((x, x_prime), (x_prime, x)):
            alone = [value for key, value in one.items() if key not in other]
            if not alone:
                continue
            if scale == 0:
                passes = [(v >= threshold) if threshold >= 0 else (v <= threshold) for v in alone]
                released = sympy.Integer(1 if any(passes) else 0)
            else:
                kept = sympy.Integer(1)
                for value in alone:
                    kept *= 1 - survival_lower(scale, threshold, value)
                released = 1 - kept
            if at_least(released, worst):
                worst = released
        if not at_least(stated[1], worst):
            raise PrivacyViolation(
                x=x,
                x_prime=x_prime,
                d_in=d_in,
                divergence=(None, worst),
                d_out_stated=stated,
                witness="a key of one side only is released",
            )
        if stated[1] == 0:
            return 0.0
        return float(worst.evalf(20) / as_rational(stated[1]))


def _measure_ok(MO) -> bool:
    return MO == "Approximate<ZeroConcentratedDivergence>" or (
        isinstance(MO, ApproximateDivergence) and type(MO.measure) is ZeroConcentratedDivergence
    )


def _metric_ok(a) -> bool:
    metric, domain = a.input_metric, a.input_domain
    return (
        isinstance(metric, L0PInfDistance)
        and metric.p == 2
        and type(metric.inner) is AbsoluteDistance
        and (metric.inner.T == domain.value_domain.T or metric.inner.T.is_float)
    )


def _threshold_ok(a) -> bool:
    if float_case(a):
        return float_threshold_ok(a)
    T = a.input_domain.value_domain.T
    return type(a.threshold) is int and T.min <= a.threshold <= T.max


CONTRACT = GaussianThresholdContract(
    constructor=make_gaussian_threshold,
    preconditions=[
        Precondition(
            "output-measure-approximate-zcdp",
            lambda a: _measure_ok(a.MO),
            "MO must be Approximate<ZeroConcentratedDivergence>",
            parameter="MO",
        ),
        Precondition(
            "input-domain-map-of-integers",
            lambda a: (
                float_domain_ok(a)
                or isinstance(a.input_domain, MapDomain)
                and type(a.input_domain.value_domain) is AtomDomain
                and a.input_domain.value_domain.T.is_integer
            ),
            "input_domain must be map_domain(key_domain, atom_domain(T=<integer type>)) or of a "
            "NaN-free float type",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-l02inf-absolute",
            _metric_ok,
            "input_metric must be l02inf_distance(absolute_distance(T)) of the value type or a "
            "float type",
            parameter="input_metric",
        ),
        Precondition(
            "scale-finite-non-negative",
            lambda a: (
                isinstance(a.scale, (int, float, Fraction))
                and not isinstance(a.scale, bool)
                and math.isfinite(a.scale)
                and a.scale >= 0
            ),
            "scale must be a finite number >= 0",
            parameter="scale",
        ),
        Precondition(
            "k-none-or-zero",
            lambda a: (
                float_k_ok(a) if float_case(a) else a.k is None or (type(a.k) is int and a.k == 0)
            ),
            "k must be None or 0 (integer values), None or an integer in [K_MIN, K_MAX] (floats)",
            parameter="k",
        ),
        Precondition(
            "threshold-integer-of-T",
            _threshold_ok,
            "threshold must be an integer of the value type (a finite value >= 0 of a float type)",
            parameter="threshold",
        ),
    ],
    bound=BOUND,
    arguments=arguments,
    divergence=None,
)

"""Exact output laws of the selection measurements on small score vectors, and the divergences
the contracts compare their maps with (sympy, exact).

* Gumbel noise (zCDP): the ranking of the ``m = min(k, n)`` noisy largest scores has the law of
  the exponential mechanism peeled ``m`` times: ``P(o) = prod_j w(o_j) / sum_{i not in o_<j}
  w(i)`` with ``w(i) = exp(sign x_i / scale)``.
* Exponential noise (max-divergence): permute-and-flip peeled ``m`` times; one round over the
  indices ``A`` left returns ``i`` with probability ``(1 / |A|!) sum_pi p_i prod_{j before i in
  pi} (1 - p_j)`` (``pi`` the orders of ``A``), ``p_j = exp(-(max_A - sign x_j) / scale)``.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition
from certdp.core.conversion import exact_scalar
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.measures import MaxDivergence, max_divergence, zero_concentrated_divergence
from certdp.core.partition_metrics import LInfDistance, linf_distance


def _rational(value) -> sympy.Rational:
    # exact_scalar reads every numeric form a score vector may hold (NumPy ints and floats,
    # np.longdouble exactly) as an int, float or Fraction
    q = Fraction(exact_scalar(value, "x"))
    return sympy.Rational(q.numerator, q.denominator)


def ranking_law(x, scale, k, negate, noise) -> dict:
    """The exact law (ranking -> sympy probability) of the release (the module docstring)."""
    sign = -1 if negate else 1
    scores = [sign * _rational(v) for v in x]
    n = len(scores)
    m = min(k, n)
    if m == 0:
        return {(): sympy.Integer(1)}
    if scale == 0:
        ranked = sorted(range(n), key=lambda i: (scores[i], i))[::-1]
        outcome = tuple(ranked[:m])
        return {outcome: sympy.Integer(1)}
    s = _rational(scale)
    top = max(scores)
    if noise == "gumbel":
        weight = [sympy.exp((v - top) / s) for v in scores]
        law = {}
        for outcome in itertools.permutations(range(n), m):
            p, left = sympy.Integer(1), set(range(n))
            for i in outcome:
                p *= weight[i] / sum(weight[j] for j in left)
                left.discard(i)
            law[outcome] = p
        return law
    law = {}
    for outcome in itertools.permutations(range(n), m):
        p, left = sympy.Integer(1), list(range(n))
        for i in outcome:
            p *= _permute_and_flip(scores, left, s)[i]
            left.remove(i)
        law[outcome] = p
    return law


def _permute_and_flip(scores, alive, s) -> dict:
    """The exact law of one permute-and-flip round over the indices ``alive``."""
    top = max(scores[i] for i in alive)
    accept = {i: sympy.exp((scores[i] - top) / s) for i in alive}
    law = {i: sympy.Integer(0) for i in alive}
    for order in itertools.permutations(alive):
        rejected = sympy.Integer(1)
        for i in order:
            law[i] += rejected * accept[i] / math.factorial(len(alive))
            rejected *= 1 - accept[i]
    return law


def pure_divergence(law: dict, law_prime: dict):
    """``(D, witness)``: the larger max-divergence of the two directions and an outcome at it."""
    best, witness = sympy.Integer(0), None
    if law == law_prime:  # equal datasets: the same expressions, divergence exactly 0
        return best, witness
    for outcome in set(law) | set(law_prime):
        a, b = law.get(outcome, 0), law_prime.get(outcome, 0)
        zero_a, zero_b = a == 0, b == 0  # absent outcomes are 0; the others exp products
        if zero_a and zero_b:
            continue
        if zero_a or zero_b:
            return sympy.oo, outcome
        # the common factor of the two probabilities cancels before the log is taken: sympy
        # cannot always tell that log(A e^u) - log(A e^v) - (u - v) is an exact zero
        gap = abs(sympy.log(sympy.factor_terms(a) / sympy.factor_terms(b)))
        if float(gap) >= float(best):
            best, witness = gap, outcome
    return best, witness


#: The Rényi orders at which the zCDP contract evaluates ``D_alpha / alpha``.
ALPHAS = (sympy.Rational(3, 2), sympy.Integer(2), sympy.Integer(3), sympy.Integer(6))


def zcdp_divergence(law: dict, law_prime: dict):
    """``(rho, witness)``: the largest ``D_alpha(P || Q) / alpha`` over :data:`ALPHAS` and both
    directions (a lower bound of the least rho the pair needs)."""
    best, witness = sympy.Integer(0), None
    if law == law_prime:  # equal datasets: the same expressions, divergence exactly 0
        return best, witness
    outcomes = set(law) | set(law_prime)
    for p_law, q_law, direction in ((law, law_prime, "P||Q"), (law_prime, law, "Q||P")):
        for alpha in ALPHAS:
            total = sympy.Integer(0)
            for outcome in outcomes:
                p, q = p_law.get(outcome, 0), q_law.get(outcome, 0)
                if p == 0:
                    continue
                if q == 0:
                    return sympy.oo, (direction, alpha, outcome)
                total += p**alpha * q ** (1 - alpha)
            value = sympy.log(total) / (alpha - 1) / alpha
            if float(value) >= float(best):
                best, witness = value, (direction, alpha)
    return best, witness


# -- the contracts' shared parts ------------------------------------------------------------

K = sympy.Symbol("k", positive=True, integer=True)
SCALE = sympy.Symbol("scale", nonnegative=True)
FACTOR = sympy.Symbol("R", positive=True)
ZCDP = sympy.Symbol("zcdp", nonnegative=True, integer=True)

#: The proof's map: 0 at d_in = 0, +oo at scale = 0, else k R d_in / scale (max-divergence) or
#: k (R d_in / scale)^2 / 8 (zCDP), R = 1 for a monotonic metric and 2 otherwise.
BOUND = sympy.Piecewise(
    (0, sympy.Eq(D_IN, 0)),
    (sympy.oo, sympy.Eq(SCALE, 0)),
    (K * (FACTOR * D_IN / SCALE) ** 2 / 8, sympy.Eq(ZCDP, 1)),
    (K * FACTOR * D_IN / SCALE, True),
)

SYMBOL_MEANINGS = {
    "k": "the number ``k`` of indices released (1 for noisy max)",
    "scale": "the noise scale ``scale``",
    "R": "1 for ``linf_distance(monotonic=True)``, 2 otherwise",
    "zcdp": "1 under ``zero_concentrated_divergence()``, 0 under ``max_divergence()``",
}


def parameters(arguments, k=None):
    """The symbol values of :data:`BOUND` for a call's arguments."""
    measure = getattr(arguments, "output_measure", max_divergence())
    return {
        K: arguments.k if k is None else k,
        SCALE: Fraction(arguments.scale),
        FACTOR: 1 if arguments.input_metric.monotonic else 2,
        ZCDP: 0 if isinstance(measure, MaxDivergence) else 1,
    }


def spaces():
    """Small bounded score spaces (so the exact laws stay small), int and float, both flags."""
    domains = st.sampled_from(
        [
            ("i32", atom_domain(bounds=(-3, 3), T="i32")),
            ("f64", atom_domain(bounds=(-3.0, 3.0), T="f64")),
        ]
    )
    return st.tuples(domains, st.booleans()).map(
        lambda pair: (vector_domain(pair[0][1]), linf_distance(T=pair[0][0], monotonic=pair[1]))
    )


SCALES = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])
MEASURES = st.sampled_from([max_divergence(), zero_concentrated_divergence()])


def divergence_of(built, kwargs, x, x_prime, *, k, negate, measure, first_only):
    """The divergence the contract compares with the map (the module docstring)."""
    noise = "exponential" if isinstance(measure, MaxDivergence) else "gumbel"
    laws = [ranking_law(v, Fraction(kwargs["scale"]), k, negate, noise) for v in (x, x_prime)]
    if first_only:
        laws = [{o[0] if o else None: p for o, p in law.items()} for law in laws]
    if noise == "exponential":
        return pure_divergence(*laws)
    return zcdp_divergence(*laws)


def common_preconditions(with_measure: bool) -> list[Precondition]:
    """The preconditions the three constructors share (ids as in the proofs)."""

    def domain_ok(a):
        d = a.input_domain
        return (
            isinstance(d, VectorDomain)
            and isinstance(d.element_domain, AtomDomain)
            and (d.element_domain.T.is_integer or d.element_domain.T.is_float)
            and not (d.element_domain.T.is_float and d.element_domain.nan)
        )

    found = [
        Precondition(
            "scores-domain",
            domain_ok,
            "input_domain must be vector_domain(atom_domain(T=<int or float>, nan=False))",
            parameter="input_domain",
        ),
        Precondition(
            "linf-metric",
            lambda a: (
                isinstance(a.input_metric, LInfDistance)
                and a.input_metric.T == a.input_domain.element_domain.T
            ),
            "input_metric must be linf_distance of the element type",
            parameter="input_metric",
        ),
        Precondition(
            "scale-finite",
            lambda a: (
                not isinstance(a.scale, bool)
                and isinstance(a.scale, (int, float, Fraction))
                and math.isfinite(a.scale)
                and a.scale >= 0
            ),
            "scale must be a finite number >= 0",
            parameter="scale",
        ),
    ]
    if with_measure:
        found.append(
            Precondition(
                "selection-measure",
                lambda a: (
                    type(a.output_measure).__name__
                    in ("MaxDivergence", "ZeroConcentratedDivergence")
                ),
                "output_measure must be max_divergence() or zero_concentrated_divergence()",
                parameter="output_measure",
            )
        )
    return found

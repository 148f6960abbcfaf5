"""What the contract of the Gaussian measurement needs: the closed-form bound, the exact
zero-concentrated divergence between two output distributions, and argument strategies.

For discrete Gaussians of one scale ``sigma`` (in grid steps) centred at integers ``c`` and
``c'``, ``exp(-a (z-c)^2 / s) exp(-(1-a) (z-c')^2 / s)`` with ``s = 2 sigma^2`` equals
``exp(-(z-m)^2 / s) exp(a (a-1) (c-c')^2 / s)`` with ``m = a c + (1-a) c'`` (sympy checks this
polynomial identity exactly).  Hence ``D_alpha = alpha D^2 / s + ln(theta(m) / theta(0)) /
(alpha - 1)`` with ``theta(m) = sum_z exp(-(z-m)^2 / s) <= theta(0)``; at ``alpha = 2`` the
shift ``m`` is an integer and ``theta(m) = theta(0)``, so ``sup_alpha D_alpha / alpha`` is
exactly ``D^2 / (2 sigma^2)``, summed over independent coordinates.  That rational is the
divergence returned; mpmath cross-checks ``D_2`` and a non-integer order by summing the pmf.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy
from hypothesis import strategies as st
from mpmath.libmp import from_int, mpf_sqrt, to_man_exp

from certdp.contracts.contract import D_IN, as_rational
from certdp.core.domains import VectorDomain, atom_domain, vector_domain
from certdp.core.errors import ContractError
from certdp.core.metrics import absolute_distance, l2_distance
from certdp.measurements._laplace.contract_support import grid_index, scales
from certdp.measurements._laplace.discretization import K_MAX, K_MIN

__all__ = [
    "SCALE",
    "RELAXATION",
    "GAUSSIAN_BOUND",
    "gaussian_parameters",
    "gaussian_divergence",
    "sqrt_up",
    "arguments",
]

SCALE = sympy.Symbol("scale", nonnegative=True)
RELAXATION = sympy.Symbol("relaxation", nonnegative=True)

#: The proof's closed form: (d_in + relaxation)^2 / (2 scale^2), with its two edge cases.
GAUSSIAN_BOUND = sympy.Piecewise(
    (0, sympy.Eq(D_IN + RELAXATION, 0)),
    (sympy.oo, sympy.Eq(SCALE, 0)),
    ((D_IN + RELAXATION) ** 2 / (2 * SCALE**2), True),
)


def sqrt_up(n: int) -> Fraction:
    """The smallest 53-bit binary float >= sqrt(n), from mpmath's directed rounding."""
    mantissa, exponent = to_man_exp(mpf_sqrt(from_int(n), 53, "u"))
    return Fraction(mantissa) * Fraction(2) ** exponent


def _float_type(domain):
    atom = domain.element_domain if isinstance(domain, VectorDomain) else domain
    return atom.T.name if atom.T.is_float else None


def gaussian_parameters(arguments, built) -> dict:
    """Exact values of the bound's symbols, computed from the arguments (not from the code)."""
    domain = arguments.input_domain
    T = _float_type(domain)
    relaxation = Fraction(0)
    if T is not None:
        k = K_MIN[T] if arguments.k is None else int(arguments.k)
        per_element = Fraction(2) ** k - Fraction(2) ** K_MIN[T]
        if per_element:
            size = domain.size if isinstance(domain, VectorDomain) else 1
            relaxation = per_element * sqrt_up(size)
    return {SCALE: Fraction(arguments.scale), RELAXATION: relaxation}


@lru_cache(maxsize=1)
def _completing_the_square_holds() -> bool:
    z, a, c, c_prime, s = sympy.symbols("z a c c_prime s")
    m = a * c + (1 - a) * c_prime
    left = -a * (z - c) ** 2 / s - (1 - a) * (z - c_prime) ** 2 / s
    right = -((z - m) ** 2) / s + a * (a - 1) * (c - c_prime) ** 2 / s
    return sympy.simplify(sympy.expand(left - right)) == 0


def _renyi_numeric(order, centre, centre_prime, sigma) -> mpmath.mpf:
    """D_order(N_Z(centre, sigma^2) || N_Z(centre_prime, sigma^2)) by summing the pmf."""
    with mpmath.workdps(60):
        s = 2 * (mpmath.mpf(sigma.numerator) / sigma.denominator) ** 2
        reach = int(40 * sigma) + 40
        # the summand is a Gaussian centred at order*centre + (1-order)*centre_prime, which for
        # order > 1 lies outside [centre, centre_prime]: the window must reach around it too
        mixture = order * centre + (1 - order) * centre_prime
        low = min(centre, centre_prime, int(mpmath.floor(mixture))) - reach
        high = max(centre, centre_prime, int(mpmath.ceil(mixture))) + reach
        norm = mpmath.fsum(mpmath.exp(-(mpmath.mpf(y) ** 2) / s) for y in range(-reach, reach + 1))
        total = mpmath.fsum(
            mpmath.exp(
                -order * mpmath.mpf(z - centre) ** 2 / s
                - (1 - order) * mpmath.mpf(z - centre_prime) ** 2 / s
            )
            for z in range(low, high + 1)
        )
        return mpmath.log(total / norm) / (order - 1)


def _cross_check(centre, centre_prime, sigma: Fraction) -> None:
    """mpmath: D_2 equals 2 D^2 / (2 sigma^2) and D_{3/2} <= (3/2) D^2 / (2 sigma^2)."""
    if sigma > 60 or abs(centre - centre_prime) > 60 or sigma < Fraction(1, 8):
        return  # the windowed sum would be too long, or its terms underflow the precision
    with mpmath.workdps(60):
        difference = mpmath.mpf(centre - centre_prime)
        rho = difference**2 / (2 * (mpmath.mpf(sigma.numerator) / sigma.denominator) ** 2)
        d2 = _renyi_numeric(2, centre, centre_prime, sigma)
        d15 = _renyi_numeric(mpmath.mpf(3) / 2, centre, centre_prime, sigma)
        tolerance = mpmath.mpf(10) ** -40 * (1 + rho)
        refuted = abs(d2 - 2 * rho) > tolerance or d15 > mpmath.mpf(3) / 2 * rho + tolerance
    if refuted:
        raise ContractError(
            f"Rényi divergences of N_Z({centre}) and N_Z({centre_prime}), sigma {sigma}: "
            f"D_2 = {d2} (expected {2 * rho}), D_1.5 = {d15} (at most {1.5 * rho})",
            condition="renyi-cross-check",
        )


def gaussian_divergence(built, kwargs, x, x_prime):
    """The exact zero-concentrated divergence between the noisy grid points on ``x`` and
    ``x_prime`` (the supremum over orders of D_alpha / alpha, attained at alpha = 2), and the
    order that attains it."""
    domain = kwargs["input_domain"]
    T = _float_type(domain)
    k = None if T is None else (K_MIN[T] if kwargs.get("k") is None else int(kwargs["k"]))
    step = Fraction(1) if T is None else Fraction(2) ** k
    scale = Fraction(kwargs["scale"])
    vector = isinstance(domain, VectorDomain)
    values, values_prime = (x, x_prime) if vector else ([x], [x_prime])
    if len(values) != len(values_prime):
        return sympy.oo, None
    centres = [grid_index(value, T, k) for value in values]
    centres_prime = [grid_index(value, T, k) for value in values_prime]
    if scale == 0:  # the output is the grid point itself
        return (sympy.Integer(0) if centres == centres_prime else sympy.oo), centres
    if not _completing_the_square_holds():
        raise ContractError("sympy refuted the completed square", condition="privacy-divergence")
    sigma = scale / step  # the scale in grid steps
    squared = sum((c - c_p) ** 2 for c, c_p in zip(centres, centres_prime))
    rho = as_rational(Fraction(squared) / (2 * sigma * sigma))
    if centres:
        farthest = max(range(len(centres)), key=lambda i: abs(centres[i] - centres_prime[i]))
        _cross_check(centres[farthest], centres_prime[farthest], sigma)
    return rho, {"alpha": 2}


@st.composite
def arguments(draw):
    """Valid arguments of make_gaussian: integer or float atoms and vectors."""
    T = draw(st.sampled_from(["i8", "i32", "i64", "u32", "f32", "f64"]))
    vector = draw(st.booleans())
    if T.startswith("f"):
        k = draw(
            st.one_of(
                st.none(), st.sampled_from([K_MIN[T], K_MIN[T] + 1, -60, -10, -2, 0, 1, K_MAX[T]])
            )
        )
        exact = k is None or k == K_MIN[T]
        bounded = draw(st.booleans())
        atom = atom_domain(bounds=(-8.0, 8.0), T=T) if bounded else atom_domain(T=T, nan=False)
    else:
        k = draw(st.sampled_from([None, 0]))
        exact = True
        bounded = draw(st.booleans())
        atom = atom_domain(bounds=(0, 20), T=T) if bounded else atom_domain(T=T)
    if vector:
        size = draw(st.one_of(st.none(), st.integers(0, 5)) if exact else st.integers(0, 5))
        domain, metric = vector_domain(atom, size=size), l2_distance(T=T)
    else:
        domain, metric = atom, absolute_distance(T=T)
    return {"input_domain": domain, "input_metric": metric, "scale": draw(scales()), "k": k}

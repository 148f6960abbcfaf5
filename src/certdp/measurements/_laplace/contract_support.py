"""What the contracts of the Laplace measurements share: the closed-form bound, the exact
max-divergence between two discrete Laplace output distributions, and argument strategies.

The divergence is computed from the probability mass function of
\\defref{discrete-laplace}, written in sympy: for every coordinate and every output
grid point ``z`` of a window around both centres, sympy must reduce
``ln(Pr[M(x) = z] / Pr[M(x') = z])`` to a rational number (the normalising
constants and ``exp``/``ln`` cancel).  The window contains a maximiser of each
coordinate's log-ratio, so the maximum found is the exact max-divergence of the
noisy grid points; the float rounding that follows is post-processing.
mpmath, at high precision, cross-checks the pmf values at the witness.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import sympy
from hypothesis import strategies as st
from sympy.core.evalf import PrecisionExhausted

from certdp.contracts.contract import D_IN, as_rational
from certdp.core.domains import VectorDomain
from certdp.core.errors import ContractError

from .discretization import K_MAX, K_MIN

__all__ = [
    "SCALE",
    "RELAXATION",
    "SIZE",
    "LAPLACE_BOUND",
    "laplace_parameters",
    "grid_index",
    "laplace_divergence",
    "log_likelihood_ratio",
    "pmf_cross_check",
    "scales",
    "grid_exponents",
]

SCALE = sympy.Symbol("scale", nonnegative=True)
RELAXATION = sympy.Symbol("relaxation", nonnegative=True)
SIZE = sympy.Symbol("size", nonnegative=True, integer=True)

#: The proof's closed form: (d_in + size * relaxation) / scale, with its two edge cases.
LAPLACE_BOUND = sympy.Piecewise(
    (0, sympy.Eq(D_IN + SIZE * RELAXATION, 0)),
    (sympy.oo, sympy.Eq(SCALE, 0)),
    ((D_IN + SIZE * RELAXATION) / SCALE, True),
)


def _is_vector(domain) -> bool:
    return isinstance(domain, VectorDomain)


def _float_type(domain):
    atom = domain.element_domain if _is_vector(domain) else domain
    return atom.T.name if atom.T.is_float else None


def laplace_parameters(arguments, built) -> dict:
    """Exact values of the bound's symbols, computed from the arguments (not from the code)."""
    domain = arguments.input_domain
    T = _float_type(domain)
    if T is None:
        relaxation, size = Fraction(0), 1
    else:
        k = K_MIN[T] if arguments.k is None else int(arguments.k)
        relaxation = Fraction(2) ** k - Fraction(2) ** K_MIN[T]
        size = (domain.size or 0) if _is_vector(domain) else 1
    return {SCALE: Fraction(arguments.scale), RELAXATION: relaxation, SIZE: size}


def grid_index(value, T, k: int) -> int:
    """The centre of the noise for one input element, recomputed independently of the code:
    ``floor(x / 2^k + 1/2)`` for floats (infinities clamped to the largest finite value),
    the value itself for integers."""
    if T is None:
        return int(value)
    largest = {"f64": 1.7976931348623157e308, "f32": 3.4028234663852886e38}[T]
    value = float(value)
    if math.isinf(value):
        value = math.copysign(largest, value)
    return math.floor(Fraction(value) / Fraction(2) ** k + Fraction(1, 2))


def _pmf(z: int, centre: int, inverse_scale: sympy.Rational) -> sympy.Expr:
    """Pr[DLap(centre, 1 / inverse_scale) = z], symbolically (exp left unevaluated)."""
    return (
        (sympy.exp(inverse_scale) - 1)
        / (sympy.exp(inverse_scale) + 1)
        * sympy.exp(-abs(z - centre) * inverse_scale)
    )


def log_likelihood_ratio(z: int, centre: int, centre_prime: int, inverse_scale) -> sympy.Rational:
    """``ln(Pr[DLap(centre) = z] / Pr[DLap(centre_prime) = z])``, which sympy must show rational."""
    value = sympy.log(_pmf(z, centre, inverse_scale) / _pmf(z, centre_prime, inverse_scale))
    if not value.is_Rational:
        value = sympy.simplify(value)
    if not value.is_Rational:
        raise ContractError(
            f"sympy did not reduce the log-likelihood ratio to a rational: {value}",
            condition="privacy-divergence",
        )
    return value


def pmf_cross_check(z: int, centre: int, inverse_scale) -> None:
    """mpmath at high precision must agree with sympy's evaluation of the same pmf value.

    The pmf is ``tanh(r / 2) * exp(-E)`` with ``r = 1 / b`` and ``E = |z - centre| * r``.
    ``exp(-E)`` to a relative error ``eps`` needs ``E`` to an absolute error ``eps``, so
    besides the digits of ``r`` the working precision covers the integer digits of ``E``
    (``E`` reaches ~2**1000 at the largest floats on fine grids); ``E`` is formed exactly
    before it is rounded once.  sympy is asked for 40 digits with ``strict=True``: it raises
    rather than return fewer.  Both are then accurate far beyond the 1e-30 compared.
    """
    expression = _pmf(z, centre, inverse_scale)
    p, q = int(sympy.Rational(inverse_scale).p), int(sympy.Rational(inverse_scale).q)
    bits = max(abs(p).bit_length(), q.bit_length())
    exponent = abs(z - centre) * Fraction(p, q)  # exact
    magnitude = max(exponent.numerator.bit_length() - exponent.denominator.bit_length(), 0)
    with mpmath.workprec(bits + magnitude + 256):
        ratio = mpmath.mpf(p) / mpmath.mpf(q)
        decay = mpmath.exp(-(mpmath.mpf(exponent.numerator) / mpmath.mpf(exponent.denominator)))
        reference = mpmath.expm1(ratio) / (mpmath.exp(ratio) + 1) * decay
        try:
            approximation = sympy.N(expression, 40, maxn=bits + magnitude + 400, strict=True)
        except PrecisionExhausted as error:
            raise ContractError(
                f"sympy could not evaluate the pmf of DLap({centre}, b) at {z} to 40 digits: "
                f"{error}",
                condition="pmf-cross-check",
            ) from error
        evaluated = mpmath.mpf(approximation)
        if reference == 0 or abs(evaluated / reference - 1) > mpmath.mpf(10) ** -30:
            raise ContractError(
                f"pmf value of DLap({centre}, b) at {z}: sympy {mpmath.nstr(evaluated, 25)} vs "
                f"mpmath {mpmath.nstr(reference, 25)}",
                condition="pmf-cross-check",
            )


def _window(centre: int, centre_prime: int) -> list[int]:
    low, high = min(centre, centre_prime), max(centre, centre_prime)
    return sorted({low - 1, low, (low + high) // 2, high, high + 1})


def laplace_divergence(built, kwargs, x, x_prime):
    """The exact max-divergence (both directions) between the noisy grid points on ``x`` and
    ``x_prime``, and an output that attains it."""
    domain = kwargs["input_domain"]
    T = _float_type(domain)
    k = None if T is None else (K_MIN[T] if kwargs.get("k") is None else int(kwargs["k"]))
    grid_step = Fraction(1) if T is None else Fraction(2) ** k
    scale = Fraction(kwargs["scale"])
    values, values_prime = (x, x_prime) if _is_vector(domain) else ([x], [x_prime])
    if len(values) != len(values_prime):
        return sympy.oo, None
    centres = [grid_index(value, T, k) for value in values]
    centres_prime = [grid_index(value, T, k) for value in values_prime]
    if scale == 0:  # the output is the grid point itself
        if centres == centres_prime:
            return sympy.Integer(0), centres
        return sympy.oo, centres
    inverse_scale = as_rational(grid_step / scale)  # 1 / b, b the scale in grid steps
    # per coordinate, the log-ratios over the window; D(M(x') || M(x)) uses their negatives
    ratios = [
        {
            z: log_likelihood_ratio(z, centre, centre_prime, inverse_scale)
            for z in _window(centre, centre_prime)
        }
        for centre, centre_prime in zip(centres, centres_prime)
    ]
    best, witness, sign = None, None, None
    for direction in (1, -1):
        chosen = [max(window, key=lambda z, w=window: direction * w[z]) for window in ratios]
        total = sum((direction * window[z] for window, z in zip(ratios, chosen)), sympy.Integer(0))
        if best is None or total > best:
            best, witness, sign = total, chosen, direction
    _check_witness(witness, centres, centres_prime, inverse_scale, sign * best)
    return best, witness


def _check_witness(witness, centres, centres_prime, inverse_scale, expected) -> None:
    """At the witness, the log of the joint likelihood ratio must reduce to the same rational,
    and mpmath must agree with sympy on the pmf values of the most distant coordinate."""
    if not witness:
        return
    joint = sympy.Integer(1)
    for z, centre, centre_prime in zip(witness, centres, centres_prime):
        joint *= _pmf(z, centre, inverse_scale) / _pmf(z, centre_prime, inverse_scale)
    log_joint = sympy.log(joint)
    if not (log_joint.is_Rational and log_joint == expected):
        raise ContractError(
            f"the joint log-likelihood ratio {log_joint} is not the rational {expected}",
            condition="privacy-divergence",
        )
    farthest = max(range(len(witness)), key=lambda i: abs(centres[i] - centres_prime[i]))
    pmf_cross_check(witness[farthest], centres[farthest], inverse_scale)
    pmf_cross_check(witness[farthest], centres_prime[farthest], inverse_scale)


def scales() -> st.SearchStrategy:
    """Noise scales: zero, simple values and arbitrary floats over six orders of magnitude."""
    return st.one_of(
        st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0, 0.1]),
        st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False),
    )


def grid_exponents(T: str) -> st.SearchStrategy:
    """Values of ``k``: the default, the finest grid, and coarse grids where rounding matters."""
    return st.one_of(
        st.none(),
        st.sampled_from([K_MIN[T], K_MIN[T] + 1, -60, -10, -2, 0, 1, 3, K_MAX[T]]),
    )

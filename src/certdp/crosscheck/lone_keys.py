"""The lone-key check of thresholded releases: a key that one input holds and its neighbour
does not is released with an exact probability on the first and never on the second, so the
target's delta at that distance must be at least that probability.

For a point with ``search == "lone-keys"`` and ``threshold = (scale, threshold, noise)``
(``noise`` is ``"laplace"`` or ``"gaussian"``), the pairs are ``x = {"a": v}``, ``x' = {}`` with ``v`` the lone
value furthest towards the threshold (``v = s * L`` for ``L = 0, 1, 2, 3``, ``L <= |threshold|``,
``s`` the threshold's sign); their distance is certdp's (``(1, L, L)``). The probability that
``v + Z`` passes the release's test (``>= threshold``, or ``<= threshold`` for a negative
one) is ``u^t / (1 + u)`` with ``t = |threshold| - L`` and ``u = exp(-1/scale)``, for ``Z``
the discrete Laplace noise the target documents (its sampler is checked by the noise check of
``make_laplace``); for the discrete Gaussian noise ``N_Z(0, scale^2)`` it is at least the
finite sum of the mass function over an upper bound of the normaliser that
make_gaussian_threshold's contract states (``tail_lower``). A claimed delta below a rational
lower bound of it is a violation: the event "the key is released" has (at least) that
probability on ``x`` and ``0`` on ``x'``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from .mapcheck import rational_lower_bound

__all__ = ["LoneKey", "lone_key_pairs", "check_lone_keys", "lone_key_script"]


@dataclass
class LoneKey:
    x: dict
    x_prime: dict
    d_in: tuple
    claimed: object
    exact: sympy.Expr
    lower: Fraction
    noise: str = "laplace"


def survival(scale, threshold: int, lone: int, noise: str = "laplace") -> sympy.Expr:
    """Exactly: ``P[Z >= |threshold| - lone]`` for ``Z ~ DLap(0, scale)``, ``lone <=
    |threshold|``; for ``noise == "gaussian"``, a lower bound of it for ``Z ~ N_Z(0,
    scale^2)``."""
    if noise == "gaussian":
        from certdp.measurements.gaussian_threshold.contract import tail_lower

        return tail_lower(Fraction(scale), abs(threshold) - lone)
    b = sympy.Rational(Fraction(scale).numerator, Fraction(scale).denominator)
    u = sympy.exp(-1 / b)
    return u ** (abs(threshold) - lone) / (1 + u)


def lone_key_pairs(threshold: int) -> list[tuple[dict, dict, tuple]]:
    """``(x, x', d_in)`` with one lone key of value ``s * L``, ``L = 0, ..., 3``."""
    sign = 1 if threshold >= 0 else -1
    return [
        ({"a": sign * lone}, {}, (1, lone, lone)) for lone in range(4) if lone <= abs(threshold)
    ]


def check_lone_keys(built, scale, threshold: int, noise: str = "laplace") -> list[LoneKey]:
    """The pairs whose claimed delta is below the exact probability that the lone key is
    released (compared exactly with a rational lower bound of that probability)."""
    found = []
    for x, x_prime, d_in in lone_key_pairs(threshold):
        try:
            claimed = built.map(d_in)
        except Exception:
            continue  # the target refuses this distance: it claims nothing
        if scale == 0:
            continue
        exact = survival(scale, threshold, d_in[2], noise)
        lower = rational_lower_bound(exact)
        delta = claimed[1] if isinstance(claimed, tuple) else None
        if delta is not None and lower is not None and Fraction(delta) < lower:
            found.append(LoneKey(x, x_prime, d_in, claimed, exact, lower, noise))
    return found


def lone_key_script(target: str, code: str, found: LoneKey, draws: int = 40000) -> str:
    """A script in the target's API: release ``x`` ``draws`` times and count how often the
    lone key is released; reproduced when the count is improbable (p < 1e-6, exact binomial
    tail) for a release probability at most the claimed delta."""
    label = "exact" if found.noise == "laplace" else "lower bound of the"
    return (
        "import math\nimport sys\n\n"
        f"import {target} as dp\n\n"
        'dp.enable_features("contrib")\n'
        f"built = {code}\nx = {found.x!r}\nx_prime = {found.x_prime!r}\n"
        f"d_in = {found.d_in!r}  # the distance of x and x_prime: one key on one side only\n"
        "epsilon, delta = built.map(d_in)\n"
        f"n = {draws}\n"
        'k = sum("a" in built(x) for _ in range(n))\n'
        "\n\ndef upper_tail(n, k, p):\n"
        "    if p <= 0:\n        return 0.0 if k > 0 else 1.0\n"
        "    if p >= 1:\n        return 1.0\n"
        "    terms = (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)"
        " + i * math.log(p) + (n - i) * math.log1p(-p) for i in range(k, n + 1))\n"
        "    return math.fsum(math.exp(t) for t in terms)\n\n\n"
        "p_value = upper_tail(n, k, delta)\n"
        'print(f"map{d_in} = {(epsilon, delta)!r}; the key of x alone was released {k} times '
        'in {n} ({k / n:.4%}); on x_prime it never can be")\n'
        f'print("{label} release probability {float(found.exact):.6g} (certdp\'s lemma)")\n'
        "over = p_value < 1e-6\n"
        'print(f"P[at least {k} releases | probability {delta!r}] = {p_value:.3g}")\n'
        'print("REPRODUCED: the key is released more often than the claimed delta" if over '
        'else "not reproduced")\n'
        "sys.exit(1 if over else 0)\n"
    )

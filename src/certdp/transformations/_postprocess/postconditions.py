"""Executable postconditions of ``make_cdf`` (binary64 or binary32, checked with exact
rationals) and of ``make_quantiles_from_counts`` with ``interpolation="nearest"``.

``cdf_postcondition(x, out, TA)`` holds when ``out[i]`` is ``round(c_i / c_{n-1})`` with
``c_0 = round(0 + round(x_0))`` and ``c_i = round(c_{i-1} + round(x_i))``, every ``round`` the
rounding of an exact rational to the nearest value of the format ``TA`` (ties to even): the
IEEE semantics of the proof's formula, replayed here from ``Fraction`` values, independently of
the code's NumPy arithmetic.  Only finite results with a non-zero total are checked (a zero or
infinite total is IEEE's NaN or infinity, which the tests compare with OpenDP's output); NaN in
``x`` is refused by ``make_cdf``, and the check is ``False`` on it.

``nearest_quantiles_postcondition(edges, counts, alphas, out)``: on any counts, one output per
alpha, each an edge, not decreasing with alpha; on non-negative counts with a positive total
(in the formats' normal range), each output is also a nearest edge of an exact alpha'-quantile
bin for some alpha' within the rounding allowance ``delta`` of alpha.  Not an audit row: a
Function has no map, so the audit's contract template (a stability bound) does not apply.

``consistent_tree_postcondition(tree, b, out, TOA)`` holds when ``out`` has the length
consistent_b_ary_tree.tex states (the present leaves, ``m - N(L-1)`` of ``m`` nodes) and each
value is, bit for bit, the leaf the theorem's IEEE steps give (its (1) padding and zero nodes,
(2) bottom-up inverse-variance weighting, (3) top-down apportioning of each parent's
difference), replayed with ``Fraction`` values rounded by ``round_to_format`` after every
operation, infinities and NaN by IEEE's rules, independently of the code's NumPy scalars.
Without step (3) the leaves would not add up to their consistent parents: the check sees it.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "round_binary64",
    "round_to_format",
    "cdf_expected",
    "cdf_postcondition",
    "nearest_admissible",
    "nearest_quantiles_postcondition",
    "consistent_tree_expected",
    "consistent_tree_postcondition",
]

#: (precision p, least normal exponent, greatest exponent) of the IEEE formats.
_FORMATS = {"f64": (53, -1022, 1023), "f32": (24, -126, 127)}


def round_binary64(value: Fraction) -> float:
    """The binary64 nearest to ``value`` (ties to even; ``OverflowError`` beyond the range):
    CPython's int true division rounds correctly."""
    return value.numerator / value.denominator


def round_to_format(value: Fraction, TA: str) -> Fraction:
    """The value of the format ``TA`` nearest to ``value`` (ties to even, subnormals kept), by
    integer arithmetic; ``OverflowError`` where IEEE rounds to an infinity."""
    p, emin, emax = _FORMATS[TA]
    if value == 0:
        return Fraction(0)
    magnitude = abs(value)
    e = max(magnitude.numerator.bit_length() - magnitude.denominator.bit_length(), emin)
    while Fraction(2) ** e > magnitude and e > emin:
        e -= 1
    while Fraction(2) ** (e + 1) <= magnitude:
        e += 1
    scaled = magnitude / Fraction(2) ** (e - p + 1)  # in [2**(p-1), 2**p) unless subnormal
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * rest
    if twice > scaled.denominator or (twice == scaled.denominator and whole % 2):
        whole += 1
    result = whole * Fraction(2) ** (e - p + 1)
    if result > (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax:
        raise OverflowError(f"beyond the range of {TA}")
    return result if value > 0 else -result


def cdf_expected(x: list[float], TA: str = "f64") -> list[float] | None:
    """The CDF of the finite floats ``x`` in the format ``TA`` by the formula above, or
    ``None`` when an intermediate is not finite or the total is zero (outside this check)."""
    total, cumulative = Fraction(0), []
    try:
        for value in x:
            entry = round_to_format(Fraction(value), TA)
            total = round_to_format(total + entry, TA)
            cumulative.append(total)
        if total == 0:
            return None
        return [float(round_to_format(c / total, TA)) for c in cumulative]
    except OverflowError:
        return None


def cdf_postcondition(x: list[float], out: list[float], TA: str = "f64") -> bool:
    """Does ``out`` hold the ``TA`` CDF of ``x`` (exact comparison, ``-0.0 == 0.0``)?
    ``False`` when ``x`` holds a NaN or ``TA`` is not f32 or f64; ``True`` where the check does
    not apply (``cdf_expected`` is ``None``: an infinite or zero total)."""
    if TA not in _FORMATS or any(type(v) is float and math.isnan(v) for v in x):
        return False
    expected = cdf_expected(x, TA)
    if expected is None:
        return True
    return len(out) == len(expected) and all(
        math.isfinite(o) and o == e for o, e in zip(out, expected)
    )


def nearest_admissible(cumulative: list[Fraction], alpha: Fraction) -> set[int]:
    """The edge indices that are exact nearest alpha-quantiles: for every bin ``k`` with
    ``C_{k-1} <= alpha <= C_k`` (``C_{-1} = 0``, ``C`` the exact cdf), ``k`` if alpha is nearer
    ``C_{k-1}``, ``k + 1`` if nearer ``C_k``, both at a tie."""
    result, left = set(), Fraction(0)
    for k, right in enumerate(cumulative):
        if left <= alpha <= right:
            if alpha - left <= right - alpha:
                result.add(k)
            if alpha - left >= right - alpha:
                result.add(k + 1)
        left = right
    return result


def nearest_quantiles_postcondition(
    edges: list, counts: list, alphas: list, out: list, TA: str | None = None, F: str = "f64"
) -> bool:
    """Is ``out`` a valid output of ``make_quantiles_from_counts(edges, alphas, "nearest",
    TA, F)`` on ``counts`` (one more count than edges: the outer two dropped)?

    Always: one output per alpha, each one of ``edges``, not decreasing with alpha (the code's
    bin indices do not decrease, whatever the counts' signs).  On counts all ``>= 0`` whose
    exact total lies in ``[2**-120, 2**100]`` (normal in f32 and f64, with room) and, for a
    float ``TA``, of at most ``2**16`` counts, also: each output's index lies between the
    least exact answer (``nearest_admissible``) at ``alpha - delta`` and the greatest at
    ``alpha + delta``, with ``delta = (2 m + 8) u``, ``m`` the number of counts and ``u`` the
    unit roundoff of ``F`` and of a float ``TA`` (the rounding of the running sums, of the
    quotients and of the two differences the code compares).  ``TA`` defaults to f64 for float
    counts and to an exact integer sum otherwise."""
    edges = [Fraction(e) for e in edges]
    values = []
    for v in out:
        if type(v) is float and not math.isfinite(v):
            return False
        values.append(Fraction(v))
    if len(values) != len(alphas) or any(v not in edges for v in values):
        return False
    if any(a > b for a, b in zip(values, values[1:])):
        return False
    if TA is None:
        TA = "f64" if any(type(c) is float for c in counts) else "int"
    counts = [Fraction(c) for c in counts]
    if len(counts) == len(edges) + 1:
        counts = counts[1:-1]
    total = sum(counts)
    in_range = Fraction(2) ** -120 <= total <= Fraction(2) ** 100
    if not counts or any(c < 0 for c in counts) or not in_range:
        return True
    if TA in _FORMATS and len(counts) > 2**16:
        return True
    u = max(Fraction(1, 2 ** _FORMATS[name][0]) for name in {F, TA} if name in _FORMATS)
    delta = (2 * len(counts) + 8) * u
    cumulative, running = [], Fraction(0)
    for c in counts:
        running += c
        cumulative.append(running / total)
    for alpha, v in zip(alphas, values):
        a = Fraction(alpha)
        low = min(nearest_admissible(cumulative, max(a - delta, Fraction(0))))
        high = max(nearest_admissible(cumulative, min(a + delta, Fraction(1))))
        if not edges[low] <= v <= edges[high]:
            return False
    return True


# -- make_consistent_b_ary_tree ----------------------------------------------------------------


def _ieee(result, TA: str):
    """An exact or IEEE-special result as a value of ``TA``: a finite result rounded once
    (``Fraction``), an overflow the signed infinity, a special (``inf``, ``nan``) kept."""
    if isinstance(result, float):
        return result if not math.isfinite(result) else Fraction(result)
    try:
        return round_to_format(result, TA)
    except OverflowError:
        return math.inf if result > 0 else -math.inf


def _operation(kind: str, a, b, TA: str):
    """``a kind b`` in the IEEE format ``TA`` (``+``, ``-``, ``*``, ``/``).  Zeros carry no
    sign: the replay's only divisors are variances, which are never negative zero."""
    if isinstance(a, float) or isinstance(b, float):  # a special operand: IEEE's rule
        x, y = float(a), float(b)
        if kind == "/" and y == 0:
            return math.nan if x == 0 or math.isnan(x) else math.copysign(math.inf, x)
        return _ieee({"+": x + y, "-": x - y, "*": x * y, "/": x / y if y else 0.0}[kind], TA)
    if kind == "/":
        if b == 0:
            return math.nan if a == 0 else (math.inf if a > 0 else -math.inf)
        return _ieee(a / b, TA)
    return _ieee({"+": a + b, "-": a - b, "*": a * b}[kind], TA)


def consistent_tree_expected(tree: list, b: int, TOA: str = "f64") -> list:
    """The leaves the theorem's steps (1)-(4) give on the integer ``tree`` of ``m >= 1`` nodes
    (the module docstring), as Python floats of ``TOA``."""

    def op(kind, a, c):
        return _operation(kind, a, c, TOA)

    def nodes(layers):
        return (b**layers - 1) // (b - 1)

    m, layers = len(tree), 1
    while nodes(layers) < m:
        layers += 1
    size = nodes(layers)
    zeros = size - m
    one = Fraction(1)
    var = [one] * size
    t = [_ieee(Fraction(int(v)), TOA) for v in tree] + [Fraction(0)] * zeros
    for layer in range(layers):  # (1): zero nodes at the end of each layer
        end = nodes(layer + 1)
        for i in range(end - zeros // b ** (layers - layer - 1), end):
            var[i], t[i] = Fraction(0), Fraction(0)
    for layer in range(layers - 2, -1, -1):  # (2): bottom-up
        for i in range(nodes(layer), nodes(layer + 1)):
            if var[i] == 0:
                continue
            children = range(i * b + 1, i * b + b + 1)
            big_v, big_s = var[children[0]], t[children[0]]
            for j in children[1:]:
                big_v, big_s = op("+", big_v, var[j]), op("+", big_s, t[j])
            new_var = op("/", one, op("+", op("/", one, var[i]), op("/", one, big_v)))
            alpha = op("*", op("/", one, var[i]), new_var)
            var[i] = new_var
            t[i] = op("+", op("*", alpha, t[i]), op("*", op("-", one, alpha), big_s))
    h = list(t)
    for layer in range(layers - 1):  # (3): top-down
        for i in range(nodes(layer), nodes(layer + 1)):
            children = range(i * b + 1, i * b + b + 1)
            below = t[children[0]]
            for j in children[1:]:
                below = op("+", below, t[j])
            c = op("-", h[i], below)
            if c == 0:
                continue
            total = var[children[0]]
            for j in children[1:]:
                total = op("+", total, var[j])
            for j in children:
                h[j] = op("+", h[j], op("/", op("*", c, var[j]), total))
    return [float(v) for v in h[nodes(layers - 1) : size - zeros]]  # (4)


def consistent_tree_postcondition(tree: list, b: int, out: list, TOA: str = "f64") -> bool:
    """Is ``out`` what ``make_consistent_b_ary_tree(b, TOA=TOA)`` must return on ``tree``:
    as many Python floats as the present leaves, each equal to the replayed leaf (NaN where the
    replay gives NaN; ``-0.0 == 0.0``)?"""
    expected = consistent_tree_expected(tree, b, TOA)
    return len(out) == len(expected) and all(
        type(o) is float and (o == e or (math.isnan(o) and math.isnan(e)))
        for o, e in zip(out, expected)
    )


# -- shapes the proofs state (monotone cdf, quantiles near the edges' hull) --------------------


def cdf_shape(x: list, out: list) -> bool:
    """On values all ``>= 0`` (no NaN) whose output ends finite: ``out`` does not decrease, lies
    in ``[0, 1]`` and ends at exactly 1 (IEEE rounding is monotone and ``c / c = 1``); ``True``
    where this does not apply."""
    if any(math.isnan(v) or v < 0 for v in x) or not out or not math.isfinite(out[-1]):
        return True
    if any(math.isnan(o) for o in out):
        return False
    return (
        out[-1] == 1.0
        and all(0 <= o <= 1 for o in out)
        and all(a <= b for a, b in zip(out, out[1:]))
    )


def linear_quantiles_shape(edges: list, counts: list, alphas: list, out: list, F: str) -> bool:
    """One output per alpha; on counts all ``>= 0`` with a positive total, each output that is
    not NaN lies in ``[lo - eps, hi + eps]`` and each is at least its predecessor minus ``eps``,
    where ``lo``, ``hi`` are the outer edges rounded to ``F`` and ``eps = 8 u max(|lo|, |hi|)``
    (``u`` the unit roundoff of F): OpenDP's interpolation ``(1 - t) e_k + t e_{k+1}`` may leave
    the hull, or step back, by rounding."""
    if len(out) != len(alphas):
        return False
    if any(c < 0 for c in counts) or not sum(Fraction(c) for c in counts) > 0:
        return True
    lo = round_to_format(Fraction(edges[0]), F)
    hi = round_to_format(Fraction(edges[-1]), F)
    eps = 8 * Fraction(1, 2 ** _FORMATS[F][0]) * max(abs(lo), abs(hi))
    values = [Fraction(v) for v in out if not (type(v) is float and math.isnan(v))]
    if any(type(v) is float and math.isinf(v) for v in out):
        return False
    return all(lo - eps <= v <= hi + eps for v in values) and all(
        b >= a - eps for a, b in zip(values, values[1:])
    )

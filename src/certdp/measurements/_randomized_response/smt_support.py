"""Support of the randomized-response SMT models: is a map value below ``c |ln q|``, and
what does the real release function output under scripted draws?

The logarithm is enclosed by mpmath's interval arithmetic (independent of certdp's own
``_ln_enclosure``, which the map under test uses) at a precision that doubles until the
comparison is decided, and the decided comparison is handed to z3 as exact reals.
"""

from __future__ import annotations

import math
import types
from fractions import Fraction

import mpmath
import z3
from mpmath.libmp import to_rational

from certdp.contracts.smt_code import exact


def _log_enclosure(q: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    saved, mpmath.iv.prec = mpmath.iv.prec, precision
    try:
        interval = abs(mpmath.iv.log(mpmath.iv.mpf(q.numerator) / q.denominator))
        return tuple(Fraction(*to_rational(end)) for end in interval._mpi_)
    finally:
        mpmath.iv.prec = saved


def below_scaled_abs_log(value: float, c: int, q: Fraction) -> z3.BoolRef:
    """A z3 formula, true exactly when ``value < c |ln q|`` (``+inf`` is never below)."""
    if value == math.inf:
        return z3.BoolVal(False)
    if c == 0 or q == 1:
        return exact(value) < 0
    precision = 128
    while True:
        lo, hi = _log_enclosure(q, precision)
        # decided when value lies outside [c lo, c hi]: below c lo, or at or above c hi
        if Fraction(value) < c * lo:
            return exact(value) < c * exact(lo)
        if Fraction(value) >= c * hi:
            return exact(value) < c * exact(hi)
        precision *= 2


# --- the real release, run with scripted draws -------------------------------------------------
#
# A release function of these mechanisms draws only through two names of its module:
# ``entropy_source()`` (whose ``below(m)`` it may call) and ``bernoulli_ratio(source, n, d)``.
# :func:`scripted_run` runs the real function's code object with exactly those two names bound
# to a script (a sequence of outcomes, used in order), and records every draw with the arguments
# the code passed.  A draw the code makes some other way is not scripted: it either fails (the
# script source has no other method) or is missing from the record, and both show up as a
# violation.  The samplers themselves are assumed exact (samplers/*.tex).

#: Largest ``below(m)`` whose outcomes are enumerated, and most draws on one path.
WIDEST_DRAW, DEEPEST_PATH = 64, 64


class NeedDraw(Exception):
    """The function asked for a draw beyond the script: ``call`` is that draw."""

    def __init__(self, call):
        super().__init__(call)
        self.call = call


class _Script:
    def __init__(self, outcomes):
        self.outcomes, self.calls = tuple(outcomes), []

    def _next(self, call):
        if len(self.calls) >= len(self.outcomes):
            raise NeedDraw(call)
        self.calls.append(call)
        return self.outcomes[len(self.calls) - 1]

    def below(self, m):
        return self._next(("below", m))

    def bernoulli(self, source, n, d):
        if source is not self:
            raise AssertionError("bernoulli_ratio called with a source other than the script")
        return self._next(("bernoulli", n, d))


def scripted_run(function, arg, outcomes):
    """``(output, calls)``: the real ``function`` on ``arg`` with its draws taken from
    ``outcomes`` in order (``NeedDraw`` if it asks for more); ``calls`` records each draw as
    ``("bernoulli", n, d)`` or ``("below", m)``."""
    names = function.__code__.co_names
    if "entropy_source" not in names:
        raise AssertionError(f"{function.__qualname__} does not draw through entropy_source")
    script = _Script(outcomes)
    scope = dict(function.__globals__, entropy_source=lambda: script)
    scope["bernoulli_ratio"] = script.bernoulli
    clone = types.FunctionType(
        function.__code__, scope, function.__name__, function.__defaults__, function.__closure__
    )
    output = clone(arg)
    return output, script.calls


def _choices(call):
    if call[0] == "bernoulli":
        return (False, True)
    m = call[1]
    if type(m) is not int or not 1 <= m <= WIDEST_DRAW:
        raise AssertionError(f"below({m!r}) is not enumerable here")
    return tuple(range(m))


def _weight(call, outcome) -> Fraction:
    if call[0] == "bernoulli":
        _, n, d = call
        if not (type(n) is int and type(d) is int and 0 <= n <= d and d > 0):
            raise AssertionError(f"bernoulli_ratio({n!r}, {d!r}) is not a probability")
        return Fraction(n, d) if outcome else 1 - Fraction(n, d)
    return Fraction(1, call[1])


def exact_law(function, arg) -> dict:
    """The exact output law of the real ``function`` on ``arg``: every draw path enumerated
    (depth-first, each draw's outcomes from its arguments), each path weighted by the
    probabilities the arguments give.  Outputs are keyed by ``(type, value)``; zero-probability
    outputs are dropped."""
    law: dict = {}
    pending = [()]
    while pending:
        prefix = pending.pop()
        if len(prefix) > DEEPEST_PATH:
            raise AssertionError(f"more than {DEEPEST_PATH} draws on one path")
        try:
            output, calls = scripted_run(function, arg, prefix)
        except NeedDraw as need:
            pending.extend(prefix + (outcome,) for outcome in _choices(need.call))
            continue
        weight = Fraction(1)
        for call, outcome in zip(calls, prefix, strict=True):
            weight *= _weight(call, outcome)
        key = (type(output), output)
        law[key] = law.get(key, 0) + weight
    return {key: p for key, p in law.items() if p != 0}


def law_of(pairs) -> dict:
    """A law ``{(type, value): probability}`` from ``(value, probability)`` pairs."""
    law: dict = {}
    for value, p in pairs:
        key = (type(value), value)
        law[key] = law.get(key, 0) + Fraction(p)
    return {key: p for key, p in law.items() if p != 0}


def shown_law(law) -> dict:
    return {repr(value): str(p) for (_, value), p in law.items()}

"""The inner measurement of the measure-conversion SMT models (make_pureDP_to_zCDP,
make_zCDP_to_approxDP, make_fix_delta, make_fixed_approxDP_to_approxDP): its map is a loss
that depends on ``d_in`` (several families per model: linear and quadratic losses, a delta
growing with ``d_in``), so an obligation calling the real converted map at the ``d_in`` of
:data:`CONVERSION_D_INS` refutes a conversion that, at one of those ``d_in``, reads the inner map
at another distance and gets a smaller value from at least one family (a conversion that scales
the value read at ``d_in = 1`` linearly is refuted by the quadratic family).  Only those finitely
many ``d_in`` are checked: a misreading confined to other distances is not refuted.  A
call of the real map that raises where the model expects a value is a counterexample
(:func:`raised_case`), never an error of the prove run."""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "CONVERSION_D_INS",
    "linear",
    "quadratic",
    "grown_delta",
    "LOSS_FAMILIES",
    "d_in_stub_measurement",
    "shown_d_ins",
    "raised_case",
]

#: The distances at which the conversions' real maps are called: 1, the integers 2, 3, 7, 10,
#: 100, 1000, a binary fraction, a non-binary Fraction and an integer far beyond the f64 range.
CONVERSION_D_INS = (1, 2, 3, 7, 10, 100, 0.5, Fraction(1, 3), 1000, 10**400)


def linear(loss, d_in):
    """``loss * d_in`` exact (``loss`` itself at ``d_in = 1``, ``+inf`` kept): strictly
    increasing in ``d_in`` for every finite ``loss > 0``."""
    if d_in == 1 or loss == math.inf:
        return loss
    return Fraction(loss) * Fraction(d_in)


def quadratic(loss, d_in):
    """``loss * d_in**2`` exact (``loss`` itself at ``d_in = 1``, ``+inf`` kept): how a
    Gaussian's rho grows; a conversion that scales the value at ``d_in = 1`` linearly reports
    less than this for every ``d_in > 1``."""
    if d_in == 1 or loss == math.inf:
        return loss
    return Fraction(loss) * Fraction(d_in) ** 2


def grown_delta(delta, d_in):
    """``min(1, delta * d_in)`` exact (``delta`` itself at ``d_in = 1``): a delta that grows with
    ``d_in``, as under group privacy."""
    if d_in == 1:
        return delta
    return min(Fraction(1), Fraction(delta) * Fraction(d_in))


#: The loss families of the conversion models, by the name their claims print.
LOSS_FAMILIES = (("* d_in", linear), ("* d_in**2", quadratic))


def d_in_stub_measurement(loss_at, measure):
    """A measurement on f64 atoms (absolute distance) under ``measure`` whose privacy map is
    ``d_in -> loss_at(d_in)``."""
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance
    from certdp.core.transformation import Measurement

    return Measurement(
        atom_domain(T="f64", nan=False), lambda x: x, absolute_distance(T="f64"), measure,
        lambda d_in: loss_at(d_in),
    )  # fmt: skip


def shown_d_ins() -> str:
    """:data:`CONVERSION_D_INS` as the claims print it."""
    return "(" + ", ".join(str(d) if d < 10**6 else "10**400" for d in CONVERSION_D_INS) + ")"


def raised_case(error: Exception, example: dict):
    """The case for a call of the real map that raised ``error`` where the model expects a
    value (the conversions' maps never raise on these instances): always satisfiable, so the
    obligation reports it as a counterexample naming the exception."""
    import z3

    shown = {**example, "raised": f"{type(error).__name__}: {error}"}
    return z3.BoolVal(True), lambda m: shown

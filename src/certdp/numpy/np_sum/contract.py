"""Contract of ``make_np_sum``: the theorem of make_np_sum.tex, executable.

Bound (default numerics), with ``R`` the norm, ``O`` the origin and ``rho`` the rounding
allowance of ``rows`` rows (``rows`` = the known size, else ``SIZE_LIMIT``)::

    known size:    floor(d_in / 2) * 2 R              + 2 rho
    unknown size:  d_in * max(R + ||O||_p, 2 R)       + 2 rho
    rho = gamma(depth(rows)) * rows * (R + ||O||_p)                       (f64)
    rho = (gamma + u32 (1 + gamma)) * rows * (R + ||O||_p) + k 2**-150    (f32)

``||O||_2`` is the exact (irrational) norm.  Under ``idealized-numerics`` the map is OpenDP's
float evaluation of the real-arithmetic bound (``rho = 0``, ``d_in (R + ||O||_p)`` for unknown
size); it is checked only to agree with that bound to a relative ``2**-16``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.metrics import symmetric_distance
from certdp.numpy._support import strategies  # noqa: F401  (registers the array neighbours)
from certdp.numpy._support.column_sum import depth
from certdp.numpy._support.error_bounds import gamma, subnormal_half_spacing, unit_roundoff
from certdp.numpy._support.preconditions import INPUT_DOMAIN_ARRAY2, INPUT_METRIC_SYMMETRIC
from certdp.numpy.array2_domain import NPArray2Domain, array2_domain

from .make_np_sum import make_np_sum

R, S1, RHO, KNOWN, MULT = sympy.symbols("R S1 rho known mult", nonnegative=True)

BOUND = MULT * (KNOWN * 2 * R * sympy.floor(D_IN / 2) + (1 - KNOWN) * D_IN * S1) + 2 * RHO


def _rational(value) -> sympy.Rational:
    value = Fraction(value)
    return sympy.Rational(value.numerator, value.denominator)


def origin_norm(domain: NPArray2Domain) -> sympy.Expr:
    """``||O||_p`` exactly."""
    values = [_rational(v) for v in np.atleast_1d(domain.origin).tolist()]
    if domain.p == 1:
        return sum((abs(v) for v in values), sympy.Integer(0))
    return sympy.sqrt(sum((v * v for v in values), sympy.Integer(0)))


def rho(domain: NPArray2Domain, rows: int) -> sympy.Expr:
    """The proof's rounding allowance for ``rows`` rows of ``domain``."""
    reach = _rational(domain.norm) + origin_norm(domain)
    g = _rational(gamma(depth(rows), "f64"))
    if domain.T.name == "f64":
        return g * rows * reach
    u = _rational(unit_roundoff("f32"))
    tiny = _rational(subnormal_half_spacing("f32"))
    return (g + u * (1 + g)) * rows * reach + domain.num_columns * tiny


def parameters(args, built) -> dict:
    domain = args.input_domain
    radius = _rational(domain.norm)
    reach = radius + origin_norm(domain)
    known = domain.size is not None
    if getattr(built, "idealized", False):
        return {R: radius, S1: reach, RHO: 0, KNOWN: int(known), MULT: 1 - sympy.Rational(1, 2**16)}
    rows = domain.size if known else built.size_limit
    return {
        R: radius,
        S1: sympy.Max(reach, 2 * radius),
        RHO: rho(domain, rows),
        KNOWN: int(known),
        MULT: 1,
    }


_NORMS = [0.0, 0.25, 1.0, 3.0, 1e-3, 1000.0]
_ORIGIN_SCALES = {"f32": [1.0, 1e3, 2.0**20], "f64": [1.0, 1e6, 2.0**40, 1e15]}


@st.composite
def origins(draw, T: str, k: int):
    """None, 0, or a vector of ``T`` values, small or large."""
    kind = draw(st.sampled_from(["none", "zero", "vector", "vector"]))
    if kind == "none":
        return None
    if kind == "zero":
        return 0.0
    scale = draw(st.sampled_from(_ORIGIN_SCALES[T]))
    entries = [draw(st.floats(-1, 1, width=32)) * scale for _ in range(k)]
    dtype = np.float32 if T == "f32" else np.float64
    return np.array(entries, dtype=np.float64).astype(dtype).astype(np.float64)


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(st.integers(1, 3))
    domain = array2_domain(
        norm=draw(st.sampled_from(_NORMS)),
        p=draw(st.sampled_from([1, 2])),
        origin=draw(origins(T, k)),
        size=draw(st.one_of(st.none(), st.integers(0, 6))),
        num_columns=k,
        nan=False,
        T=T,
    )
    return {"input_domain": domain, "input_metric": symmetric_distance()}


def _bounded(a) -> bool:
    return a.input_domain.norm is not None and a.input_domain.p in (1, 2)


CONTRACT = TransformationContract(
    constructor=make_np_sum,
    preconditions=[
        INPUT_DOMAIN_ARRAY2,
        Precondition(
            "input-domain-bounded",
            _bounded,
            "input_domain must bound the rows' p-norm (norm=..., p=1 or 2)",
            parameter="input_domain",
        ),
        Precondition(
            "input-domain-nan-free",
            lambda a: not a.input_domain.nan,
            "input_domain must not allow NaN",
            parameter="input_domain",
        ),
        Precondition(
            "input-domain-float",
            lambda a: a.input_domain.T.is_float,
            "input_domain must hold f32 or f64 entries",
            parameter="input_domain",
        ),
        Precondition(
            "input-domain-columns-known",
            lambda a: a.input_domain.num_columns is not None,
            "input_domain must know num_columns",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC,
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
)

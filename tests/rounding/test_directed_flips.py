"""Every directed rounding of the privacy and stability maps is pinned (issue 18 part 2).

Each row names one directed operation (module, the ``# label:`` of its line, the call as
written) and an input at which rounding that one operation the other way makes the map's
result fall below the exact value the proof bounds. Two tests per row:

* ``test_real_map_is_not_below_the_exact_value``: the real code's result is ``>=`` the exact
  value at that input. It fails if the operation is flipped in the source.
* ``test_flip_is_exposed``: a copy of the module with that one operation flipped (built by
  ``flips.flipped``) returns a result strictly below the exact value at the same input, so the
  row's input really exposes the flip (this keeps the table honest when the code changes).

Exact values are ``Fraction`` arithmetic, or (for ``cdp_delta``, whose exact value is the
infimum over orders of the Canonne-Kamath-Steinke bound) mpmath at 80 digits, compared with a
relative margin of 1e-40 so that each comparison is decided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import pytest

import certdp.numeric as numeric
import certdp.prelude as dp
from certdp.combinators._support.contract_support import mp_cdp_delta
from certdp.numeric import round_rational, ulp

from .flips import flipped

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


@dataclass(frozen=True)
class Row:
    name: str
    module: str
    label: str
    old: str
    new: str
    run: object  # module -> result
    exact: object  # () -> exact value (Fraction or mpf)

    def __repr__(self) -> str:
        return self.name


def _below(result, exact) -> bool:
    """Is ``result`` strictly below ``exact``? Decided exactly (Fraction) or with a margin."""
    if isinstance(exact, Fraction):
        return Fraction(result) < exact
    with mpmath.workdps(80):
        margin = abs(exact) * mpmath.mpf(10) ** -40
        gap = mpmath.mpf(result) - exact
        assert abs(gap) > margin, f"{result!r} too close to the exact value to decide"
        return gap < 0


# -------------------------------------------------------------------- cdp_delta
CDP = "certdp.combinators._conversion.cdp_delta"


def _cdp_row(name, label, old, new, rho, epsilon):
    def exact():
        with mpmath.workdps(80):
            return mp_cdp_delta(rho, epsilon)

    return Row(
        f"cdp_delta:{name}", CDP, label, old, new, lambda m: m.cdp_delta(rho, epsilon), exact
    )


CDP_ROWS = [
    _cdp_row(
        "rho cast up",
        "rho-check",
        "up=True",
        "up=False",
        Fraction(34980475, 588581814),
        10.088745775120227,
    ),
    _cdp_row(
        "epsilon cast down",
        "epsilon-check",
        "up=False",
        "up=True",
        Fraction(5449, 1387947),
        Fraction(128685, 219793),
    ),
    _cdp_row(
        "a rho up",
        "ar-e",
        "inf_sub(inf_mul(a, rho)",
        "inf_sub(neg_inf_mul(a, rho)",
        0.01088394592182994,
        2.1091222861968943,
    ),
    _cdp_row(
        "t1 up",
        "t1",
        "inf_mul(a_1, ar_e)",
        "neg_inf_mul(a_1, ar_e)",
        0.01088394592182994,
        2.1091222861968943,
    ),
    _cdp_row(
        "1/a down",
        "t2",
        "-neg_inf_div(1.0, a)",
        "-inf_div(1.0, a)",
        50.9646456711531,
        50.771845105698766,
    ),
    _cdp_row(
        "exponent up",
        "exponent",
        "inf_add(t1, t2)",
        "numeric.neg_inf_add(t1, t2)",
        0.01088394592182994,
        2.1091222861968943,
    ),
    _cdp_row(
        "exp up",
        "delta",
        "inf_exp(exponent)",
        "numeric.next_down(inf_exp(exponent))",
        1.054791416143725e-08,
        1.311325052560046,
    ),
    _cdp_row(
        "quotient up",
        "delta",
        "inf_div(inf_exp",
        "neg_inf_div(inf_exp",
        1.054791416143725e-08,
        1.311325052560046,
    ),
]


# -------------------------------------------------------------------- exact-rational maps
def _laplace_3() -> Fraction:
    """The Laplace map at scale 3 and d_in 1: 1/3 rounded up."""
    return Fraction(dp.m.make_laplace(*ATOM, 3.0).map(1.0))


def _pure_run(m):
    return m.make_pureDP_to_zCDP(dp.m.make_laplace(*ATOM, 3.0)).map(1.0)


def _composition_run(m):
    parts = [dp.m.make_laplace(*ATOM, 3.0), dp.m.make_laplace(*ATOM, 7.0)]
    return m.make_composition(parts).map(1.0)


def _composition_exact():
    return _laplace_3() + Fraction(dp.m.make_laplace(*ATOM, 7.0).map(1.0))


def _count_run(m):
    domain = dp.vector_domain(dp.atom_domain(T="i32"))
    return m.make_count(domain, dp.symmetric_distance(), TO="f32").map(2**24 + 1)


MEAN_BOUNDS = (0.0, 10.0)


def _mean_input(size):
    return dp.vector_domain(dp.atom_domain(bounds=MEAN_BOUNDS, T="f64"), size=size)


def _mean_run(size, d_in):
    return lambda m: m.make_mean(_mean_input(size), dp.symmetric_distance()).map(d_in)


def _mean_exact(size, d_in):
    """reciprocal * sum_map(d_in) + ulp(w), exactly, with reciprocal, w as make_mean has them."""

    def exact():
        lower, upper = MEAN_BOUNDS
        reciprocal = round_rational(Fraction(1, size), "f64", "nearest")
        n = float(size)
        w = numeric.inf_mul(
            max(abs(numeric.neg_inf_mul(n, lower)), numeric.inf_mul(n, upper)), reciprocal
        )
        summed = dp.t.make_sum(_mean_input(size), dp.symmetric_distance()).map(d_in)
        return Fraction(reciprocal) * Fraction(summed) + Fraction(ulp(w))

    return exact


RATIONAL_ROWS = [
    Row(
        "pureDP_to_zCDP:rho up",
        "certdp.combinators.pureDP_to_zCDP.make_pureDP_to_zCDP",
        "rho",
        "inf_cast(",
        "numeric.neg_inf_cast(",
        _pure_run,
        lambda: _laplace_3() ** 2 / 2,
    ),
    Row(
        "composition:sum up",
        "certdp.combinators.composition.make_composition",
        "round-up",
        "inf_cast(",
        "numeric.neg_inf_cast(",
        _composition_run,
        _composition_exact,
    ),
    Row(
        "rounded_map (Laplace):bound up",
        "certdp.measurements._laplace.rounded_map",
        "bound",
        "inf_cast(",
        "numeric.neg_inf_cast(",
        lambda m: m.rounded_up_map(Fraction(3), Fraction(0), lambda d: d / 3)(1),
        lambda: Fraction(1, 3),
    ),
    Row(
        "rounded_map (Gaussian):bound up",
        "certdp.measurements._laplace.rounded_map",
        "bound",
        "inf_cast(",
        "numeric.neg_inf_cast(",
        lambda m: m.rounded_up_map(Fraction(3), Fraction(0), lambda d: d * d / 18)(1),
        lambda: Fraction(1, 18),
    ),
    Row(
        "gaussian l2_relaxation:sqrt up",
        "certdp.measurements._gaussian.gaussian_map",
        "root-up",
        "inf_sqrt(",
        "numeric.neg_inf_sqrt(",
        lambda m: m.l2_relaxation(Fraction(1), 2) ** 2,
        lambda: Fraction(2),
    ),
    Row(
        "count (f32):map up",
        "certdp.transformations.count.make_count",
        "map-float",
        "inf_cast(",
        "numeric.neg_inf_cast(",
        _count_run,
        lambda: Fraction(2**24 + 1),
    ),
    # size 3: 1/3 rounds, so the product is inexact
    Row(
        "mean:product up",
        "certdp.transformations.mean.make_mean",
        "scaled-map",
        "inf_add(inf_mul(",
        "inf_add(numeric.neg_inf_mul(",
        _mean_run(3, 2),
        _mean_exact(3, 2),
    ),
    # size 4: the product d_sum / 4 is exact and far above ulp(w), so the addition is inexact
    Row(
        "mean:sum up",
        "certdp.transformations.mean.make_mean",
        "scaled-map",
        "return inf_add(",
        "return numeric.neg_inf_add(",
        _mean_run(4, 2**40),
        _mean_exact(4, 2**40),
    ),
]

ROWS = CDP_ROWS + RATIONAL_ROWS


@pytest.fixture(autouse=True)
def _contrib():
    """The flipped copies are not vetted code: run them (and the real maps) with contrib."""
    dp.enable_features("contrib")
    yield


@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_real_map_is_not_below_the_exact_value(row):
    import importlib

    assert not _below(row.run(importlib.import_module(row.module)), row.exact())


@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_flip_is_exposed(row):
    module = flipped(row.module, row.label, row.old, row.new)
    module.numeric = numeric
    assert _below(row.run(module), row.exact())


def test_every_row_names_a_distinct_operation():
    names = [row.name for row in ROWS]
    assert len(names) == len(set(names))
    assert all(math.isfinite(float(row.exact())) for row in ROWS)

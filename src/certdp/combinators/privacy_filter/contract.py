"""Contract of ``make_privacy_filter``: the theorem of make_privacy_filter.tex, executable.

``CONTRACT.verify()`` builds filters (pure DP, zCDP, Approximate of either; budgets from
zero to ``+inf``, fractions included) and submits drawn sequences of queries: real Laplace
(pure DP) and Gaussian (zCDP) measurements, whose exact divergences on a pair of ``d_in``-close
inputs their own contracts compute, and queries whose maps state chosen losses (pairs
included).  It checks: the answered queries' exact losses at ``d_in`` never add up past
``d_out``; a query is refused exactly when the exact total with it is above ``d_out`` (a
``FailedFunctionError`` naming ``query`` that says what is left), and a refused query's
function never runs; the map states at least ``d_out`` for every ``d_in' <= d_in`` and
refuses larger ones; and for the real mechanisms, the exact divergence of the transcript (the
sum of the answered queries' divergences: the refusals depend on the maps only) is at most
the map's value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certdp.combinators._odometer.odometer import Odometer
from certdp.combinators._support.contract_support import (
    component_divergence,
    pure_measurements,
    zcdp_measurements,
)
from certdp.combinators._support.odometer_support import (
    SPACE,
    exact_total,
    is_pair,
    losses_of,
    stub,
    within,
)
from certdp.contracts.contract import Contract, Precondition, VerificationReport, at_least
from certdp.core.errors import ContractError, DPError, FailedFunctionError
from certdp.core.exact_type import type_is
from certdp.core.measures import approximate, max_divergence, zero_concentrated_divergence
from certdp.core.transformation import validate_d_in

from .make_privacy_filter import make_privacy_filter

__all__ = ["CONTRACT", "FilterContract"]

FILTERED = (
    max_divergence(),
    zero_concentrated_divergence(),
    approximate(max_divergence()),
    approximate(zero_concentrated_divergence()),
)
APPROX_ZCDP = approximate(zero_concentrated_divergence())


def _violation(message: str, condition: str = "budget") -> ContractError:
    return ContractError(f"make_privacy_filter: {message}", condition=condition)


def _odometer(measure):
    from certdp.combinators.fully_adaptive_composition import make_fully_adaptive_composition

    return make_fully_adaptive_composition(*SPACE, measure)


def _budgets(measure):
    number = st.one_of(
        st.sampled_from([0.0, 0.5, 1.0, 2.0, 5.0, math.inf, Fraction(1, 3)]),
        st.floats(min_value=0.0, max_value=6.0),
    )
    if measure == APPROX_ZCDP:  # a delta is at most 1 under approximate zCDP
        delta = st.one_of(st.sampled_from([0.0, 1e-6, Fraction(1, 3), 1]), st.floats(0.0, 1.0))
        return st.tuples(number, delta)
    return st.tuples(number, number) if is_pair(measure) else number


@st.composite
def _arguments(draw):
    measure = draw(st.sampled_from(FILTERED))
    d_in = draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, Fraction(3, 2)]))
    return {"odometer": _odometer(measure), "d_in": d_in, "d_out": draw(_budgets(measure))}


def _queries(measure):
    """Real mechanisms (with their contracts attached) where certdp has them, else stubs."""
    if measure == max_divergence():
        real = pure_measurements("f64")
    elif measure == zero_concentrated_divergence():
        real = zcdp_measurements("f64")
    else:
        real = None
    stubs = losses_of(measure, with_infinity=True).map(lambda loss: stub(measure, loss))
    return st.one_of(real, real, real, stubs) if real is not None else stubs


@dataclass
class FilterContract(Contract):
    """A filter is a measurement whose release is interactive."""

    kind = "measurement"

    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        """Runtime check of the map: ``d_in <= arguments.d_in`` and ``d_out >= arguments.d_out``
        (per coordinate)."""
        if not d_in <= arguments.d_in:
            raise _violation(f"map({d_in}) answered above d_in = {arguments.d_in}", "privacy-map")
        if not within(arguments.d_out, d_out):
            raise _violation(
                f"map({d_in}) = {d_out!r} is below the budget {arguments.d_out!r}", "privacy-map"
            )

    def verify(self, *, max_examples=None, map_override=None, data_form=None):
        """Search for a query sequence that breaks the theorem.  ``map_override(d_in)``
        replaces the filter's map (to show a wrong map is refuted)."""
        report = VerificationReport(self.name)

        @given(st.data())
        def search(data):
            kwargs = data.draw(self.arguments(), label="arguments")
            built = self.constructor(**kwargs)
            measure, d_in, d_out = (
                kwargs["odometer"].output_measure,
                kwargs["d_in"],
                kwargs["d_out"],
            )
            stated = map_override(d_in) if map_override else built.map(d_in)
            self.check_map_value(self.bind((), kwargs), built, d_in, stated)
            beyond = d_in + 1
            try:
                built.map(beyond)
            except DPError:
                pass
            else:
                raise _violation(f"map({beyond}) answered beyond d_in = {d_in}", "privacy-map")
            x = data.draw(st.floats(-5, 5), label="x")
            x_prime = x + data.draw(st.sampled_from([-1, 1])) * float(d_in)
            if abs(Fraction(x_prime) - Fraction(x)) > d_in:  # rounded apart: use a closer pair
                x_prime = x
            queryable = built(x)
            answered, losses, ran = [], [], []
            for query in data.draw(st.lists(_queries(measure), max_size=6), label="queries"):
                loss = query.map(d_in)
                function = query.function
                query.function = lambda v, f=function, q=query: ran.append(q) or f(v)
                fits = within(exact_total(measure, losses + [loss]), d_out)
                try:
                    queryable(query)
                except FailedFunctionError as error:
                    if fits:
                        raise _violation(f"a query that fits was refused: {error}") from None
                    if error.parameter != "query" or "left" not in str(error):
                        raise _violation(f"a refusal does not say what is left: {error}") from None
                    continue
                if not fits:
                    raise _violation(f"a query taking the total past {d_out!r} was answered")
                answered.append(query)
                losses.append(loss)
            if ran != answered:
                raise _violation("a refused query ran, or an answered one did not run once")
            total = exact_total(measure, losses)
            if not within(total, d_out):
                raise _violation(f"the answered losses add up to {total} > {d_out!r}")
            if not within(queryable.privacy_loss(d_in), stated):
                raise _violation("privacy_loss(d_in) exceeds the map's value")
            if not is_pair(measure):
                # stubs release a constant: divergence 0; the real ones by their contracts
                parts = [
                    component_divergence(q, x, x_prime) for q in answered if hasattr(q, "contract")
                ]
                divergence = sum(parts, sympy.Integer(0))
                if not at_least(stated, divergence):
                    raise _violation(
                        f"transcript divergence {divergence} on ({x}, {x_prime}) exceeds "
                        f"the map's value {stated!r}",
                        "privacy",
                    )
            report.observe(1.0, (kwargs, losses))

        overrides = {"suppress_health_check": [HealthCheck.too_slow], "deadline": None}
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(search)()
        return report


def _loss(value) -> bool:
    return type_is(value, int, float, Fraction) and value == value and value >= 0


#: The bound's symbol, explained on the constructor's page.
SYMBOL_MEANINGS = {
    "d_out": "the budget ``d_out`` (rounded up to a float); the map states it for every "
    ":math:`d_{in}' \\le` ``d_in`` and refuses larger distances",
}

CONTRACT = FilterContract(
    constructor=make_privacy_filter,
    preconditions=[
        Precondition(
            "odometer-fully-adaptive",
            lambda a: (
                isinstance(a.odometer, Odometer)
                and a.odometer.__dict__.get("_fully_adaptive") is True
                and a.odometer.output_measure in FILTERED
            ),
            "odometer must come from make_fully_adaptive_composition, under MaxDivergence, "
            "ZeroConcentratedDivergence or Approximate of either",
            parameter="odometer",
        ),
        Precondition(
            "d-in-distance",
            lambda a: validate_d_in(a.odometer.input_metric, a.d_in) is not None,
            "d_in must be a distance of the odometer's input metric",
            parameter="d_in",
        ),
        Precondition(
            "d-out-loss",
            lambda a: (
                type(a.d_out) is tuple
                and len(a.d_out) == 2
                and all(map(_loss, a.d_out))
                and (a.odometer.output_measure != APPROX_ZCDP or a.d_out[1] <= 1)
                if is_pair(a.odometer.output_measure)
                else _loss(a.d_out)
            ),
            "d_out must be a non-negative number (a pair of them under an approximate measure, "
            "its delta at most 1 under approximate zCDP)",
            parameter="d_out",
        ),
    ],
    bound=sympy.Symbol("d_out", nonnegative=True),
    arguments=_arguments,
)

"""Contract of ``make_fully_adaptive_composition``: the theorem of its .tex, executable.

``CONTRACT.verify()`` builds odometers under each of the four measures, answers drawn sequences
of queries whose maps state chosen losses (zero, subnormal, huge, ``+inf``, fractions, pairs),
and checks after every answer that ``privacy_loss(d_in)`` is the exact sum of the answered
queries' losses rounded up to f64 (so never below it, never NaN), that it never decreases, that
a query on another space or measure is refused with its typed error and charges nothing, and
that each query's function ran once, after its charge.  Under RenyiDivergence the reported loss
is a curve: after every answer it is read at three orders and must be the exact sum of the
answered curves' values there rounded up to f64.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certdp.combinators._support.odometer_support import (
    MEASURES,
    SPACE,
    losses_of,
    rounded_total,
    stub,
    within,
)
from certdp.contracts.contract import Contract, Precondition, VerificationReport
from certdp.core.domains import Domain, atom_domain
from certdp.core.errors import ContractError, DomainMismatchError, MeasureMismatchError
from certdp.core.measures import max_divergence, zero_concentrated_divergence
from certdp.core.metrics import Metric
from certdp.core.renyi_divergence import RenyiDivergence, renyi_divergence
from certdp.core.transformation import Measurement

from .make_fully_adaptive_composition import make_fully_adaptive_composition

__all__ = ["CONTRACT", "OdometerContract"]


def _violation(message: str) -> ContractError:
    return ContractError(f"make_fully_adaptive_composition: {message}", condition="accounting")


def _other_measure(measure):
    return zero_concentrated_divergence() if measure == max_divergence() else max_divergence()


#: The orders at which the contract reads a Rényi odometer's reported curve.
ORDERS = (1.5, 2.0, 10.0)


def _curve(reported):
    """``reported`` when it is a curve (callable); a violation otherwise."""
    if not callable(reported):
        raise _violation(f"privacy_loss under RenyiDivergence returned {reported!r}, not a curve")
    return reported


def _renyi_search(data, constructor, loss_of) -> list:
    """Answer drawn Rényi queries (curves ``alpha -> loss * alpha * (i + 1)``) on a fresh
    odometer and check the reported curve after each; the losses drawn."""
    measure = renyi_divergence()
    queryable = constructor(*SPACE, measure)(data.draw(st.floats(-5, 5), label="x"))
    curves, ran = [], []
    reported = _curve(loss_of(queryable, 1.0))
    if any(reported(alpha) != 0.0 for alpha in ORDERS):
        raise _violation("privacy_loss before any query is not the zero curve")
    losses = data.draw(st.lists(losses_of(max_divergence()), max_size=5), label="losses")
    for step, loss in enumerate(losses):
        curve = lambda alpha, v=loss, k=step: v * alpha * (k + 1)  # noqa: E731
        query = Measurement(
            SPACE[0],
            lambda x, n=step: ran.append(n) or 0.0,
            SPACE[1],
            measure,
            lambda d, c=curve: c,
        )
        queryable(query)
        curves.append(curve)
        reported = _curve(loss_of(queryable, 1.0))
        for alpha in ORDERS:
            expected = rounded_total(max_divergence(), [c(alpha) for c in curves])
            if reported(alpha) != expected:
                raise _violation(
                    f"privacy_loss(1.0)({alpha}) = {reported(alpha)!r} after losses {losses!r}, "
                    f"the exact sum rounded up is {expected!r}"
                )
    if ran != list(range(len(losses))):
        raise _violation(f"query functions ran as {ran}, not once each in order")
    try:
        queryable(stub(max_divergence(), 0.0))
    except MeasureMismatchError:
        pass
    else:
        raise _violation("a pure-DP query was answered by a Rényi odometer")
    return losses


@dataclass
class OdometerContract(Contract):
    """An odometer has no map: its contract checks the accounting of its queryables."""

    kind = "odometer"

    def verify(self, *, max_examples=None, map_override=None, data_form=None):
        """Search for a sequence of queries whose reported loss breaks the theorem.

        ``map_override(queryable, d_in)`` replaces ``queryable.privacy_loss(d_in)`` (to show a
        wrong accounting is refuted)."""
        report = VerificationReport(self.name)

        @given(st.data())
        def search(data):
            measure = data.draw(st.sampled_from((*MEASURES, renyi_divergence())), label="measure")
            loss_of = map_override or (lambda q, d_in: q.privacy_loss(d_in))
            if type(measure) is RenyiDivergence:
                report.observe(1.0, (measure, _renyi_search(data, self.constructor, loss_of)))
                return
            odometer = self.constructor(*SPACE, measure)
            queryable = odometer(data.draw(st.floats(-5, 5), label="x"))
            losses, ran, previous = [], [], loss_of(queryable, 1.0)
            if previous != rounded_total(measure, []):
                raise _violation(f"privacy_loss before any query is {previous!r}")
            for loss in data.draw(st.lists(losses_of(measure), max_size=6), label="losses"):
                query = stub(measure, loss)
                function = query.function
                step = len(losses)
                query.function = lambda x, f=function, n=step: ran.append(n) or f(x)
                queryable(query)
                losses.append(loss)
                reported = loss_of(queryable, 1.0)
                expected = rounded_total(measure, losses)
                if reported != expected:
                    raise _violation(
                        f"privacy_loss(1.0) = {reported!r} after losses {losses!r}, "
                        f"the exact sum rounded up is {expected!r}"
                    )
                if not within(previous, reported):
                    raise _violation(f"privacy_loss decreased from {previous!r} to {reported!r}")
                previous = reported
            if ran != list(range(len(losses))):
                raise _violation(f"query functions ran as {ran}, not once each in order")
            for bad, error in (
                (stub(_other_measure(measure), 0.0), MeasureMismatchError),
                (
                    Measurement(atom_domain(T="i32"), lambda x: 0, SPACE[1], measure, lambda d: 0),
                    DomainMismatchError,
                ),
            ):
                try:
                    queryable(bad)
                except error:
                    pass
                else:
                    raise _violation(f"a query on another space was answered ({bad!r})")
                if loss_of(queryable, 1.0) != previous:
                    raise _violation("a refused query changed the reported loss")
            report.observe(1.0, (measure, losses))

        overrides = {"suppress_health_check": [HealthCheck.too_slow], "deadline": None}
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(search)()
        return report


def _arguments():
    return st.sampled_from((*MEASURES, renyi_divergence())).map(
        lambda measure: {
            "input_domain": SPACE[0],
            "input_metric": SPACE[1],
            "output_measure": measure,
        }
    )


#: The bound's symbol, explained on the constructor's page.
SYMBOL_MEANINGS = {
    "spent": "what ``privacy_loss(d_in)`` of a queryable reports: the exact sum of the "
    "answered measurements' maps at :math:`d_{in}`, rounded up once (an odometer has no map; "
    "its privacy claim is the filter's)",
}

CONTRACT = OdometerContract(
    constructor=make_fully_adaptive_composition,
    preconditions=[
        Precondition(
            "input-domain",
            lambda a: isinstance(a.input_domain, Domain),
            "input_domain must be a domain",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric",
            lambda a: isinstance(a.input_metric, Metric),
            "input_metric must be a metric",
            parameter="input_metric",
        ),
        Precondition(
            "output-measure",
            lambda a: a.output_measure in MEASURES or type(a.output_measure) is RenyiDivergence,
            "output_measure must be MaxDivergence, ZeroConcentratedDivergence, Approximate "
            "of either, or RenyiDivergence",
            parameter="output_measure",
        ),
    ],
    bound=sympy.Symbol("spent", nonnegative=True),
    arguments=_arguments,
)

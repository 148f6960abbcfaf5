"""``make_adaptive_composition``: a measurement whose release is a queryable of measurements.

Guarantee (make_adaptive_composition.tex): the returned measurement, invoked on ``x``, releases
a :class:`~certdp.core.queryable.Queryable` that answers at most ``len(d_mids)`` queries; the
``i``-th query it answers is a measurement on the same input domain, metric and measure whose
map at ``d_in`` is at most ``d_mids[i]`` (compared exactly), charged before it runs and never
refunded. Every other query is refused with a typed error that names the rule and the budget
left, before anything runs. Under ``Approximate(ZeroConcentratedDivergence)`` the queryables a
release spawns refuse queries once a later query has been charged, and the compositor refuses
queries while one of them is answering (sequentiality; OpenDP has the first rule only).
The privacy map ``d_in' -> sum(d_mids)`` (the exact sum rounded up, combinators/_compose), for
``d_in' <= d_in``, is valid for every adaptively chosen sequence of queries, provided each query
is a valid measurement (no check can tell a relabelled one: an honest Gaussian declared
MaxDivergence is accepted).  "The same" space is decided by ``same_space`` (combinators/_compose).
"""

from __future__ import annotations

import copy
import threading
import warnings
from typing import NamedTuple

import numpy as np

from certdp.combinators._compose import COMPOSABLE, composable, compose_losses, sequential_only
from certdp.combinators._compose import same_space as _same
from certdp.contracts import certified
from certdp.core.conversion import exact_scalar, is_foreign_number
from certdp.core.domains import Domain
from certdp.core.errors import (
    DomainMismatchError,
    FailedFunctionError,
    FailedMapError,
    MakeMeasurementError,
    MeasureMismatchError,
    MetricMismatchError,
    type_mismatch,
)
from certdp.core.exact_type import type_is, types_are
from certdp.core.metrics import Metric
from certdp.core.partial import partial_constructor
from certdp.core.partition_metrics import L0PInfDistance
from certdp.core.queryable import Queryable, guarded, refuse_suspended
from certdp.core.transformation import Measurement, validate_d_in

__all__ = [
    "CompositorQueryable",
    "CompositorState",
    "make_adaptive_composition",
    "then_adaptive_composition",
    "make_sequential_composition",
    "then_sequential_composition",
]


# proof: begin constructor
@certified
def make_adaptive_composition(
    input_domain, input_metric, output_measure, d_in, d_mids
) -> Measurement:
    """A queryable answering up to ``len(d_mids)`` measurements, the ``i``-th within
    ``d_mids[i]`` at ``d_in``; the total loss is ``sum(d_mids)``."""
    if not isinstance(input_domain, Domain):  # label: domain
        raise type_mismatch(MakeMeasurementError)("must be a domain", parameter="input_domain")
    if not isinstance(input_metric, Metric):  # label: metric
        raise type_mismatch(MakeMeasurementError)("must be a metric", parameter="input_metric")
    if not composable(output_measure):  # label: measure
        raise MakeMeasurementError(
            f"must be {COMPOSABLE}, got {output_measure!r}", parameter="output_measure"
        )
    try:
        d_in = validate_d_in(input_metric, d_in)  # label: d-in
    except FailedMapError as error:
        raise MakeMeasurementError(error.message.removeprefix("d_in: "), parameter="d_in") from None
    if isinstance(input_metric, L0PInfDistance):  # label: d-in-ordered
        raise MakeMeasurementError(
            "must have totally ordered distances: the (l0, lp, linf) triples of an "
            f"L0-Lp-Linf metric are not (OpenDP 0.16 aborts on them), got {input_metric!r}",
            parameter="input_metric",
        )
    if not type_is(d_mids, list, tuple) or not d_mids:  # label: d-mids
        raise MakeMeasurementError(
            "must be a non-empty list of privacy losses, one per query", parameter="d_mids"
        )
    budgets = tuple(d_mids)  # label: budgets
    total = compose_losses(output_measure, budgets, MakeMeasurementError, "d_mids")  # label: total
    sequential = sequential_only(output_measure)

    def function(data):
        return _compositor(
            _fresh(data), input_domain, input_metric, output_measure, d_in, budgets,
            sequential,
        )  # fmt: skip  # label: release

    def privacy_map(d_in_map):
        if d_in_map > d_in:  # label: map-d-in
            raise FailedMapError(
                f"must be at most {d_in!r}, the d_in the compositor checks every query at",
                parameter="d_in",
            )
        return total  # label: map-total

    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=output_measure,
        privacy_map=privacy_map,
    )


#: Types whose values no code can change (so a list of them is copied by copying the list).
_IMMUTABLE = (int, float, str, bool)


def _fresh(data):
    """A copy of ``data`` that shares no changeable object with it: a new list for a list of
    numbers or strings, a new array for a numeric array, a deep copy otherwise."""
    if type(data) is list and types_are(copied := list(data), *_IMMUTABLE):  # label: fresh-list
        return copied  # the list whose items were tested, not a second read of data
    if type(data) is np.ndarray and data.dtype.kind in "biufc":  # label: fresh-array
        return data.copy()
    return copy.deepcopy(data)  # label: fresh-deep


def _plain(loss):
    """``loss`` with a foreign number (a NumPy scalar, a ``Decimal``), alone or as a coordinate of
    a pair, replaced by its exact built-in value, as OpenDP accepts such losses; else as given."""
    if type(loss) is tuple and len(loss) == 2:  # label: plain-pair
        return tuple(_plain_number(value) for value in loss)
    return _plain_number(loss)


def _plain_number(value):
    """``value``'s exact built-in value if it is a foreign number, else ``value``."""
    if is_foreign_number(value):  # label: plain-foreign
        return exact_scalar(value, "query", FailedMapError)
    return value


def _within(output_measure, loss, budget) -> bool:
    """Is ``loss`` at most ``budget`` in the order of the compositor's own measure class (never
    in an order a query's measure object supplies)?"""
    try:
        return type(output_measure).ordered(_plain(loss), budget) is True  # label: within
    except FailedMapError as error:
        raise FailedMapError(
            f"the query's privacy loss {loss!r} is not a loss under {output_measure!r}: "
            f"{error.message}",
            parameter="query",
        ) from None


def _remaining(budgets, spent: int) -> str:
    """The budget left after ``spent`` queries, for messages."""
    left = budgets[spent:]
    if not left:
        return "no budget remains"
    return f"{len(left)} of {len(budgets)} queries remain, with budgets {list(left)!r} in order"


class CompositorState(NamedTuple):
    """A read-only snapshot of a sequential compositor's ledger: how many queries it had
    charged, its per-query budgets in order, and the ``d_in`` it checks every query at."""

    charged: int
    budgets: tuple
    d_in: object


class CompositorQueryable(Queryable):
    """The queryable :func:`make_adaptive_composition` releases: a :class:`Queryable` whose
    :meth:`state` reports its ledger, read-only."""

    def __init__(self, transition, snapshot):
        super().__init__(transition, query_type="AnyMeasurement")
        self._snapshot = snapshot

    def state(self) -> CompositorState:
        """The compositor's charged count, budgets and ``d_in``, read together under the lock
        that every charge takes (it never waits for a running query)."""
        return self._snapshot()  # label: state


def _compositor(data, input_domain, input_metric, output_measure, d_in, budgets, sequential):
    """The queryable released on ``data``: its state is the number of queries charged and, under
    the sequential rule, the number of queries its releases are answering."""
    spent = [0]  # queries charged so far; only the transition changes it, only upwards
    busy = [0]  # queries of spawned queryables now running (sequential rule only)
    state = threading.Lock()  # held only to read or change spent and busy together

    def permission(index: int):
        """The guard of the queryables spawned by query ``index``: they answer only while no
        later query has been charged, and while one answers, the compositor answers nothing."""

        def ask():
            with state:  # label: guard-lock
                if spent[0] != index + 1:  # label: guard
                    raise FailedFunctionError(
                        f"sequentiality: this queryable was released by query {index + 1}, and "
                        f"the compositor has since charged query {spent[0]}; under "
                        f"{output_measure!r} only the most recent release may be queried",
                        parameter="query",
                    )
                busy[0] += 1  # label: busy
            return done

        return ask

    def done():
        with state:
            busy[0] -= 1  # label: idle

    def snapshot() -> CompositorState:
        with state:  # label: snapshot-lock
            return CompositorState(spent[0], budgets, d_in)  # label: snapshot

    def transition(query, is_internal):
        if is_internal:  # label: internal
            raise FailedFunctionError("the compositor answers no internal query", parameter="query")
        if not issubclass(type(query), Measurement):  # label: query-type
            raise type_mismatch(FailedFunctionError)(
                f"must be a measurement, got {type(query).__name__}; "
                + _remaining(budgets, spent[0]),
                parameter="query",
            )
        if not _same(input_domain, query.input_domain):  # label: query-domain
            raise DomainMismatchError(
                f"the query's input domain {query.input_domain} must be the compositor's "
                f"{input_domain}; " + _remaining(budgets, spent[0]),
                parameter="query",
            )
        if not _same(input_metric, query.input_metric):  # label: query-metric
            raise MetricMismatchError(
                f"the query's input metric {query.input_metric} must be the compositor's "
                f"{input_metric}; " + _remaining(budgets, spent[0]),
                parameter="query",
            )
        if not _same(output_measure, query.output_measure):  # label: query-measure
            raise MeasureMismatchError(
                f"the query's output measure {query.output_measure!r} must be the compositor's "
                f"{output_measure!r}; " + _remaining(budgets, spent[0]),
                parameter="query",
            )
        index = spent[0]  # label: index
        if index >= len(budgets):  # label: out-of-queries
            raise FailedFunctionError(
                f"out of queries: all {len(budgets)} queries have been charged; no budget remains",
                parameter="query",
            )
        loss = Measurement.map(query, d_in)  # label: loss
        if not _within(output_measure, loss, budgets[index]):  # label: check
            raise FailedFunctionError(
                f"insufficient budget: the query's loss at d_in = {d_in!r} is "
                f"{loss!r} > {budgets[index]!r}, the budget of query {index + 1}; "
                + _remaining(budgets, index),
                parameter="query",
            )
        if not sequential:
            with state:  # label: charge-lock-plain
                spent[0] = index + 1  # charged before anything is released  # label: charge
            return query.invoke(_fresh(data))  # label: invoke
        with state:  # label: charge-lock
            if busy[0]:  # label: busy-refuse
                raise FailedFunctionError(
                    f"sequentiality: a queryable released by query {index} is answering a "
                    f"query; under {output_measure!r} the compositor answers nothing until it "
                    "ends; " + _remaining(budgets, index),
                    parameter="query",
                )
            spent[0] = index + 1  # charged before anything is released  # label: charge-seq
        with guarded(permission(index)):  # label: guarded
            return refuse_suspended(query.invoke(_fresh(data)))  # label: invoke-guarded

    return CompositorQueryable(transition, snapshot)  # label: queryable


then_adaptive_composition = partial_constructor(make_adaptive_composition)


# proof: end constructor


def make_sequential_composition(
    input_domain, input_metric, output_measure, d_in, d_mids
) -> Measurement:
    """OpenDP's former name of :func:`make_adaptive_composition` (deprecated there since 0.14,
    with the same warning here); the same measurement."""
    warnings.warn(
        "make_sequential_composition is deprecated: it has been renamed make_adaptive_composition",
        DeprecationWarning,
        stacklevel=2,
    )
    return make_adaptive_composition(input_domain, input_metric, output_measure, d_in, d_mids)


def then_sequential_composition(output_measure, d_in, d_mids):
    """Partial form of :func:`make_sequential_composition` (deprecated name)."""
    warnings.warn(
        "then_sequential_composition is deprecated: it has been renamed then_adaptive_composition",
        DeprecationWarning,
        stacklevel=2,
    )
    return then_adaptive_composition(output_measure, d_in, d_mids)

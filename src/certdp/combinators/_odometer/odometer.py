"""Odometers: interactive compositions whose total privacy loss is counted as it is spent.

Guarantee (odometer.tex): an :class:`OdometerQueryable` answers a measurement only after it has
recorded ("charged") it, under a lock that every charge and every budget check takes; so at any
moment the measurements whose functions have started are among the charged ones, and
``privacy_loss(d_in)`` is at least the exact sum of the charged measurements' maps at ``d_in``.
A queryable given a budget ``(d_in, d_out)`` refuses, before charging or running anything, a
measurement that would take the total at ``d_in`` above ``d_out``; so the total of the charged
measurements at ``d_in`` never exceeds ``d_out``, whatever the threads, callbacks or exceptions.
"""

from __future__ import annotations

import contextlib
import copy
import math
import threading
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from certdp.combinators._compose import compose_losses
from certdp.combinators._compose import same_space as _same
from certdp.core.conversion import exact_scalar, is_foreign_number
from certdp.core.errors import (
    DomainMismatchError,
    DPError,
    FailedFunctionError,
    FailedMapError,
    MeasureMismatchError,
    MetricMismatchError,
    shown,
)
from certdp.core.exact_type import type_is, types_are
from certdp.core.measures import ApproximateDivergence
from certdp.core.queryable import (
    _HOOKS,
    current_hooks,
    end_all,
    guarded_everywhere,
    refuse_suspended,
    start_hooks,
)
from certdp.core.renyi_divergence import RenyiDivergence
from certdp.core.transformation import Measurement, validate_d_in
from certdp.measurements._renyi import RenyiCurve
from certdp.numeric import neg_inf_cast

__all__ = ["Odometer", "OdometerQueryable", "OdometerState"]

# proof: begin queryable
#: The largest finite f64 (what is left of a budget past it is reported as this value).
_F64_MAX = 1.7976931348623157e308


def _left(measure, spent, d_out):
    """``d_out - spent`` per coordinate, rounded down (for the text of a refusal only)."""
    if isinstance(measure, ApproximateDivergence):
        return tuple(_left(None, s, d) for s, d in zip(spent, d_out))
    if d_out == math.inf or spent == math.inf:
        return d_out if spent != math.inf else 0.0
    left = max(Fraction(0), Fraction(d_out) - Fraction(spent))
    return _F64_MAX if left > _F64_MAX else neg_inf_cast(left, "f64")


def _exact_sum(values):
    """The exact sum of non-negative exact numbers: ``inf`` if one is ``inf``, else a
    ``Fraction``."""
    if any(value == math.inf for value in values):  # label: exact-infinite
        return math.inf
    return sum((Fraction(value) for value in values), Fraction(0))  # label: exact-sum


def _exact(measure, losses):
    """The exact sum of checked ``losses`` of ``measure`` (per coordinate for pairs)."""
    if isinstance(measure, ApproximateDivergence):
        return (_exact_sum([d for d, _ in losses]), _exact_sum([e for _, e in losses]))
    return _exact_sum(losses)


def _described(value) -> str:
    """``repr(value)``, or only its type's name when that ``repr`` raises (never raises)."""
    try:
        return repr(value)  # label: describe
    except Exception:
        try:
            return f"a {type(value).__name__} that cannot be shown"
        except Exception:
            return "an object that cannot be shown"


def _typed(call, argument, error, what: str):
    """``call(argument)``; a ``DPError`` it raises propagates, any other ``Exception`` becomes
    ``error`` naming ``query`` (caused by it)."""
    try:
        return call(argument)  # label: typed-call
    except DPError:
        raise
    except Exception as cause:  # label: typed-wrap
        raise error(f"the query's {what} failed: {_failure(cause)}", parameter="query") from cause


def _reader(name: str):
    """A function reading attribute ``name`` of its argument (so the read happens inside
    :func:`_typed`, where a raising attribute becomes a typed error)."""
    return lambda query: getattr(query, name)


def _caller(query, name: str):
    """A function calling method ``name`` of ``query`` (looked up inside :func:`_typed`)."""
    return lambda argument: getattr(query, name)(argument)


def _failure(cause) -> str:
    """The type and message of the exception ``cause``; never raises."""
    try:
        return f"{type(cause).__name__}: {cause}"  # label: failure
    except Exception:
        return "an exception whose message cannot be shown"


def _plain(loss):
    """A map's value with NumPy (and other foreign) numbers made exact built-in numbers, as
    OpenDP accepts them (per coordinate in a pair); anything else unchanged, for
    ``compose_losses`` to judge."""
    if type(loss) is tuple:  # label: plain-pair
        return tuple(_plain_number(value) for value in loss)
    return _plain_number(loss)


def _plain_number(value):
    if is_foreign_number(value):  # label: plain-foreign
        return exact_scalar(value, "query", FailedMapError)
    return value


#: Exact types whose values no code changes (a ``Fraction`` only through its private slots, which
#: user code is assumed not to write; ``copy.deepcopy`` returns a ``Fraction`` itself anyway).
_IMMUTABLE = (int, float, str, bool, type(None), Fraction)


def _fresh(data):
    """A copy of the held ``data`` sharing nothing a query could change: the value itself when it
    is immutable, a new list for a list of immutable values, a new array for a NumPy array of
    numbers, otherwise ``copy.deepcopy``."""
    kind = type(data)
    if type_is(data, *_IMMUTABLE):  # label: fresh-immutable
        return data
    if kind is list and types_are(copied := list(data), *_IMMUTABLE):  # label: fresh-list
        return copied  # the list whose items were tested, not a second read of data
    if kind is np.ndarray and data.dtype.kind in "biufc":  # label: fresh-array
        return data.copy()
    return copy.deepcopy(data)  # label: fresh-deep


def _within(pair: bool, after, d_out) -> bool:
    """Exactly: is the exact total ``after`` at most the budget ``d_out`` (per coordinate for a
    pair)?  Built-in comparisons of exact numbers only; no method of a measure object."""
    if pair:
        return after[0] <= d_out[0] and after[1] <= d_out[1]  # label: within-pair
    return after <= d_out  # label: within


class OdometerState(NamedTuple):
    """A read-only snapshot of an odometer queryable's ledger: how many measurements it had
    charged, its budget ``(d_in, d_out)`` (``None`` without one) and, under a budget, the exact
    total of the charged measurements' maps at that ``d_in`` (``None`` without one)."""

    charged: int
    budget: tuple | None
    spent: object


class OdometerQueryable:
    """The release of an odometer: answers measurements on the data it holds, and reports the
    privacy loss spent so far (``privacy_loss(d_in)``)."""

    def __init__(self, data, input_domain, input_metric, output_measure, budget=None):
        self._space = (input_domain, input_metric, output_measure)  # label: space
        self._pair = type(output_measure) is ApproximateDivergence  # label: pair-kind
        self._data = data
        self._lock = threading.Lock()  # label: lock
        self._charged: list = []  # (query, its loss at the budget's d_in)  # label: charged
        self._budget = budget  # label: budget
        self._spent = _exact(output_measure, [])  # label: spent-init
        self._hooks = current_hooks()  # label: keep-hooks
        shown_space = _shown_copies(self._space)  # copies, which no check reads  # label: shown
        self.input_domain, self.input_metric, self.output_measure = shown_space

    def _admissible(self, query) -> Measurement:
        """``query`` if it is a measurement on this queryable's space; else a typed error."""
        if not issubclass(type(query), Measurement):  # label: query-measurement
            raise FailedFunctionError(
                f"must be a measurement, got {_described(type(query))}", parameter="query"
            )
        mismatches = (
            ("input_domain", "input domain", DomainMismatchError),
            ("input_metric", "input metric", MetricMismatchError),
            ("output_measure", "output measure", MeasureMismatchError),
        )
        for ours, (name, words, error) in zip(self._space, mismatches):
            theirs = _typed(_reader(name), query, FailedFunctionError, name)  # label: query-read
            if not _same(ours, theirs):  # label: query-same
                raise error(
                    f"{words} {_described(theirs)} must equal the odometer's {_described(ours)}",
                    parameter="query",
                )
        return query

    def invoke(self, query):
        """Charge ``query``, then release ``query(data)`` (on a copy of the data, which no query
        can change).  Under a budget, a query that would take the exact total loss at the
        budget's ``d_in`` above its ``d_out`` is refused first."""
        ends = []
        try:
            start_hooks(self._hooks, ends)  # label: hook
            return self._answer(query)  # label: answer
        finally:
            failure = end_all(ends)  # label: end
            if failure is not None:
                raise failure  # label: end-failed

    def _answer(self, query):
        """:meth:`invoke` once the hooks have let ``query`` through."""
        query = self._admissible(query)  # label: admit-query
        measure, loss = self._space[2], None
        if self._budget is not None:
            d_in, d_out = self._budget
            query_map = _caller(query, "map")
            loss = _plain(_typed(query_map, d_in, FailedMapError, "map"))  # label: query-loss
            compose_losses(measure, [loss], FailedMapError, "query")  # label: loss-checked
        with self._lock:  # label: critical-begin
            if self._budget is not None:
                after = _exact(measure, [self._spent, loss])  # label: after
                if not _within(self._pair, after, d_out):  # label: check
                    total = compose_losses(measure, [after])  # label: pending
                    spent = compose_losses(measure, [self._spent])  # label: spent
                    raise FailedFunctionError(
                        f"refused before release: the privacy loss at d_in = {shown(d_in)} "
                        f"would be {total!r} (rounded up) with this query, above the budget "
                        f"d_out = {d_out!r}; spent {spent!r}, left "
                        f"{_left(measure, spent, d_out)!r}",
                        parameter="query",
                    )
                self._spent = after  # label: charge-spent
            self._charged.append((query, loss))  # label: charge
            number = len(self._charged)  # this query's number, for messages
        data = _typed(_fresh, self._data, FailedFunctionError, "data copy")  # label: copy
        token, function = None, _caller(query, "invoke")
        hooks, live, everywhere = self._hooks, [True], contextlib.nullcontext()
        sequential = self._pair and _is_approximate_zcdp(measure)
        if sequential:  # label: sequential-measure
            guard = _answering_while(live, number)
            hooks = (*hooks, guard)  # label: sequential-hook
            everywhere = guarded_everywhere(guard)  # label: sequential-everywhere
        with everywhere:  # label: sequential-block
            try:
                here = _HOOKS.get()  # label: inherit-here
                own = tuple(h for h in hooks if not any(h is k for k in here))
                token = _HOOKS.set((*here, *own))  # label: inherit
                released = _typed(function, data, FailedFunctionError, "function")  # label: release
                return refuse_suspended(released) if sequential else released  # label: suspended
            finally:
                live[0] = False  # label: sequential-end
                if token is not None:
                    _HOOKS.reset(token)

    __call__ = invoke

    def eval(self, query):
        """The same as :meth:`invoke`."""
        return self.invoke(query)

    def state(self) -> OdometerState:
        """The ledger's charged count, budget and exact total, read together under the lock
        that every charge and every budget check takes."""
        with self._lock:  # label: state-lock
            spent = self._spent if self._budget is not None else None
            return OdometerState(len(self._charged), self._budget, spent)  # label: state

    def privacy_loss(self, d_in):
        """The privacy loss spent so far at ``d_in``: the exact sum of the answered (charged)
        measurements' maps at ``d_in``, rounded up."""
        _, metric, measure = self._space
        d_in = validate_d_in(metric, d_in)  # label: loss-d-in
        with self._lock:
            charged = [query for query, _ in self._charged]  # label: snapshot
        maps = [_caller(query, "map") for query in charged]
        losses = [_plain(_typed(f, d_in, FailedMapError, "map")) for f in maps]  # label: loss-maps
        if type(measure) is RenyiDivergence:  # label: loss-renyi
            return _renyi_total(losses)
        return compose_losses(measure, losses, FailedMapError, "query")  # label: report

    def __repr__(self) -> str:
        domain, metric, measure = (_described(part) for part in self._space)
        return (
            f"OdometerQueryable(input_domain={domain}, input_metric={metric}, "
            f"output_measure={measure})"
        )


def _renyi_total(curves) -> RenyiCurve:
    """The curve adding ``curves`` (the charged queries' maps at one ``d_in``) order by order,
    each sum exact and rounded up once when it is called (measurements/_renyi); a typed error
    naming ``query`` when a map's value is not a curve."""
    for number, curve in enumerate(curves, 1):
        if not callable(curve):  # label: renyi-callable
            raise FailedMapError(
                f"under RenyiDivergence a map must return a curve (a callable alpha -> "
                f"epsilon); charged query {number} gave a {type(curve).__name__}",
                parameter="query",
            )
    return RenyiCurve(curves, charged=True)  # label: renyi-total


def _is_approximate_zcdp(measure) -> bool:
    """Whether ``measure`` is Approximate(ZeroConcentratedDivergence)."""
    from certdp.core.measures import ZeroConcentratedDivergence

    return type(measure.measure) is ZeroConcentratedDivergence  # label: approx-zcdp


def _answering_while(live: list, number: int):
    """The guard of every queryable created, in any thread, while query ``number``'s function
    runs: such a queryable answers only while ``live[0]`` holds, that is until that function has
    returned or raised (so under Approximate(zCDP) a release never keeps answering afterwards)."""

    def ask():
        if not live[0]:  # label: sequential-guard
            raise FailedFunctionError(
                f"sequentiality: this queryable was created (in some thread) while query "
                f"{number} of an Approximate(ZeroConcentratedDivergence) odometer ran, and "
                "stopped answering when that query's function returned",
                parameter="query",
            )

    return ask


def _shown_copies(space) -> tuple:
    """Deep copies of the space for the public attributes (so writing to them, or to objects
    they hold, changes nothing any check reads); ``None`` for a part that cannot be copied."""
    copies = []
    for part in space:
        try:
            copies.append(copy.deepcopy(part))  # label: shown-copy
        except Exception:
            copies.append(None)  # label: shown-none
    return tuple(copies)


# proof: end queryable


# proof: begin odometer
class Odometer:
    """A composition with no privacy limit: invoked with data, it returns an
    :class:`OdometerQueryable` holding the data (``input_domain.admit`` of it)."""

    def __init__(self, input_domain, input_metric, output_measure):
        self.input_domain = input_domain
        self.input_metric = input_metric
        self.output_measure = output_measure

    def invoke(self, arg) -> OdometerQueryable:
        """A fresh queryable, with nothing charged, on ``arg`` (a member of the input domain)."""
        data = Measurement._admit(self, arg)  # label: odometer-admit
        return OdometerQueryable(data, self.input_domain, self.input_metric, self.output_measure)

    __call__ = invoke

    @property
    def input_space(self):
        return self.input_domain, self.input_metric

    def __repr__(self) -> str:
        # OpenDP 0.16's layout, one line per part
        return (
            f"Odometer(\n    input_domain   = {self.input_domain},\n"
            f"    input_metric   = {self.input_metric},\n"
            f"    output_measure = {self.output_measure})"
        )


# proof: end odometer

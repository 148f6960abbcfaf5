"""``make_composition``: release the outputs of several measurements on the same input.

Guarantee (make_composition.tex): for a non-empty list (or other iterable, read once) of
measurements with one input domain, one input metric and one output measure, MaxDivergence,
ZeroConcentratedDivergence, the ``Approximate`` form of either, or RenyiDivergence, the returned
measurement releases the list of their outputs (independent randomness), and its privacy map
``d_in -> sum_i map_i(d_in)`` (coordinate-wise for pairs; each exact sum rounded up once,
combinators/_compose; under RenyiDivergence the curve ``alpha -> sum_i map_i(d_in)(alpha)``, each
sum rounded up once when the curve is called, measurements/_renyi) is valid. Under
``Approximate(ZeroConcentratedDivergence)`` a part's queryables answer only until the next part
starts (sequential interaction, as OpenDP's source has it). "The same" is decided by
``same_space`` (combinators/_compose); the guarantee assumes the parts are valid measurements.
"""

from __future__ import annotations

import itertools
import warnings

from certdp.combinators._compose import (
    COMPOSABLE,
    composable,
    compose_losses,
    fresh_measure,
    sequential_only,
)
from certdp.combinators._compose import same_space as _same
from certdp.contracts import certified
from certdp.core.errors import FailedFunctionError, MakeMeasurementError, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.queryable import guarded, refuse_suspended
from certdp.core.renyi_divergence import RenyiDivergence
from certdp.core.transformation import Measurement, composite
from certdp.measurements._renyi import compose_curves

__all__ = ["make_composition", "make_basic_composition"]


# proof: begin constructor
#: The most measurements a composition may run once compositions in it are replaced by their
#: parts: a composition that reuses one object at each level doubles its parts per level, and
#: is refused here rather than exhausting memory.
MAX_LEAVES = 2**20


@certified
def make_composition(measurements) -> Measurement:
    """Compose ``measurements`` (pure DP, zCDP, approximate DP, approximate zCDP or Rényi DP):
    the privacy losses add (Rényi curves order by order)."""
    measurements = _snapshot(measurements)  # label: snapshot
    if not measurements:  # label: non-empty
        raise MakeMeasurementError(
            "must be a non-empty list of measurements", parameter="measurements"
        )
    if not all(issubclass(type(m), Measurement) for m in measurements):  # label: all-measurements
        raise type_mismatch(MakeMeasurementError)(
            "must contain only measurements", parameter="measurements"
        )
    first = measurements[0]
    for other in measurements[1:]:
        if not _same(first.input_domain, other.input_domain):  # label: same-domain
            raise MakeMeasurementError("must share one input domain", parameter="measurements")
        if not _same(first.input_metric, other.input_metric):  # label: same-metric
            raise MakeMeasurementError("must share one input metric", parameter="measurements")
        if not _same(first.output_measure, other.output_measure):  # label: same-measure
            raise MakeMeasurementError("must share one output measure", parameter="measurements")
    renyi = type(first.output_measure) is RenyiDivergence  # label: renyi
    if not renyi and not composable(first.output_measure):  # label: measure
        raise MakeMeasurementError(
            f"output measure must be RenyiDivergence, {COMPOSABLE}, got {first.output_measure}",
            parameter="measurements",
        )
    if renyi:
        measure = RenyiDivergence()  # label: fresh-renyi
    else:
        measure = fresh_measure(first.output_measure)  # label: fresh-measure

    leaves = composed_leaves(measurements)  # label: leaves

    sequential = sequential_only(measure)

    def hooks():
        started = [0]  # how many leaves have started; only grows

        def hook_for(j):
            started[0] = j + 1  # label: start
            return _latest(started, j + 1, measure)

        return hook_for

    def releases_rule(releases):
        return nested(measurements, releases)  # label: nest

    def losses_rule(losses):
        if renyi:
            return compose_curves(losses)  # label: compose-curves
        return compose_losses(measure, losses)  # label: compose

    def function(x):
        hook_for = hooks() if sequential else None
        releases = []
        for j, leaf in enumerate(leaves):
            if hook_for is None:
                releases.append(leaf.invoke(x))  # label: function
            else:
                with guarded(hook_for(j)):  # label: guarded
                    releases.append(refuse_suspended(leaf.invoke(x)))  # label: function-guarded
        return releases_rule(releases)

    def privacy_map(d_in):
        return losses_rule([leaf.map(d_in) for leaf in leaves])  # label: inner-maps

    composed = Measurement(
        input_domain=first.input_domain,
        function=function,
        input_metric=first.input_metric,
        output_measure=measure,  # label: output-measure
        privacy_map=privacy_map,
    )
    composite(
        composed, leaves, losses_rule, releases_rule, hooks if sequential else None
    )  # label: register
    composed._composed = measurements  # label: record
    return composed


def _snapshot(measurements) -> tuple:
    """The parts, read by one pass over ``measurements`` (any iterable, as in OpenDP), at most
    ``MAX_LEAVES + 1`` of them (so an endless iterator ends in a refusal, not a hang).  A
    subclass of ``list`` or ``tuple`` is refused, as the boundary refuses subclasses of built-in
    values: it looks like a fixed sequence but may read differently each time."""
    if isinstance(measurements, (list, tuple)) and not type_is(measurements, list, tuple):
        raise MakeMeasurementError(  # label: subclass
            f"must be a list, a tuple or another iterable, not a subclass of list or tuple "
            f"({type(measurements).__name__})",
            parameter="measurements",
        )
    try:
        reader = iter(measurements)
    except TypeError:  # not iterable at all: OpenDP raises TypeError here too
        raise type_mismatch(MakeMeasurementError)(  # label: not-iterable
            f"must be a non-empty iterable of measurements, not {type(measurements).__name__}",
            parameter="measurements",
        ) from None
    try:
        parts = tuple(itertools.islice(reader, MAX_LEAVES + 1))  # label: one-pass
    except Exception as error:
        raise MakeMeasurementError(
            f"must be a non-empty iterable of measurements; reading it raised {type(error).__name__}",
            parameter="measurements",
        ) from None
    if len(parts) > MAX_LEAVES:  # label: too-many-parts
        raise MakeMeasurementError(
            f"must hold at most {MAX_LEAVES} measurements", parameter="measurements"
        )
    return parts


def _latest(started, number, measure):
    """The guard of the queryables leaf ``number`` releases: they answer only while no later
    leaf has started (so, once the composition has returned, only the last leaf's do)."""

    def ask():
        if started[0] != number:  # label: latest
            raise FailedFunctionError(
                f"sequentiality: this queryable was released by part {number} of a composition "
                f"under {measure!r}, whose part {started[0]} has since run; only the most recent "
                "release may be queried",
                parameter="query",
            )

    return ask


def _parts(measurement):
    """The measurements a composition built here composes, or ``None`` for any other."""
    return measurement.__dict__.get("_composed")  # label: parts


def composed_leaves(measurements) -> list:
    """The measurements that are not compositions built here, met in order when every such
    composition among ``measurements`` is replaced by its parts, at any depth (a loop with an
    explicit stack: no recursion, whatever the depth)."""
    leaves, pending = [], [iter(measurements)]
    while pending:
        measurement = next(pending[-1], None)
        if measurement is None:
            pending.pop()
        elif _parts(measurement) is not None:
            pending.append(iter(_parts(measurement)))  # label: descend
        else:
            leaves.append(measurement)  # label: leaf
            if len(leaves) > MAX_LEAVES:  # label: too-many-leaves
                raise MakeMeasurementError(
                    f"must compose at most {MAX_LEAVES} measurements once nested "
                    "compositions are replaced by their parts",
                    parameter="measurements",
                )
    return leaves


def nested(measurements, releases) -> list:
    """``releases`` (one per leaf, in the order of :func:`composed_leaves`) arranged as the
    compositions return them: a list per composition, holding its parts' releases in order."""
    releases = iter(releases)
    top: list = []
    pending = [(iter(measurements), top)]
    while pending:
        parts, out = pending[-1]
        measurement = next(parts, None)
        if measurement is None:
            pending.pop()
        elif _parts(measurement) is not None:
            inner: list = []
            out.append(inner)
            pending.append((iter(_parts(measurement)), inner))  # label: nest-descend
        else:
            out.append(next(releases))  # label: nest-leaf
    return top


# proof: end constructor


def make_basic_composition(measurements) -> Measurement:
    """OpenDP's former name of :func:`make_composition` (deprecated there since 0.14, with the
    same warning here); the same measurement."""
    warnings.warn(
        "make_basic_composition is deprecated: it has been renamed make_composition",
        DeprecationWarning,
        stacklevel=2,
    )
    return make_composition(measurements)

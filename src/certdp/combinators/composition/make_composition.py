"""``make_composition``: release the outputs of several measurements on the same input.

Guarantee (make_composition.tex): for a non-empty list of measurements with one input domain,
one input metric and one output measure, MaxDivergence or ZeroConcentratedDivergence, the
returned measurement releases the list of their outputs (independent randomness), and its
privacy map ``d_in -> sum_i map_i(d_in)`` (the exact sum rounded up once) is valid.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.errors import ArithmeticOverflowError, MakeMeasurementError, type_mismatch
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence
from certdp.core.transformation import Measurement
from certdp.numeric import inf_cast

__all__ = ["make_composition"]


# proof: begin constructor
#: The most measurements a composition may run once compositions in it are replaced by their
#: parts: a composition that reuses one object at each level doubles its parts per level, and
#: is refused here rather than exhausting memory.
MAX_LEAVES = 2**20


@certified
def make_composition(measurements) -> Measurement:
    """Compose ``measurements`` (pure DP or zCDP): the privacy losses add."""
    if not isinstance(measurements, (list, tuple)) or not measurements:  # label: non-empty
        error = MakeMeasurementError if measurements == [] else type_mismatch(MakeMeasurementError)
        raise error("must be a non-empty list of measurements", parameter="measurements")
    if not all(isinstance(m, Measurement) for m in measurements):  # label: all-measurements
        raise type_mismatch(MakeMeasurementError)(
            "must contain only measurements", parameter="measurements"
        )
    measurements = list(measurements)
    first = measurements[0]
    for other in measurements[1:]:
        if other.input_domain != first.input_domain:  # label: same-domain
            raise MakeMeasurementError("must share one input domain", parameter="measurements")
        if other.input_metric != first.input_metric:  # label: same-metric
            raise MakeMeasurementError("must share one input metric", parameter="measurements")
        if other.output_measure != first.output_measure:  # label: same-measure
            raise MakeMeasurementError("must share one output measure", parameter="measurements")
    measure = first.output_measure
    if not isinstance(measure, (MaxDivergence, ZeroConcentratedDivergence)):  # label: measure
        raise MakeMeasurementError(
            f"output measure must be MaxDivergence or ZeroConcentratedDivergence, got {measure}",
            parameter="measurements",
        )

    leaves = composed_leaves(measurements)  # label: leaves

    def function(x):
        releases = [leaf.invoke(x) for leaf in leaves]  # label: function
        return nested(measurements, releases)  # label: nest

    def privacy_map(d_in) -> float:
        losses = [leaf.map(d_in) for leaf in leaves]  # label: inner-maps
        if any(math.isinf(loss) for loss in losses):  # label: infinite
            return math.inf
        total = sum((Fraction(loss) for loss in losses), Fraction(0))  # exact  # label: sum
        try:
            return inf_cast(total, "f64")  # label: round-up
        except ArithmeticOverflowError:
            return math.inf  # label: overflow

    composed = Measurement(
        input_domain=first.input_domain,
        function=function,
        input_metric=first.input_metric,
        output_measure=measure,  # label: output-measure
        privacy_map=privacy_map,
    )
    composed._composed = tuple(measurements)  # label: record
    return composed


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

"""``make_count_by``: the number of records equal to each distinct record of a dataset, as a
dict from the records present to their counts, of the numeric type ``TV``.

Guarantee: each count saturates at the largest count ``TV`` holds exactly, and
``d_in -> (d_in, d_in, d_in)`` (the last two cast into ``TV``: checked for integers, rounded up
for floats) is a valid stability map from the symmetric or the insert-delete distance to
``l01inf_distance(absolute_distance(TV))``: ``d_in`` records change at most ``d_in`` keys (a key
appearing or disappearing included), by at most ``d_in`` in total and at most ``d_in`` each.
"""

from __future__ import annotations

from collections import Counter

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.errors import ArithmeticOverflowError, DPError, MakeTransformationError, shown
from certdp.core.map_domain import map_domain
from certdp.core.metrics import absolute_distance
from certdp.core.partial import partial_constructor
from certdp.core.partition_metrics import Triple, l01inf_distance
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.numeric import inf_cast
from certdp.transformations._counting import hashable_records, largest_count, records
from certdp.transformations._dataset import dataset_input

__all__ = ["make_count_by", "then_count_by"]


# proof: begin constructor
@certified
def make_count_by(input_domain, input_metric, TV="int") -> Transformation:
    """A dict from each distinct record to its count as a ``TV`` (default ``"i32"``),
    saturating at the largest count ``TV`` holds exactly; stability
    ``d_in -> (d_in, d_in, d_in)`` to ``l01inf_distance(absolute_distance(TV))``."""
    element = dataset_input(input_domain, input_metric)  # label: dataset-input
    hashable_records(element)  # label: hashable
    try:
        TV = carrier(TV)  # label: value-type
    except DPError as error:
        raise MakeTransformationError(str(error), parameter="TV") from None
    if not TV.is_numeric:  # label: value-type-numeric
        raise MakeTransformationError(f"must be a numeric type, not {TV}", parameter="TV")
    cap = largest_count(TV)  # label: cap
    convert = int if TV.is_integer else float

    def function(data):
        histogram = Counter(records(data))  # label: histogram
        return {
            key: convert(min(count, cap)) for key, count in histogram.items()
        }  # label: function

    def stability_map(d_in):
        if TV.is_float:
            bound = inf_cast(d_in, TV.name)  # label: map-float
        elif d_in > TV.max:  # label: map-int-checked
            raise ArithmeticOverflowError(
                f"{shown(d_in)} is not a value of {TV}, the type of the output distance",
                parameter="d_in",
            )
        else:
            bound = d_in  # label: map-int
        return Triple((d_in, bound, bound))  # label: map-triple

    return Transformation(
        input_domain=input_domain,
        output_domain=map_domain(element, atom_domain(T=TV, nan=False)),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=l01inf_distance(absolute_distance(TV)),  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_count_by = partial_constructor(make_count_by)
